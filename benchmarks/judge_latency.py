"""The model judge's latency per episode (`hybridgym.judge.JudgeReward`), through a scripted OpenAI-compatible
server on 127.0.0.1 (tests/chat_server.py) that answers a verdict at once: what the judge itself adds to an
episode's end, the model's own time left out.

Per call (one episode judged): `total` (the call, as the env's last step waits for it), split into `encode`
(the screenshots to PNG data URLs: the judge's `encode_s`) and `round_trip` (the request through the `openai`
package to the parsed reply: its `latency_s`, which takes in building the JSON body, the HTTP stack on both
sides and the server's reading of the images' headers for its usage count); `other` is the rest (the prompt,
reading the verdict). Medians and 90th percentiles over `--calls` calls per frame count, the counts
interleaved call by call. The episodes are recorded ones (`--run DIR`: their last screenshots and actions,
read with `outcome_from_trajectory`), or without `--run` synthetic 1280x800 screens (flat panels with noisy
text-like rows, a PNG of roughly the size of a real one).

    .venv/bin/python benchmarks/judge_latency.py --calls 30 --run RUN_DIR --out benchmarks/results/judge_latency.json
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from hybridgym.judge import JudgeReward
from hybridgym.reward import CheckResult
from hybridgym.rewards import EpisodeOutcome, StepRecord, outcome_from_trajectory
from hybridgym.trajectory import load_run

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.chat_server import ScriptedChatServer  # noqa: E402

REPLY = '{"verdict": "success", "reason": "the final screen shows the item in the list"}'


def synthetic_screen(seed: int, size=(1280, 800)) -> np.ndarray:
    """A screen-like frame: a light background, a few flat panels, rows of dark noisy 'text'."""
    rng = np.random.default_rng(seed)
    w, h = size
    f = np.full((h, w, 3), 245, np.uint8)
    f[:60] = (40, 60, 90)                                        # a title bar
    for _ in range(6):
        x, y = int(rng.integers(0, w - 300)), int(rng.integers(60, h - 200))
        f[y:y + 180, x:x + 300] = rng.integers(200, 255, 3)
    for row in range(80, h - 20, 24):                            # text-like rows
        length = int(rng.integers(200, w - 100))
        glyphs = rng.random((12, length)) < 0.35
        f[row:row + 12, 40:40 + length][glyphs] = (30, 30, 30)
    return f


def synthetic_outcomes(n: int = 8) -> list[EpisodeOutcome]:
    out = []
    for i in range(n):
        steps = [StepRecord(k + 1, [{"action_type": "click", "x": 100 + k, "y": 200},
                                    {"action_type": "type", "text": f"item {k} of episode {i}"}]) for k in range(12)]
        out.append(EpisodeOutcome(task_id="synthetic", suite="browser", seed=i, instruction="Add milk to the list",
                                  check=CheckResult.passed(), steps=steps, finished=True, max_steps=15,
                                  frames=[synthetic_screen(10 * i + k) for k in range(3)], platform="browser"))
    return out


def recorded_outcomes(run: str) -> list[EpisodeOutcome]:
    out = [outcome_from_trajectory(traj, frames=3) for traj in load_run(run, complete_only=True)]
    out = [o for o in out if len(o.frames) >= 3]
    if not out:
        raise SystemExit(f"{run}: no complete episode with 3 screenshots")
    return out


def _stats(values: list[float]) -> dict:
    ms = 1000 * np.asarray(values)
    return {"median": round(float(np.median(ms)), 3), "p90": round(float(np.percentile(ms, 90)), 3)}


def measure(outcomes: list[EpisodeOutcome], calls: int, frame_counts=(1, 3), image_size=None) -> dict:
    times = {n: {"total": [], "encode": [], "round_trip": [], "other": [], "request_bytes": []} for n in frame_counts}
    with ScriptedChatServer(lambda body: REPLY) as server:
        judges = {n: JudgeReward(server.base_url, "scripted-judge", frames=n, image_size=image_size)
                  for n in frame_counts}
        try:
            for n, j in judges.items():                          # warm up: the client's connection pool, imports
                j(outcomes[0])
            for i in range(calls):
                for n, j in judges.items():
                    outcome = outcomes[i % len(outcomes)]
                    t = time.perf_counter()
                    result = j(outcome)
                    total = time.perf_counter() - t
                    info = result.info["judge"]
                    if info["fallback"]:
                        raise RuntimeError(f"the judge fell back: {info['error']}")
                    row = times[n]
                    row["total"].append(total)
                    row["encode"].append(info["encode_s"])
                    row["round_trip"].append(info["latency_s"])
                    row["other"].append(total - info["encode_s"] - info["latency_s"])
                    row["request_bytes"].append(len(json.dumps(server.requests[-1])))
        finally:
            for j in judges.values():
                j.close()
    return {str(n): {**{k: _stats(v) for k, v in row.items() if k != "request_bytes"},
                     "request_kb": round(float(np.median(row["request_bytes"])) / 1024, 1)}
            for n, row in times.items()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=30, help="calls per frame count (default 30)")
    p.add_argument("--run", help="a recorded run: judge its episodes (default: synthetic screens)")
    p.add_argument("--image-size", type=int, help="the longest side the screenshots are sent at (default: as they are)")
    p.add_argument("--out", help="JSON file for the results")
    args = p.parse_args()
    if args.calls < 30:
        print("note: fewer than 30 calls per frame count", file=sys.stderr)
    outcomes = recorded_outcomes(args.run) if args.run else synthetic_outcomes()
    screen = list(outcomes[0].frames[-1].shape[1::-1])
    results = measure(outcomes, args.calls, image_size=args.image_size)
    print(f"judge latency per episode, {args.calls} calls per frame count, {len(outcomes)} episodes "
          f"({'recorded: ' + args.run if args.run else 'synthetic'}), screen {screen[0]}x{screen[1]}")
    print(f"  {'frames':>6s} {'total ms (med / p90)':>22s} {'encode ms':>16s} {'round trip ms':>16s} "
          f"{'other ms':>14s} {'request KB':>11s}")
    for n, r in results.items():
        cell = lambda k: f"{r[k]['median']:7.2f} / {r[k]['p90']:7.2f}"   # noqa: E731
        print(f"  {n:>6s} {cell('total'):>22s} {cell('encode'):>16s} {cell('round_trip'):>16s} {cell('other'):>14s} "
              f"{r['request_kb']:11.1f}")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        command = " ".join([".venv/bin/python", "benchmarks/judge_latency.py", *map(shlex.quote, sys.argv[1:])])
        Path(args.out).write_text(json.dumps({
            "command": command, "calls": args.calls, "episodes": len(outcomes),
            "source": f"recorded run {args.run}" if args.run else "synthetic 1280x800 screens",
            "screen": screen, "image_size": args.image_size, "unit": "ms per episode judged",
            "results": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
