"""What recording a trajectory costs: the step time with and without `RecordTrajectory`, interleaved, and the
size of a recorded episode.

    .venv/bin/python benchmarks/record_overhead.py --out benchmarks/results/record_overhead.json

Per env: one sandbox; blocks of `--steps` steps of the random agent (the same seeded action sequence in
both modes) alternate between recording and not, `--blocks` of each. A block's time per step is its wall
time divided by its steps, the recorder's end-of-episode flush included (the frames are encoded on a
background thread while the env steps; what is still queued at the episode's end is waited for there).
Medians over blocks; overhead = recorded / plain - 1. Then the folder size of a recorded 20-step episode
(random agent; the oracle's too where it has one).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import gymnasium as gym

import hybridgym  # noqa: F401
from hybridgym.agents import RandomAgent, make_agent, run_episode
from hybridgym.trajectory import RecordTrajectory

ENVS = ["browser.todo-add-v0", "miniwob.click-button-v0", "game.snake-v0", "mobile.contact-add-v1",
        "computer.editor-create-file-v0"]


def block(env, steps: int, seed: int) -> tuple[float, list[float]]:
    """`steps` steps of the seeded random agent from a reset (no early end: the budget is `steps`); the
    seconds per step of the whole block (the recorder's final flush included) and each env.step's time."""
    obs, info = env.reset(seed=seed)
    agent = RandomAgent()
    agent.reset(env, obs, info)
    per_step = []
    t0 = time.perf_counter()
    for _ in range(steps):
        t = time.perf_counter()
        obs, _, terminated, truncated, info = env.step(agent.act(obs))
        per_step.append(time.perf_counter() - t)
        if terminated or truncated:
            break
    if isinstance(env, RecordTrajectory) and env.episode_writer is not None:
        env.episode_writer.end(info)                  # the flush of what is still queued
    return (time.perf_counter() - t0) / len(per_step), per_step


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(task_id: str, steps: int, blocks: int, tmp: Path) -> dict:
    base = gym.make(f"hybridgym/{task_id}", max_steps=steps, max_episode_steps=steps)
    rec = RecordTrajectory(base, tmp / task_id.replace("/", "_"), agent="random", overwrite=True)
    plain_blocks, rec_blocks, plain_steps, rec_steps = [], [], [], []
    try:
        block(base, steps, 0)                                # warm up: the sandbox starts
        for b in range(blocks):
            for mode in (("plain", "rec") if b % 2 == 0 else ("rec", "plain")):
                env = base if mode == "plain" else rec
                per, each = block(env, steps, 1000 + b)
                (plain_blocks if mode == "plain" else rec_blocks).append(per)
                (plain_steps if mode == "plain" else rec_steps).extend(each)
        # sizes: a recorded episode of `steps` random steps, and the oracle's episode
        size_dir = tmp / "sizes"
        sizes = {}
        for who in ("random", "oracle"):
            if who == "oracle" and not base.unwrapped._lookup(task_id).has_oracle:
                continue
            shutil.rmtree(size_dir, ignore_errors=True)
            env = RecordTrajectory(base, size_dir, agent=who)
            summary = run_episode(env, make_agent(who), 7)
            env.recorder.close()
            folder = env.last_episode
            frames = list((folder / "frames").iterdir())
            sizes[who] = {"steps": summary["steps"], "bytes": folder_bytes(folder), "frames_written": len(frames),
                          "frame_bytes_median": int(statistics.median(p.stat().st_size for p in frames))}
    finally:
        rec.recorder.close()
        base.close()
    plain, recorded = statistics.median(plain_blocks), statistics.median(rec_blocks)
    return {"task": task_id, "steps_per_block": steps, "blocks_each": blocks,
            "plain_ms_per_step": round(1000 * plain, 2), "recorded_ms_per_step": round(1000 * recorded, 2),
            "overhead_pct": round(100 * (recorded / plain - 1), 1),
            "plain_step_call_median_ms": round(1000 * statistics.median(plain_steps), 2),
            "recorded_step_call_median_ms": round(1000 * statistics.median(rec_steps), 2),
            "episode_sizes": sizes}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--task", action="append", help=f"task ids (default: {', '.join(ENVS)})")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--blocks", type=int, default=6)
    p.add_argument("--out", default="benchmarks/results/record_overhead.json")
    args = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="hybridgym-record-") as tmp:
        for task in args.task or ENVS:
            r = measure(task, args.steps, args.blocks, Path(tmp))
            rows.append(r)
            print(json.dumps(r), flush=True)
    print(f"{'task':34s} {'plain ms':>9s} {'rec ms':>9s} {'overhead':>9s} {'20-step random episode':>24s}")
    for r in rows:
        size = r["episode_sizes"].get("random", {})
        print(f"{r['task']:34s} {r['plain_ms_per_step']:9.1f} {r['recorded_ms_per_step']:9.1f} "
              f"{r['overhead_pct']:8.1f}% {size.get('bytes', 0) / 1e6:20.2f} MB")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"command": "python benchmarks/record_overhead.py " + " ".join(sys.argv[1:]),
                                          "date": time.strftime("%Y-%m-%d %H:%M"), "results": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
