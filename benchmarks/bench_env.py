"""Env latency benchmark: start time, reset and step latency per suite, and memory of one env's process tree.

A step is an action and the next observation (the screenshot after the screen
settled). For each suite, the step alternates between two clicks that change
the screen (and, separately, a click that changes nothing, which waits out the
settle time-out). Medians over --runs repetitions.

    .venv/bin/python benchmarks/bench_env.py --runs 30 --out benchmarks/results/env_latency.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

import gymnasium as gym

import hybridgym
from hybridgym.sandbox.processes import descendants

# suite -> (task, two (kind, target) actions that change the screen, one that does not)
CASES = {
    "computer": ("computer.editor-create-file-v0",
                 [("point", (19, 34)), ("point", (19, 34))],       # File menu: open, close
                 ("point", (900, 600))),                          # the text area (already focused)
    "browser": ("browser.todo-add-v0",
                [("selector", "#title"), ("selector", "h2")],      # focus the field, blur it
                ("selector", "header h1")),
    "mobile": ("mobile.contact-add-v1",
               [("selector", "#icon-contacts"), ("selector", "#nav-back")],  # open the app, go back
               ("selector", "#sb-time")),
    "game": ("game.snake-v0", None, None),                        # the scripted player's keys
    "miniwob": ("miniwob.click-checkboxes-v0",
                [("selector", "#ch0"), ("selector", "#ch1")],      # tick two boxes
                ("selector", "#query")),
}


def tree_pss_mb(pid: int) -> float:
    """Proportional set size (shared pages divided among their users) of a process and
    all its descendants, in MB, from /proc/<pid>/smaps_rollup."""
    total = 0
    for p in {pid} | descendants(pid):
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
        except OSError:
            pass
    return total / 1e6


def point(env, kind, target):
    sb = env.unwrapped.sandbox
    return target if kind == "point" else sb.browser.screen_point(target)


def bench_suite(suite: str, runs: int) -> dict:
    task, changing, idle = CASES[suite]
    pss0 = tree_pss_mb(os.getpid())
    t = time.perf_counter()
    env = gym.make(f"hybridgym/{task}", max_steps=10 ** 6)
    env.reset(seed=0)
    first_reset_s = time.perf_counter() - t
    start_s = env.unwrapped.start_s
    resets = []
    for i in range(runs):
        t = time.perf_counter()
        env.reset(seed=i)
        resets.append(time.perf_counter() - t)
    steps, idle_steps = [], []
    if suite == "game":
        from hybridgym.tasks import game_players
        page = env.unwrapped.sandbox.browser.page
        for i in range(runs):
            key = game_players.snake_policy(page.evaluate("hybridgym.state()"))
            t = time.perf_counter()
            *_, term, trunc, info = env.step({"action_type": "hotkey", "keys": [key]})
            steps.append(time.perf_counter() - t)
            if term or trunc:
                env.reset(seed=i)
                page = env.unwrapped.sandbox.browser.page
    else:
        pts = [point(env, k, v) for k, v in changing]
        idle_pt = point(env, *idle)
        for i in range(runs):
            x, y = pts[i % 2]
            t = time.perf_counter()
            env.step({"action_type": "click", "x": x, "y": y})
            steps.append(time.perf_counter() - t)
        for i in range(runs):
            t = time.perf_counter()
            env.step({"action_type": "click", "x": idle_pt[0], "y": idle_pt[1]})
            idle_steps.append(time.perf_counter() - t)
    pss = tree_pss_mb(os.getpid()) - pss0
    w, h = env.unwrapped.screen_size
    env.close()
    med = lambda xs: round(statistics.median(xs) * 1000, 1) if xs else None  # noqa: E731
    return {"suite": suite, "task": task, "screen": f"{w}x{h}", "runs": runs,
            "start_s": round(start_s, 2), "first_reset_s": round(first_reset_s, 2),
            "reset_ms_median": med(resets), "step_ms_median": med(steps),
            "step_ms_p90": round(sorted(steps)[int(0.9 * len(steps))] * 1000, 1),
            "idle_click_step_ms_median": med(idle_steps), "pss_mb": round(pss, 1)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--suite", action="append", help="default: every suite")
    p.add_argument("--out", default="benchmarks/results/env_latency.json")
    args = p.parse_args()
    rows = [bench_suite(s, args.runs) for s in (args.suite or list(CASES))]
    head = ["suite", "screen", "start_s", "reset_ms_median", "step_ms_median", "step_ms_p90",
            "idle_click_step_ms_median", "pss_mb"]
    print(" | ".join(head))
    for r in rows:
        print(" | ".join(str(r[k]) for k in head))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({
        "command": "python benchmarks/bench_env.py --runs %d" % args.runs,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "date": time.strftime("%Y-%m-%d %H:%M"), "results": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
