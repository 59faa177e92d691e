"""Asynchronous rollout collection with the Ray vector env: act on whichever sub-envs finish first.

    .venv/bin/python docs/examples/async_rollouts.py --envs 4 --transitions 200

A slow sub-env (a long reset, a heavy page) does not hold the others back: `recv` returns as
soon as `--min-ready` steps have finished (or all that finished within `--timeout` seconds),
and those sub-envs get their next action at once. The pool fills with whatever is ready,
as an asynchronous RL trainer's partially filled rollout buffer does.
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np

import hybridgym  # noqa: F401
from hybridgym.vector import RayVectorEnv


def policy(rng: np.random.Generator, obs) -> dict:
    """Stand-in for a model: a random arrow key or a no-op (obs would be its input)."""
    return rng.choice([{"action_type": "wait", "seconds": 0}] +
                      [{"action_type": "hotkey", "keys": [k]} for k in ("up", "down", "left", "right")])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env", default="hybridgym/game.snake-v0")
    p.add_argument("--envs", type=int, default=4)
    p.add_argument("--transitions", type=int, default=200)
    p.add_argument("--min-ready", type=int, default=2)
    p.add_argument("--timeout", type=float, default=5.0)
    args = p.parse_args()

    rng = np.random.default_rng(0)
    venv = RayVectorEnv(args.env, args.envs, env_kwargs={"max_steps": 50})
    pool, per_env, episodes = [], collections.Counter(), 0
    try:
        obs, _ = venv.reset(seed=0)
        t0 = time.perf_counter()
        venv.send({i: policy(rng, None) for i in range(args.envs)})          # every sub-env starts a step
        while len(pool) < args.transitions:
            for t in venv.recv(min_num=args.min_ready, timeout=args.timeout):
                pool.append(t)                                               # (index, obs, reward, done, info)
                per_env[t.index] += 1
                episodes += t.terminated or t.truncated
                venv.send({t.index: policy(rng, t.obs)})                     # it acts again at once
        venv.recv(min_num=len(venv.pending))                                 # let the last steps land
    finally:
        venv.close()
    took = time.perf_counter() - t0
    print(f"{len(pool)} transitions in {took:.1f} s ({len(pool) / took:.1f}/s) from {args.envs} sub-envs; "
          f"per sub-env {dict(sorted(per_env.items()))}; {episodes} episodes ended; "
          f"errors: {sum('error' in t.info for t in pool)}")


if __name__ == "__main__":
    main()
