"""Phone env benchmark: reset latency, step latency (a tap and the next observation), other touch steps, and memory.

The tap steps alternate between opening Contacts from the launcher and tapping
the navigation bar's back button (both change the screen). A "no-change" step
is a tap on the status bar's clock (nothing changes: it waits out the settle
time-out). Medians over --runs repetitions; PSS of the whole env (Xvfb,
Chromium, its renderers) from /proc.

    .venv/bin/python benchmarks/bench_mobile.py --runs 40
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

import hybridgym  # noqa: F401  (registers the envs)
from bench_env import tree_pss_mb

TASK = "mobile.contact-add-v1"


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def med(xs: list[float]) -> float:
    return round(statistics.median(xs) * 1000, 1)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=40)
    p.add_argument("--out", default="benchmarks/results/mobile.json")
    args = p.parse_args()
    pss0 = tree_pss_mb(os.getpid())
    env = gym.make(f"hybridgym/{TASK}", max_steps=10 ** 6)
    t = time.perf_counter()
    env.reset(seed=0)
    first_reset_s = time.perf_counter() - t
    resets = [timed(lambda i=i: env.reset(seed=i)) for i in range(args.runs)]
    b = env.unwrapped.sandbox.browser
    icon, back, clock = (b.screen_point(s) for s in ("#icon-contacts", "#nav-back", "#sb-time"))
    taps, idle, infos = [], [], []
    for i in range(args.runs):
        x, y = (icon, back)[i % 2]
        t = time.perf_counter()
        *_, info = env.step({"action_type": "tap", "x": x, "y": y})
        taps.append(time.perf_counter() - t)
        infos.append(info["timings"])
    for _ in range(args.runs):
        idle.append(timed(lambda: env.step({"action_type": "tap", "x": clock[0], "y": clock[1]})))
    env.step({"action_type": "open_app", "app_name": "Contacts"})
    swipes = [timed(lambda d=d: env.step({"action_type": "swipe", "x1": 360, "y1": 1100 if d else 600, "x2": 360,
                                          "y2": 600 if d else 1100})) for d in (True, False) * 5]
    opens = [timed(lambda a=a: env.step({"action_type": "open_app", "app_name": a}))
             for a in ("Messages", "Calendar", "Clock", "Phone", "Contacts") * 2]
    long_press = timed(lambda: env.step({"action_type": "long_press", "x": 360, "y": 500}))
    pss = tree_pss_mb(os.getpid()) - pss0
    start_s = env.unwrapped.start_s
    env.close()
    phases = {k: round(statistics.median(t[k] for t in infos) * 1000, 1) for k in ("act_s", "observe_s")}
    result = {
        "task": TASK, "screen": "720x1600", "runs": args.runs, "start_s": round(start_s, 2),
        "first_reset_s": round(first_reset_s, 2), "reset_ms_median": med(resets),
        "tap_step_ms_median": med(taps), "tap_step_ms_p90": round(sorted(taps)[int(0.9 * len(taps))] * 1000, 1),
        "tap_step_phases_ms_median": phases, "no_change_tap_step_ms_median": med(idle),
        "swipe_step_ms_median": med(swipes), "open_app_step_ms_median": med(opens),
        "long_press_step_ms": round(long_press * 1000, 1), "pss_mb": round(pss, 1),
        "targets": {"step_ms": 30, "reset_ms": 300},
    }
    print(json.dumps(result, indent=2))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({
        "command": f"python benchmarks/bench_mobile.py --runs {args.runs}",
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "loadavg_1m": round(os.getloadavg()[0], 2)},
        "date": time.strftime("%Y-%m-%d %H:%M"), "result": result}, indent=2) + "\n")


if __name__ == "__main__":
    main()
