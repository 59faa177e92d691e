"""A game step's latency at each game's default frame-skip (its `step_ms` of game time per step), before and
after issue 21's changes, interleaved in one run, with the frames of the variants compared.

- `before`: two round trips per step (the input barrier, then the clock and the canvas read), the whole canvas
  as a PNG at every read, and Playwright's clock yielding a real task after every timer it runs;
- `playwright`: one round trip through Playwright (`ChromiumBrowser.canvas_frame(after_input=)`), only the
  tiles that changed (`hybridgym.sandbox.canvas`), and the clock's yields as microtasks
  (`ChromiumBrowser._CLOCK_JS`);
- `after` (the code as it is, the default X input): the same call on the page's channel
  (`hybridgym.sandbox.channel`: a WebSocket from the page to the env's process, the tiles as raw bytes) instead
  of through Playwright's driver;
- `page` (the code as it is, `input="page"`): the step's keys and clicks dispatched by the page itself in that
  call (`hybridgym.sandbox.pageinput`), with no X input and no input barrier.

All four run in a game's Chromium as the code launches it (`DeferRendererTasksAfterInput` off).

The `before` variant is rebuilt here from the code as it is (the same JavaScript with the old clock call, the
old two calls, a read that never has a base picture and takes the canvas's pixels with getImageData). Each game
plays `--steps` steps from seed 0 (an episode that ends goes on with the next seed) with the random agent (the
same actions for every variant), `--rounds` times per variant, variants alternating; a step's time is the wall
clock around `env.step`. The frames of every step are hashed: `frames_identical` says whether the variants showed
the same pictures.

    .venv/bin/python benchmarks/bench_game_step.py --steps 60 --rounds 2   # -> benchmarks/results/game_step.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import time
from pathlib import Path

import gymnasium as gym

import hybridgym  # noqa: F401  (registers the envs)
from hybridgym.agents import RandomAgent
from hybridgym.sandbox.browser import ChromiumBrowser
from hybridgym.tasks.game import GAME_TASKS

OUT = Path(__file__).parent / "results" / "game_step.json"
AFTER_JS = ChromiumBrowser._CANVAS_FRAME_JS
BEFORE_JS = AFTER_JS.replace(ChromiumBrowser._CLOCK_JS, "globalThis.__pwClock.controller")
# the pixels read with getImageData, as before (the read's fallback), not copied from a VideoFrame of the canvas
_VIDEO_FRAME = "frame = new VideoFrame(c, {timestamp: 0});"
assert BEFORE_JS.count(_VIDEO_FRAME) == 1
BEFORE_JS = BEFORE_JS.replace(_VIDEO_FRAME, "throw new Error('read with getImageData');")


def as_before(browser: ChromiumBrowser) -> None:
    """Make this browser read a game's canvas the way it did before issue 21."""
    browser._CANVAS_FRAME_JS = BEFORE_JS
    browser._picture.base = lambda: -1      # no base picture: the page sends the whole canvas as a PNG
    real = browser.canvas_frame

    def two_trips(last_draws, data="null", *, advance_ms=0, after_input=None, events=None):
        if after_input is not None:
            browser.flush_input(after_input)
        return real(last_draws, data, advance_ms=advance_ms, events=events)
    browser.canvas_frame = two_trips


def play(task_id: str, variant: str, steps: int) -> dict:
    env = gym.make(f"hybridgym/{task_id}", max_steps=10 ** 6, input="page" if variant == "page" else "x")
    try:
        obs, info = env.reset(seed=0)
        browser = env.unwrapped.sandbox.browser
        if variant in ("before", "playwright"):   # no channel: every call through Playwright
            browser._channel.close()
            browser._channel = None
        if variant == "before":
            as_before(browser)
        agent = RandomAgent()
        agent.reset(env, obs, info)
        times, hashes, seed = [], [], 0
        for _ in range(steps):
            action = agent.act(obs)
            t = time.perf_counter()
            obs, _, term, trunc, info = env.step(action)
            times.append((time.perf_counter() - t) * 1000)
            hashes.append(hashlib.sha1(obs["screenshot"].tobytes()).hexdigest())
            if term or trunc:   # a game that ends early (a mine hit) goes on with the next seed: `steps` steps each
                seed += 1
                obs, info = env.reset(seed=seed)
                agent.reset(env, obs, info)
        return {"times": times, "hashes": hashes}
    finally:
        env.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--game", action="append", help="default: every game")
    p.add_argument("--out", type=Path, default=OUT)
    a = p.parse_args()
    games = a.game or sorted(GAME_TASKS)
    result = {"command": f"python benchmarks/bench_game_step.py --steps {a.steps} --rounds {a.rounds}"
                         + "".join(f" --game {g}" for g in a.game or ()),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "loadavg_before": os.getloadavg()},
              "method": __doc__.split("\n\n")[1].replace("\n", " "), "games": {}}
    for g in games:
        task = GAME_TASKS[g]
        runs = {"before": [], "playwright": [], "after": [], "page": []}
        for _ in range(a.rounds):
            for variant in runs:
                runs[variant].append(play(task.id, variant, a.steps))
        row = {"step_ms_game_time": task.card["step_ms"]}
        for variant, rr in runs.items():
            row[f"{variant}_ms"] = round(statistics.median(t for r in rr for t in r["times"]), 1)
        row["speedup"] = round(row["before_ms"] / row["after_ms"], 2)
        row["speedup_over_playwright"] = round(row["playwright_ms"] / row["after_ms"], 2)
        row["page_speedup_over_after"] = round(row["after_ms"] / row["page_ms"], 2)
        row["frames_identical"] = len({tuple(r["hashes"]) for rr in runs.values() for r in rr}) == 1
        result["games"][g] = row
        print(g, row, flush=True)
    rows = result["games"].values()
    result["median_over_games"] = {k: round(statistics.median(r[k] for r in rows), 1) for k in ("before_ms", "playwright_ms", "after_ms", "page_ms")}
    result["all_frames_identical"] = all(r["frames_identical"] for r in rows)
    result["machine"]["loadavg_after"] = os.getloadavg()
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["median_over_games"]), "frames identical:", result["all_frames_identical"])


if __name__ == "__main__":
    main()
