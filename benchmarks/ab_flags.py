"""A/B of Chromium flags on MiniWoB's latency: two `MiniWoBEnv`s in one process, one launched with `BASE_FLAGS`
and one with `--flags` added, alternated (each round, the order flips) on the side-by-side benchmark's four tasks:
per round and task, a reset and three clicks on MiniWoB's instruction bar in each env. Medians of reset and step
(wall clock around `env.reset` / `env.step`) per env. For a flag whose effect is a few percent, on a machine
whose speed drifts: both envs see the same drift.

    .venv/bin/python benchmarks/ab_flags.py --flags=--ui-disable-partial-swap --rounds 12
    # -> benchmarks/results/ab_flags.json
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import statistics
import time
from pathlib import Path

from bench_peers import CLICK_AT, DEFAULT_TASKS as TASKS   # the side-by-side benchmark's tasks and clicks
from hybridgym.miniwob import MiniWoBEnv
from hybridgym.sandbox import browser as browser_mod


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--flags", required=True, help="Chromium flags added in env B (space-separated)")
    p.add_argument("--rounds", type=int, default=12, help="rounds per task (default 12)")
    p.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "ab_flags.json")
    args = p.parse_args(argv)
    extra = shlex.split(args.flags)
    base = list(browser_mod.BASE_FLAGS)
    envs = {}
    try:
        for name, flags in (("A: BASE_FLAGS", base), ("B: BASE_FLAGS + " + " ".join(extra), base + extra)):
            browser_mod.BASE_FLAGS[:] = flags   # read when the sandbox launches Chromium, at the first reset
            try:
                envs[name] = MiniWoBEnv()
                envs[name].reset(seed=0, options={"task": TASKS[0]})
            finally:
                browser_mod.BASE_FLAGS[:] = base
        times = {n: {"reset": [], "step": []} for n in envs}
        names = list(envs)
        for task in TASKS:
            for env in envs.values():
                env.reset(seed=10_000, options={"task": task})   # the task's page loaded
            for rnd in range(args.rounds):
                for name in (names if rnd % 2 else names[::-1]):
                    play_round(envs[name], task, rnd, CLICK_AT, times[name], stop_at_end=False)
    finally:
        for env in envs.values():
            env.close()
    return write_report(args.out, "benchmarks/ab_flags.py", argv, times, {"tasks": TASKS, "rounds": args.rounds})


def play_round(env, task: str, seed: int, clicks, times: dict, stop_at_end: bool = True) -> None:
    """A reset of `task` and a click at each of `clicks` (CSS px of the page), timed into `times` ("reset", "step":
    ms); with `stop_at_end`, the clicks stop where the episode ends."""
    t = time.perf_counter()
    env.reset(seed=seed, options={"task": task})
    times["reset"].append((time.perf_counter() - t) * 1000)
    browser = env.unwrapped.sandbox.browser
    for cx, cy in clicks:
        x, y = browser.to_screen(cx, cy)
        t = time.perf_counter()
        _, _, term, trunc, _ = env.step({"action_type": "click", "x": x, "y": y})
        times["step"].append((time.perf_counter() - t) * 1000)
        if stop_at_end and (term or trunc):
            break


def write_report(out: Path, script: str, argv, times: dict, fields: dict) -> dict:
    """Medians of an A/B's times ({way: {"reset": [ms], "step": [ms]}}) with the run's command, date, load and
    `fields`, written to `out` as JSON and printed; returns the report."""
    med = {n: {k: round(statistics.median(v), 2) for k, v in t.items()} for n, t in times.items()}
    report = {"command": script + " " + shlex.join(argv if argv is not None else sys.argv[1:]),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load_avg": [round(x, 2) for x in os.getloadavg()],
              **fields, "samples": {n: {k: len(v) for k, v in t.items()} for n, t in times.items()}, "median_ms": med}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    for n, m in med.items():
        print(f"{n:50s} reset {m['reset']:7.2f}  step {m['step']:7.2f}")
    print(f"wrote {out}")
    return report


if __name__ == "__main__":
    main()
