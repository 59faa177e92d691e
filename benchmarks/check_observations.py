"""Are an env's observations final? Replays the oracles of a suite's tasks and, after every step,
compares the observation with the screen a moment later (0.6 s by default; no input in between): a difference means the
env returned before the step's result was all on the screen (a stale observation). Writes the count
and the steps where it happened. Suites: mobile, browser, miniwob (the tasks with a scripted solver).

    .venv/bin/python benchmarks/check_observations.py --suite mobile --tasks 60
    .venv/bin/python benchmarks/check_observations.py --suite browser --tasks 60
    .venv/bin/python benchmarks/check_observations.py --suite miniwob
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

SUITES = ("mobile", "browser", "miniwob")


def check(suite: str, n_tasks: int, seeds: int = 1, shots: Path | None = None, later_s: float = 0.6) -> dict:
    tasks = sorted(t.id for t in tasks_of(suite) if getattr(t, "has_oracle", True))[:n_tasks]
    env = gym.make(hybridgym.SUITE_IDS[suite], max_steps=10 ** 6)
    steps, stale, failed = 0, [], []
    try:
        for tid in tasks:
            for seed in range(seeds):
                obs, info = env.reset(seed=seed, options={"task": tid})
                agent = OracleAgent()
                agent.reset(env, obs, info)
                done = False
                while not done:
                    action = agent.act(obs)
                    obs, _, term, trunc, info = env.step(action)
                    done = term or trunc
                    time.sleep(later_s)
                    later = env.unwrapped.sandbox.capture.grab()
                    steps += 1
                    if not np.array_equal(later, obs["screenshot"]):
                        diff = np.argwhere((later != obs["screenshot"]).any(axis=2))
                        (y0, x0), (y1, x1) = diff.min(axis=0), diff.max(axis=0)
                        if shots is not None:   # the observation above, the screen `later_s` later below
                            from PIL import Image
                            shots.mkdir(parents=True, exist_ok=True)
                            Image.fromarray(np.concatenate([obs["screenshot"], later])).save(shots / f"{tid}-{seed}-{steps}.png")
                        stale.append({"task": tid, "seed": seed, "step": steps, "action": str(action)[:80],
                                      "changed_box": [int(x0), int(y0), int(x1) + 1, int(y1) + 1],
                                      "changed_pixels": len(diff)})
                if not info.get("success"):
                    failed.append(f"{tid} seed {seed}")
    finally:
        env.close()
    return {"suite": suite, "tasks": len(tasks), "seeds": seeds, "later_s": later_s, "steps": steps, "stale_observations": len(stale),
            "stale_share": round(len(stale) / max(steps, 1), 4), "oracle_failures": failed, "where": stale}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", choices=SUITES, default="mobile")
    p.add_argument("--tasks", type=int, default=60, help="the first N tasks by id (with a scripted solver)")
    p.add_argument("--seeds", type=int, default=1, help="episodes per task (seeds 0..N-1)")
    p.add_argument("--later", type=float, default=0.6, help="seconds after the step to look again (the browser's"
                   " status bubble fades out until 0.47 s after the pointer left a link)")
    p.add_argument("--out", help="default: benchmarks/results/<suite>_observations.json")
    p.add_argument("--shots", type=Path, help="a folder for each stale observation's picture (above) and the later screen")
    args = p.parse_args()
    result = {"command": f"python benchmarks/check_observations.py --suite {args.suite} --tasks {args.tasks}"
                         f" --seeds {args.seeds} --later {args.later}",
              "date": time.strftime("%Y-%m-%d %H:%M"), "loadavg_1m_before": round(os.getloadavg()[0], 2),
              **check(args.suite, args.tasks, args.seeds, args.shots, args.later), "loadavg_1m_after": round(os.getloadavg()[0], 2)}
    out = Path(args.out or f"benchmarks/results/{args.suite}_observations.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "where"}, indent=2))


if __name__ == "__main__":
    main()
