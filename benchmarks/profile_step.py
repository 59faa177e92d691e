"""Where a step's time goes: a per-phase profile of `env.step` on MiniWoB and the browser suite (issue 21's
first question), measured from outside the env by timing the calls a step makes.

Each step is a click that changes the screen (MiniWoB's instruction bar draws a dot where it is clicked; on the
todo app, alternately the title field and the page's header). The phases, in the order a step runs them:

- `parse`: the codec reading the action (`info["timings"]["parse_s"]`);
- `input`: the XTEST events of the click (`sandbox.execute`);
- `barrier`: the input barrier (the page saw the sentinel key, or on MiniWoB the click's release; on the browser
  suite also the frame after it) and, on MiniWoB, the task's probe in the same round trip
  (`ChromiumBrowser.barrier`, `ChromiumBrowser.click_barrier`);
- `marked_wait`: on MiniWoB, waiting for the frame marker to show the step's colour and the checks that no drawing
  met the read (`XShmCapture.read_marked`, its RGB copy excluded);
- `settle_wait`: waiting for the screen to show the change (X DAMAGE events), the grabs excluded (the browser suite,
  and MiniWoB steps that fall back to it);
- `grab`: the XShm grabs of the display (`XShmCapture.grab_raw`);
- `rgb`: the BGRA-to-RGB copy of the screenshot (`XShmCapture.to_rgb`, `Framebuffer.rgb`);
- `check`: reading the task's progress and, at the end, its checker (`info["timings"]["check_s"]`);
- `other`: the rest of `env.step` (bookkeeping, the observation dict, the health check).

Medians over `--steps` steps per task, in one process.

A reset's time, on MiniWoB's click-test, click-button, enter-text and click-checkboxes (the side-by-side
benchmark's tasks, `--resets` resets of each, the same task again, each after one click):
- `around_setup`: the rest of `HybridEnv._begin`: before the set-up, releasing held keys, the Escapes and their
  sentinel, the workspace and the pointer; after it, the check that the untouched state does not pass;
- `setup`: the task's set-up, one page round trip (waits until the page saw the Escapes, restarts the episode,
  reads the baseline, gives the frame marker its next colour);
- `first`: the first picture (`PageFrame.first`: the screen waited for until it shows the colour, and copied);
- `other`: the rest of `env.reset`.

`--reset-idle 0.1` waits that long before each reset (the side-by-side benchmark's resets follow the peers' work).
`--reset-unmarked` alternates each reset with one whose first picture is taken as without the frame marker (the
set-up waits for the page's next frame, then the first changed screen is grabbed), and reports both.

    .venv/bin/python benchmarks/profile_step.py --steps 60 --resets 15 --reset-idle 0 --reset-idle 0.1
    # -> benchmarks/results/step_profile.json
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import statistics
import time
from collections import defaultdict
from pathlib import Path

import gymnasium as gym

import hybridgym  # noqa: F401  (registers the envs)
from hybridgym.sandbox import browser as browser_mod
from hybridgym.sandbox import capture as capture_mod

OUT = Path(__file__).parent / "results" / "step_profile.json"
TASKS = ["miniwob.click-test-2-v0", "browser.todo-add-v0"]


class Clock:
    """Seconds spent in each wrapped call during the current step."""

    def __init__(self):
        self.spent: dict[str, float] = defaultdict(float)

    def wrap(self, owner, name: str, phase: str):
        real = getattr(owner, name)

        def timed(*args, **kwargs):
            t = time.perf_counter()
            try:
                return real(*args, **kwargs)
            finally:
                self.spent[phase] += time.perf_counter() - t
        static = isinstance(inspect.getattr_static(owner, name), staticmethod)
        setattr(owner, name, staticmethod(timed) if static else timed)


def points(env, task: str, n: int) -> list[tuple[int, int]]:
    br = env.unwrapped.sandbox.browser
    if task.startswith("miniwob."):
        return [br.to_screen(5 + 3 * (i % 50), 30) for i in range(n)]
    title, header = br.screen_point("input[type=text], input:not([type])"), br.to_screen(640, 20)
    return [title if i % 2 == 0 else header for i in range(n)]


def profile(task: str, steps: int, clock: Clock) -> dict:
    env = gym.make(f"hybridgym/{task}", max_steps=10 ** 6)
    try:
        env.reset(seed=0)
        pts = points(env, task, steps + 5)
        rows = []
        for i, (x, y) in enumerate(pts):
            clock.spent.clear()
            t = time.perf_counter()
            _, _, term, trunc, info = env.step({"action_type": "click", "x": x, "y": y})
            total = time.perf_counter() - t
            spent = dict(clock.spent)
            tm = info["timings"]
            settle, marked = spent.pop("settle", 0.0), spent.pop("marked", 0.0)
            grab, rgb, fb_rgb = spent.pop("grab", 0.0), spent.pop("rgb", 0.0), spent.pop("fb_rgb", 0.0)
            row = {"total": total, "parse": tm["parse_s"], "input": spent.pop("input", 0.0),
                   "barrier": spent.pop("barrier", 0.0), "marked_wait": max(0.0, marked - fb_rgb),
                   "settle_wait": max(0.0, settle - grab - rgb), "grab": grab, "rgb": rgb + fb_rgb,
                   "check": tm["check_s"]}
            row["other"] = max(0.0, total - sum(v for k, v in row.items() if k != "total"))
            if i >= 5:   # the first steps warm up
                rows.append(row)
            if term or trunc:
                env.reset(seed=i + 1)
        med = {k: round(statistics.median(r[k] for r in rows) * 1000, 2) for k in rows[0]}
        return {"task": task, "steps": len(rows), "median_ms": med}
    finally:
        env.close()


RESET_TASKS = ["click-test", "click-button", "enter-text", "click-checkboxes"]


def profile_resets(resets: int, clock: Clock, idle: float = 0.0, unmarked: bool = False) -> dict:
    """`unmarked`: every other reset takes its first picture as without the frame marker (the set-up waits for the
    page's next frame, then the first changed screen is grabbed: `sb.first_marked` False), for an A/B in one run."""
    from hybridgym.miniwob import MiniWoBEnv
    env = MiniWoBEnv()
    observer = env.unwrapped.observer
    marked_setup = observer.before_setup

    def unmarked_setup(sb, task):
        marked_setup(sb, task)
        sb.first_marked = False
    rows = {"marked": [], "unmarked": []}
    try:
        for task in RESET_TASKS:
            env.reset(seed=10_000, options={"task": task})
            for seed in range(resets * (2 if unmarked else 1)):
                mode = "unmarked" if unmarked and seed % 2 else "marked"
                observer.before_setup = unmarked_setup if mode == "unmarked" else marked_setup
                x, y = env.unwrapped.sandbox.browser.to_screen(20, 25)
                env.step({"action_type": "click", "x": x, "y": y})
                time.sleep(idle)
                clock.spent.clear()
                t = time.perf_counter()
                _, info = env.reset(seed=seed, options={"task": task})
                total = time.perf_counter() - t
                tm = info["timings"]
                row = {"total": total, "around_setup": clock.spent.get("begin", 0.0) - tm["setup_s"],
                       "setup": tm["setup_s"], "first": tm["observe_s"]}
                row["other"] = max(0.0, total - sum(v for k, v in row.items() if k != "total"))
                rows[mode].append(row)
        out = {"tasks": RESET_TASKS, "resets": len(rows["marked"]), "idle_before_s": idle,
               "median_ms": {k: round(statistics.median(r[k] for r in rows["marked"]) * 1000, 2) for k in rows["marked"][0]}}
        if unmarked:
            out["median_ms_unmarked"] = {k: round(statistics.median(r[k] for r in rows["unmarked"]) * 1000, 2)
                                         for k in rows["unmarked"][0]}
        return out
    finally:
        env.close()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--tasks", default=",".join(TASKS))
    p.add_argument("--resets", type=int, default=15, help="resets per MiniWoB task for the reset profile (0: none)")
    p.add_argument("--reset-idle", type=float, action="append",
                   help="seconds of idle before each reset (repeat for several profiles; default 0)")
    p.add_argument("--reset-unmarked", action="store_true",
                   help="also as many resets without the frame marker's first picture, alternated (an A/B)")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    clock = Clock()
    from hybridgym import sandbox as sandbox_mod
    clock.wrap(sandbox_mod.Sandbox, "execute", "input")
    clock.wrap(browser_mod.ChromiumBrowser, "barrier", "barrier")
    clock.wrap(browser_mod.ChromiumBrowser, "click_barrier", "barrier")
    clock.wrap(capture_mod.XShmCapture, "read_marked", "marked")
    clock.wrap(capture_mod.Framebuffer, "rgb", "fb_rgb")
    clock.wrap(capture_mod.XShmCapture, "settle", "settle")
    clock.wrap(capture_mod.XShmCapture, "grab_raw", "grab")
    clock.wrap(capture_mod.XShmCapture, "to_rgb", "rgb")
    results = []
    for task in args.tasks.split(","):
        r = profile(task, args.steps, clock)
        results.append(r)
        print(task, json.dumps(r["median_ms"]), flush=True)
    resets = None
    if args.resets > 0:
        from hybridgym import core
        clock.wrap(core.HybridEnv, "_begin", "begin")
        resets = []
        for idle in args.reset_idle or [0.0]:
            resets.append(profile_resets(args.resets, clock, idle, args.reset_unmarked))
            print(f"reset after {idle} s idle", json.dumps(resets[-1]["median_ms"]), flush=True)
            if args.reset_unmarked:
                print(f"  the same without the marker", json.dumps(resets[-1]["median_ms_unmarked"]), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"command": "benchmarks/profile_step.py --steps %d --resets %d%s%s" % (
                                        args.steps, args.resets, "".join(f" --reset-idle {i}" for i in args.reset_idle or []),
                                        " --reset-unmarked" if args.reset_unmarked else ""),
                                    "machine": platform.node(), "date": time.strftime("%Y-%m-%d %H:%M"),
                                    "load_avg": list(os.getloadavg()), "results": results, "resets": resets},
                                   indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
