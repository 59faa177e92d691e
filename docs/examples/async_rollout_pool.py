"""An asynchronous-RL rollout pool over the Ray vector env: batches of finished episodes, whichever sub-envs they come from.

    .venv/bin/python docs/examples/async_rollout_pool.py --envs 2 --batch 4 --updates 3

`RolloutPool` keeps every sub-env busy through `RayVectorEnv.send`/`recv`: a step that finishes is
recorded at once and its sub-env gets its next action, without waiting for the others. The
trainer takes `--batch` finished episodes at a time (`pool.take`), "learns", and bumps the
policy version, which every later step records (so the trainer can see how stale a step is).
The policy is a stand-in: random arrow keys. (docs/examples/async_rollouts.py shows the bare
send/recv loop under it.)
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from hybridgym.integrations.rollouts import RolloutPool
from hybridgym.vector import RayVectorEnv


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env", default="hybridgym/game.snake-v0")
    p.add_argument("--envs", type=int, default=2)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--updates", type=int, default=3)
    p.add_argument("--max-steps", type=int, default=8)
    args = p.parse_args()

    rng = np.random.default_rng(0)
    keys = ["up", "down", "left", "right"]

    def policy(index, obs):
        return {"action_type": "hotkey", "keys": [keys[int(rng.integers(4))]]}

    venv = RayVectorEnv(args.env, args.envs, env_kwargs={"max_steps": args.max_steps})
    try:
        pool = RolloutPool(venv, policy, min_ready=1, timeout=10.0, keep_obs=False)
        pool.start(seed=0)
        t0 = time.perf_counter()
        for update in range(args.updates):
            batch = pool.take(args.batch)
            print(f"update {update}: {len(batch)} episodes from sub-envs {[ep.index for ep in batch]}, "
                  f"steps {[ep.steps for ep in batch]}, returns {[round(ep.total_reward, 1) for ep in batch]}, "
                  f"policy versions {sorted({v for ep in batch for v in ep.policy_versions})}, "
                  f"ended {['term' if ep.terminated else 'trunc' for ep in batch]}")
            pool.policy_version += 1                              # the trainer's update
        took = time.perf_counter() - t0
        print(f"{pool.transitions} steps in {took:.1f} s; {len(pool.finished)} more episodes pooled, "
              f"{len(venv.pending)} steps in flight")
        pool.close()
    finally:
        venv.close()


if __name__ == "__main__":
    main()
