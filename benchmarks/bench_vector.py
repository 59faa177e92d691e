"""Many sandboxes at once: env steps per second for N sub-envs with a local loop, gymnasium's
AsyncVectorEnv and the Ray vector env (one or several sandboxes per actor); Ray's overhead
per step; the time to replace a dead sandbox; memory per sandbox.

    .venv/bin/python benchmarks/bench_vector.py --out benchmarks/results/vector.json

With --envs-per-actor k (repeatable) the Ray vector env runs with k sandboxes per actor (one
Python process and one Playwright driver for k sandboxes), and memory is reported as the PSS of
the actors' process trees divided by N.

Each step is a no-op on a game env (the clock advances one frame, the screen is captured),
so the figures measure the machinery, not an agent. Medians over --rounds rounds of --steps steps.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import sys
import time
from pathlib import Path

import gymnasium as gym

import hybridgym  # noqa: F401
from hybridgym.vector import RayVectorEnv

sys.path.insert(0, str(Path(__file__).parent))
from bench_env import tree_pss_mb  # noqa: E402

ENV_ID = "hybridgym/game.snake-v0"
NOOP = {"action_type": "wait", "seconds": 0}


def rate(step_all, n: int, steps: int, rounds: int) -> float:
    """Median env steps per second of `step_all()` (which steps all n sub-envs once)."""
    rates = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(steps):
            step_all()
        rates.append(n * steps / (time.perf_counter() - t))
    return statistics.median(rates)


def local_loop(n: int, steps: int, rounds: int) -> float:
    envs = [gym.make(ENV_ID, max_steps=10**6) for _ in range(n)]
    try:
        for i, e in enumerate(envs):
            e.reset(seed=i)
        def step_all():
            for e in envs:   # a game over (snake runs into a wall) starts the next episode, as autoreset does
                *_, term, trunc, _ = e.step(NOOP)
                if term or trunc:
                    e.reset()
        step_all()
        return rate(step_all, n, steps, rounds)
    finally:
        for e in envs:
            e.close()


def async_vector(n: int, steps: int, rounds: int) -> float:
    v = gym.make_vec(ENV_ID, num_envs=n, vectorization_mode="async", max_steps=10**6)
    try:
        v.reset(seed=0)
        step_all = lambda: v.step([NOOP] * n)  # noqa: E731
        step_all()
        return rate(step_all, n, steps, rounds)
    finally:
        v.close()


def ray_vector(n: int, steps: int, rounds: int, envs_per_actor: int = 1) -> tuple[float, list[float]]:
    """Steps per second of the Ray vector env, and the PSS of each actor's process tree (MB)."""
    v = RayVectorEnv(ENV_ID, n, env_kwargs={"max_steps": 10**6}, envs_per_actor=envs_per_actor)
    try:
        v.reset(seed=0)
        step_all = lambda: v.step([NOOP] * n)  # noqa: E731
        step_all()
        r = rate(step_all, n, steps, rounds)
        # an actor's process tree: the Python worker, the Playwright driver, and each of its
        # sandboxes' Xvfb and Chromium
        actors = sorted({w["pid"] for w in v.where()})
        pss = [tree_pss_mb(pid) for pid in actors]
        return r, pss
    finally:
        v.close()


def sandbox_replacement(times: int, envs_per_actor: int = 2) -> dict:
    """Kill one sandbox's Chromium in an actor of `envs_per_actor` sandboxes; time until the
    step reports it (the actor has made a new env), and until the new sandbox has reset."""
    v = RayVectorEnv(ENV_ID, envs_per_actor, env_kwargs={"max_steps": 10**6}, envs_per_actor=envs_per_actor)
    try:
        v.reset(seed=0)
        fault_s, total_s = [], []
        for _ in range(times):
            v.step([NOOP] * envs_per_actor)
            os.kill(v.sandbox_pids()[0]["browser"], signal.SIGKILL)
            t = time.perf_counter()
            _, _, _, trunc, info = v.step([NOOP] * envs_per_actor)
            fault_s.append(time.perf_counter() - t)
            assert trunc[0] and info["replaced"][0] and not trunc[1:].any()
            v.step([NOOP] * envs_per_actor)             # NEXT_STEP: the new sandbox's reset
            total_s.append(time.perf_counter() - t)
        return {"sandbox_fault_step_s": round(statistics.median(fault_s), 2),
                "sandbox_replace_and_reset_s": round(statistics.median(total_s), 2)}
    finally:
        v.close()


