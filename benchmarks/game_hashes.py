"""Screenshot hashes of every game through the env: for each game task, two seeds, a fixed
sequence of the task's discrete actions (drawn by a seeded generator). Two trees whose files
give the same hashes render the same pixels for the same seed and actions (a refactoring
check: run it before and after, and compare the two files).

    .venv/bin/python benchmarks/game_hashes.py --steps 40 --out /tmp/hashes-after.json

Run it in each checkout with that checkout's own install (`bash .ci/setup` there), then diff
the two files.
"""

from __future__ import annotations

import argparse
import hashlib
import json

import gymnasium as gym
import numpy as np

import hybridgym
from hybridgym.tasks.base import tasks_of


def run(steps: int, seeds: tuple[int, ...]) -> dict:
    env = gym.make(hybridgym.SUITE_IDS["game"], max_steps=10 ** 6)
    out = {}
    try:
        for task in sorted(tasks_of("game"), key=lambda t: t.id):
            actions = task.discrete_actions()
            for seed in seeds:
                rng = np.random.default_rng(seed)
                obs, _ = env.reset(seed=seed, options={"task": task.id})
                trace = [hashlib.sha1(obs["screenshot"].tobytes()).hexdigest()]
                for _ in range(steps):
                    obs, reward, term, trunc, info = env.step(actions[int(rng.integers(len(actions)))])
                    trace.append(f"{hashlib.sha1(obs['screenshot'].tobytes()).hexdigest()} {reward:g} {term}")
                    if term or trunc:
                        break
                out[f"{task.id} seed {seed}"] = trace
    finally:
        env.close()
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    hashes = run(args.steps, (0, 1))
    with open(args.out, "w") as f:
        json.dump(hashes, f, indent=1)
    print(f"{len(hashes)} runs, {sum(len(v) for v in hashes.values())} screenshots -> {args.out}")


if __name__ == "__main__":
    main()
