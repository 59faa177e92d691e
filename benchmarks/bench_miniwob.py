"""MiniWoB++ latency: our env (full 1280x800 screen through X) against the `miniwob` package's own
gymnasium env (Selenium + chromedriver), on the same tasks, in the same run.

For each task both envs are created, then alternately (ours, theirs, ours, ...) reset with
seeds 0..runs-1, each reset followed by `--steps` clicks on the instruction bar, a
new point each (clicks that change the screen: MiniWoB draws a dot where the page was
clicked; they never end the episode). Wall-clock time around `env.reset` and
`env.step` as the caller sees it; medians (and p90) over all repetitions.

What each env returns:
- ours: the whole display (800x1280x3 uint8 screenshot, browser chrome included) and
  the instruction; the reward is read from the page after every step.
- theirs: the utterance, the DOM elements (core.getDOMInfo), a 210x160x3 screenshot
  of the task area (chromedriver's PNG, cropped) and the fields. Headless Chromium:
  its driver options give `--no-sandbox` (needed as root) only in headless mode
  (`render_mode=None`, the package's default); Debian's /usr/bin/chromium with
  /usr/bin/chromedriver via MINIWOB_CHROME_BINARY / MINIWOB_CHROMEDRIVER.

The machine this runs on may be shared: the JSON records the load average before and after
(Chromium sets its own process priorities, so running the benchmark at a higher priority
does not shield the browsers from other jobs).

Reset in ours restarts the episode in the loaded page, as theirs does; `fresh_reset_ms`
is ours with `fresh_page=True` (the page reloaded at every reset), for reference.

    .venv/bin/python benchmarks/bench_miniwob.py --runs 20 --out benchmarks/results/miniwob.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

os.environ.setdefault("MINIWOB_CHROME_BINARY", "/usr/bin/chromium")
os.environ.setdefault("MINIWOB_CHROMEDRIVER", "/usr/bin/chromedriver")

import gymnasium as gym  # noqa: E402

from hybridgym.miniwob import MiniWoBEnv  # noqa: E402

TASKS = ["click-test", "click-button", "enter-text", "click-checkboxes", "focus-text", "login-user"]
# CSS pixels of the task area, on the instruction bar: a new point each step, so that every click
# changes the screen (MiniWoB draws a dot where the page was clicked; a second dot on the
# same point may leave the picture as it was)
CLICK_AT = [(20, 25), (80, 25), (140, 25)]


def p90(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(0.9 * len(xs)))]


def timed(fn, *args, **kwargs):
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, (time.perf_counter() - t) * 1000


def bench_task(name: str, ours: MiniWoBEnv, fresh: MiniWoBEnv, runs: int, steps: int) -> dict:
    from miniwob.action import ActionTypes
    theirs = gym.make(f"miniwob/{name}-v1")
    try:
        base = theirs.unwrapped
        clicks_theirs = [base.create_action(ActionTypes.CLICK_COORDS, coords=list(p)) for p in CLICK_AT]
        ours.reset(seed=10_000, options={"task": name})     # warm-up: loads the page
        fresh.reset(seed=10_000, options={"task": name})
        theirs.reset(seed=10_000)
        clicks_ours = [dict(zip(("action_type", "x", "y"), ("click", *ours.sandbox.browser.to_screen(*p))))
                       for p in CLICK_AT]
        t = {"ours_reset": [], "ours_step": [], "theirs_reset": [], "theirs_step": [], "fresh_reset": []}
        for seed in range(runs):
            (obs_o, _), ms = timed(ours.reset, seed=seed, options={"task": name})
            t["ours_reset"].append(ms)
            for k in range(steps):
                (obs_o, _, term, trunc, info), ms = timed(ours.step, clicks_ours[k % len(CLICK_AT)])
                assert not (term or trunc) and info.get("error") is None, info
                t["ours_step"].append(ms)
            (obs_t, _), ms = timed(theirs.reset, seed=seed)
            t["theirs_reset"].append(ms)
            for k in range(steps):
                (obs_t, _, term, trunc, _), ms = timed(theirs.step, clicks_theirs[k % len(CLICK_AT)])
                assert not term
                t["theirs_step"].append(ms)
            _, ms = timed(fresh.reset, seed=seed, options={"task": name})
            t["fresh_reset"].append(ms)
        med = {k: statistics.median(v) for k, v in t.items()}
        return {
            "task": name,
            "runs": runs, "steps_per_run": steps,
            "ours_reset_ms_median": round(med["ours_reset"], 1),
            "theirs_reset_ms_median": round(med["theirs_reset"], 1),
            "reset_speedup": round(med["theirs_reset"] / med["ours_reset"], 2),
            "ours_step_ms_median": round(med["ours_step"], 1),
            "theirs_step_ms_median": round(med["theirs_step"], 1),
            "step_speedup": round(med["theirs_step"] / med["ours_step"], 2),
            "ours_reset_ms_p90": round(p90(t["ours_reset"]), 1),
            "theirs_reset_ms_p90": round(p90(t["theirs_reset"]), 1),
            "ours_step_ms_p90": round(p90(t["ours_step"]), 1),
            "theirs_step_ms_p90": round(p90(t["theirs_step"]), 1),
            "ours_fresh_page_reset_ms_median": round(med["fresh_reset"], 1),
            "ours_observation": {"screenshot": list(obs_o["screenshot"].shape), "instruction": obs_o["instruction"]},
            "theirs_observation": {"screenshot": list(obs_t["screenshot"].shape),
                                   "dom_elements": len(obs_t["dom_elements"]),
                                   "utterance": obs_t["utterance"], "fields": len(obs_t["fields"])},
        }
    finally:
        theirs.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20, help="resets per task and env")
    ap.add_argument("--steps", type=int, default=3, help="clicks after each reset")
    ap.add_argument("--tasks", default=",".join(TASKS))
    ap.add_argument("--out", help="JSON file for the figures")
    args = ap.parse_args()
    load_before = os.getloadavg()
    ours, fresh = MiniWoBEnv(), MiniWoBEnv(fresh_page=True)
    rows = []
    try:
        for name in args.tasks.split(","):
            row = bench_task(name, ours, fresh, args.runs, args.steps)
            rows.append(row)
            print(f"{name:18s} reset ours {row['ours_reset_ms_median']:6.1f} theirs {row['theirs_reset_ms_median']:6.1f}"
                  f" ({row['reset_speedup']:.1f}x)  step ours {row['ours_step_ms_median']:6.1f}"
                  f" theirs {row['theirs_step_ms_median']:6.1f} ({row['step_speedup']:.1f}x)"
                  f"  fresh-page reset ours {row['ours_fresh_page_reset_ms_median']:6.1f}", flush=True)
    finally:
        ours.close()
        fresh.close()
    med = statistics.median
    summary = {
        "reset_ms_median_over_tasks": {"ours": round(med(r["ours_reset_ms_median"] for r in rows), 1),
                                       "theirs": round(med(r["theirs_reset_ms_median"] for r in rows), 1)},
        "step_ms_median_over_tasks": {"ours": round(med(r["ours_step_ms_median"] for r in rows), 1),
                                      "theirs": round(med(r["theirs_step_ms_median"] for r in rows), 1)},
    }
    summary["reset_speedup"] = round(summary["reset_ms_median_over_tasks"]["theirs"]
                                     / summary["reset_ms_median_over_tasks"]["ours"], 2)
    summary["step_speedup"] = round(summary["step_ms_median_over_tasks"]["theirs"]
                                    / summary["step_ms_median_over_tasks"]["ours"], 2)
    print(json.dumps(summary))
    if args.out:
        Path(args.out).write_text(json.dumps({
            "command": f".venv/bin/python benchmarks/bench_miniwob.py --runs {args.runs} --steps {args.steps}"
                       f" --out {args.out}",
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "loadavg_1m_before": round(load_before[0], 2), "loadavg_1m_after": round(os.getloadavg()[0], 2)},
            "date": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
            "theirs": "miniwob==1.1.0 MiniWoBEnvironment, headless Chromium via Selenium/chromedriver",
            "ours": "hybridgym MiniWoBEnv, headful Chromium window on Xvfb, XTEST input, XShm capture",
            "summary": summary,
            "results": rows,
        }, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