def step_latency(steps: int) -> dict:
    """Median seconds of one step: in this process vs through one Ray actor (same env)."""
    env = gym.make(ENV_ID, max_steps=10**6)
    v = RayVectorEnv(ENV_ID, 1, env_kwargs={"max_steps": 10**6})
    try:
        env.reset(seed=0)
        v.reset(seed=0)
        local, remote = [], []
        for _ in range(steps):   # interleaved, so both see the same machine load
            t = time.perf_counter()
            *_, term, trunc, _ = env.step(NOOP)
            local.append(time.perf_counter() - t)
            if term or trunc:
                env.reset()
            t = time.perf_counter()
            v.step([NOOP])
            remote.append(time.perf_counter() - t)
        return {"local_step_ms": round(statistics.median(local) * 1000, 1),
                "ray_step_ms": round(statistics.median(remote) * 1000, 1),
                "ray_overhead_ms": round((statistics.median(remote) - statistics.median(local)) * 1000, 1)}
    finally:
        env.close()
        v.close()


def replacement(times: int) -> dict:
    """Kill a sub-env's actor mid-episode; time until its replacement is ready, and until it has reset."""
    v = RayVectorEnv(ENV_ID, 1, env_kwargs={"max_steps": 10**6})
    try:
        v.reset(seed=0)
        replace_s, total_s = [], []
        for _ in range(times):
            v.step([NOOP])
            os.kill(v.where()[0]["pid"], signal.SIGKILL)
            t = time.perf_counter()
            _, _, _, trunc, info = v.step([NOOP])       # the fault: replaced, truncated
            assert trunc[0] and info["replaced"][0]
            v.step([NOOP])                              # NEXT_STEP: the new actor's reset (sandbox start)
            total_s.append(time.perf_counter() - t)
            replace_s.append(float(info["replace_s"][0]))
        return {"actor_replace_s": round(statistics.median(replace_s), 2),
                "replace_and_reset_s": round(statistics.median(total_s), 2)}
    finally:
        v.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, action="append", help="sub-env counts (default 1 2 4 8)")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--envs-per-actor", type=int, action="append",
                   help="sub-envs per Ray actor to compare for each N (default 1; repeat: --envs-per-actor 1 "
                        "--envs-per-actor 4)")
    p.add_argument("--out", default="benchmarks/results/vector.json")
    args = p.parse_args()
    import ray
    ray.init(address="local", resources={"sandbox": 64}, include_dashboard=False, log_to_driver=False)
    try:
        rows = []
        for n in args.n or [1, 2, 4, 8]:
            row = {"n": n,
                   "local_loop_steps_per_s": round(local_loop(n, args.steps, args.rounds), 1),
                   "async_vector_steps_per_s": round(async_vector(n, args.steps, args.rounds), 1)}
            for k in args.envs_per_actor or [1]:
                r, pss = ray_vector(n, args.steps, args.rounds, k)
                if k == 1:   # the figures of one sandbox per actor, under the names of earlier runs
                    row["ray_vector_steps_per_s"] = round(r, 1)
                    row["actor_pss_mb_median"] = round(statistics.median(pss), 1)
                row.setdefault("ray_by_envs_per_actor", []).append({
                    "envs_per_actor": k, "actors": len(pss), "steps_per_s": round(r, 1),
                    "pss_per_sandbox_mb": round(sum(pss) / n, 1)})
            rows.append(row)
            print(json.dumps(row), flush=True)
        latency = step_latency(args.steps * 2)
        print(json.dumps(latency), flush=True)
        fault = replacement(5)
        if any(k > 1 for k in args.envs_per_actor or [1]):
            fault.update(sandbox_replacement(3))
        print(json.dumps(fault), flush=True)
    finally:
        ray.shutdown()
    Path(args.out).write_text(json.dumps({
        "command": "python benchmarks/bench_vector.py " + " ".join(sys.argv[1:]),
        "date": time.strftime("%Y-%m-%d %H:%M"), "machine": f"{os.cpu_count()} cores, {platform.machine()}",
        "env": ENV_ID, "throughput": rows, **latency, **fault}, indent=2) + "\n")


if __name__ == "__main__":
    main()
