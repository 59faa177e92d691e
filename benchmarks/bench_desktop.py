"""Computer-suite desktop benchmark: reset and step latency per app set, apps started per task, memory of a desktop env with its apps.

A reset kills the apps, empties the home, writes the task's home (the standard
template: documents, real PNGs, a CSV) and starts the app set (`open_app`, or
`open_apps` for several: started together), waiting for each window by probing
(mapped, placed by openbox, screen still). A step sends the focused app an input it
answers on the screen (`STEP_ACTIONS`: a typed character, or arrow keys in the file
manager's folder view and the image viewer) and waits for the screen to settle; a step that changes
nothing (a pointer move over the desktop) waits out the change time-out and is reported
apart. "Apps started
per task" counts the app windows right after each computer task's reset (seed 0).
Memory is the proportional set size (PSS) of the env's whole process tree (Xvfb,
openbox, tint2, D-Bus, the apps) with every app open, minus this Python process.
The load average of the machine is recorded with the figures: on a shared machine
it moves them.

    .venv/bin/python benchmarks/bench_desktop.py --runs 10 --out benchmarks/results/desktop.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import hybridgym
from hybridgym.reward import CheckResult
from hybridgym.tasks import Task, tasks_of
from hybridgym.tasks.kit.desktop import home as _home, place as _place

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_env import tree_pss_mb  # noqa: E402

APP_SETS = [("terminal",), ("editor",), ("files",), ("calculator",), ("spreadsheet",), ("images",), ("browser",),
            ("editor", "terminal"), ("files", "editor", "spreadsheet")]


# The timed step per focused app: an input the app answers on the screen (cycled).
_TYPE = [{"action_type": "type", "text": "1"}]
STEP_ACTIONS = {
    "terminal": _TYPE, "editor": _TYPE, "calculator": _TYPE, "spreadsheet": _TYPE,
    "files": [{"action_type": "hotkey", "keys": ["right"]}, {"action_type": "hotkey", "keys": ["left"]}],
    "images": [{"action_type": "hotkey", "keys": ["right"]}, {"action_type": "hotkey", "keys": ["left"]}],
    "browser": _TYPE,
}
# untimed, before the steps: the browser's address bar takes the keys; a folder is selected
STEP_SETUP = {"browser": [{"action_type": "hotkey", "keys": ["ctrl", "l"]}],
              "files": [{"action_type": "hotkey", "keys": ["down"]}]}


class AppSetTask(Task):
    """Benchmark only (not registered): the standard home, then the given apps opened."""

    suite = "computer"
    max_steps = 10 ** 6

    def __init__(self, apps: tuple[str, ...]):
        self.apps = apps
        self.id = "computer.bench-" + "+".join(apps) + "-v0"

    def sample(self, rng):
        return {"home": _home(rng)}

    def instruction(self, params):
        return "benchmark"

    def setup(self, sb, params):
        _place(sb, params["home"])
        specs = [(app, *(["Pictures"] if app == "images" else [])) for app in self.apps]
        if len(specs) == 1:
            sb.open_app(*specs[0])
        else:
            sb.open_apps(*specs)   # started together, the last one focused

    def check(self, state, params, answer, baseline):
        return CheckResult.failed("benchmark task")


def med_ms(xs: list[float]) -> float:
    return round(statistics.median(xs) * 1000, 1)


def bench_app_set(env, apps: tuple[str, ...], runs: int) -> dict:
    task = AppSetTask(apps)
    env.reset(seed=0, options={"task": task})   # warm the page cache for these programs
    resets, setups = [], []
    for i in range(runs):
        t = time.perf_counter()
        _, info = env.reset(seed=i + 1, options={"task": task})
        resets.append(time.perf_counter() - t)
        setups.append(info["timings"]["setup_s"])
    steps, changed = [], 0
    obs, _ = env.reset(seed=0, options={"task": task})
    focused = apps[-1]
    for action in STEP_SETUP.get(focused, []):
        obs, *_ = env.step(action)
    before = obs["screenshot"]
    cycle = STEP_ACTIONS[focused]
    for i in range(runs * 2):
        t = time.perf_counter()
        obs, *_ = env.step(cycle[i % len(cycle)])
        steps.append(time.perf_counter() - t)
        changed += int(not np.array_equal(obs["screenshot"], before))
        before = obs["screenshot"]
    # a step that changes nothing waits out the change time-out: measured apart
    nothing = []
    for i in range(runs):
        t = time.perf_counter()
        env.step({"action_type": "hover", "x": 5 + i % 2, "y": 300})
        nothing.append(time.perf_counter() - t)
    return {"apps": list(apps), "runs": runs, "reset_ms_median": med_ms(resets),
            "reset_ms_max": round(max(resets) * 1000, 1), "setup_ms_median": med_ms(setups),
            "step": [cycle[0], *cycle[1:]], "step_ms_median": med_ms(steps),
            "step_ms_p90": round(sorted(steps)[int(0.9 * len(steps))] * 1000, 1),
            "steps_that_changed_the_screen": f"{changed}/{len(steps)}",
            "no_change_step_ms_median": med_ms(nothing)}


def apps_per_task(env) -> dict:
    out = {}
    for task in sorted(tasks_of("computer"), key=lambda t: t.id):
        env.reset(seed=0, options={"task": task.id})
        wins = [w["wm_class"][0] for w in env.unwrapped.sandbox.windows() if "tint2" not in w["wm_class"]]
        out[task.id] = sorted(wins)
    return out


def memory_mb(env) -> dict:
    sb = env.unwrapped.sandbox
    env.reset(seed=0, options={"task": AppSetTask(("terminal",))})
    with_terminal = tree_pss_mb(os.getpid()) - _own_pss_mb()
    sb.kill_apps()
    desktop_only = tree_pss_mb(os.getpid()) - _own_pss_mb()
    for app in ("terminal", "editor", "files", "calculator", "spreadsheet", "images", "browser"):
        sb.open_app(app)
    time.sleep(1.0)
    all_apps = tree_pss_mb(os.getpid()) - _own_pss_mb()
    return {"desktop_without_apps_pss_mb": round(desktop_only, 1), "with_terminal_pss_mb": round(with_terminal, 1),
            "with_all_7_apps_pss_mb": round(all_apps, 1)}


def _own_pss_mb() -> float:
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024 / 1e6
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/desktop.json"))
    args = ap.parse_args()
    load_before = os.getloadavg()[0]
    env = gym.make(hybridgym.SUITE_IDS["computer"], max_steps=10 ** 6)
    try:
        t = time.perf_counter()
        env.unwrapped.start()
        start_s = time.perf_counter() - t
        sets = [bench_app_set(env, apps, args.runs) for apps in APP_SETS]
        for row in sets:
            print(row, flush=True)
        per_task = apps_per_task(env)
        memory = memory_mb(env)
    finally:
        env.close()
    counts = [len(v) for v in per_task.values()]
    all_resets = [r["reset_ms_median"] for r in sets]
    result = {
        "command": f"python benchmarks/bench_desktop.py --runs {args.runs}",
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_1min_before": round(load_before, 1),
                    "load_average_1min_after": round(os.getloadavg()[0], 1)},
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "desktop_start_s": round(start_s, 2),
        "summary": {"reset_ms_median_over_app_sets": round(statistics.median(all_resets), 1),
                    "step_ms_median_over_app_sets": round(statistics.median(r["step_ms_median"] for r in sets), 1),
                    "no_change_step_ms_median_over_app_sets": round(statistics.median(r["no_change_step_ms_median"] for r in sets), 1),
                    "apps_started_per_task_mean": round(statistics.mean(counts), 2),
                    "apps_started_per_task_max": max(counts), "tasks": len(counts)},
        "app_sets": sets,
        "memory": memory,
        "apps_per_task": per_task,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: result[k] for k in ("machine", "desktop_start_s", "summary", "memory")}, indent=2))


if __name__ == "__main__":
    main()
