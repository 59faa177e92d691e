"""Are the phone env's observations final? Replays the oracles of the mobile tasks and, after
every step, compares the observation with the screen 150 ms later (no input in between): a
difference means the env returned before the step's result was all on the screen (a stale
observation). Writes the count and the steps where it happened.

    .venv/bin/python benchmarks/check_mobile_observations.py --tasks 60
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import hybridgym
from hybridgym.agents import OracleAgent
from hybridgym.tasks import tasks_of


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tasks", type=int, default=60, help="the first N mobile tasks by id")
    p.add_argument("--out", default="benchmarks/results/mobile_observations.json")
    args = p.parse_args()
    tasks = sorted(t.id for t in tasks_of("mobile"))[: args.tasks]
    env = gym.make(hybridgym.SUITE_IDS["mobile"], max_steps=10 ** 6)
    steps, stale = 0, []
    try:
        for tid in tasks:
            obs, info = env.reset(seed=0, options={"task": tid})
            agent = OracleAgent()
            agent.reset(env, obs, info)
            done = False
            while not done:
                action = agent.act(obs)
                obs, _, term, trunc, info = env.step(action)
                done = term or trunc
                time.sleep(0.15)
                later = env.unwrapped.sandbox.capture.grab()
                steps += 1
                if not np.array_equal(later, obs["screenshot"]):
                    stale.append({"task": tid, "step": steps, "action": str(action)[:80]})
    finally:
        env.close()
    result = {"command": f"python benchmarks/check_mobile_observations.py --tasks {args.tasks}",
              "date": time.strftime("%Y-%m-%d %H:%M"), "loadavg_1m": round(os.getloadavg()[0], 2),
              "tasks": len(tasks), "steps": steps, "stale_observations": len(stale), "where": stale}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
