"""Virtual-time speed-up of the real-time games: game seconds per wall second under no-op steps,
for several amounts of game time per step (the observation after each step included).

A no-op step (`wait(0)`) advances the game's clock by `step_ms` of game time, lets the game
draw once and reads the 800x600 picture: the wall time per step is that of one step of an
agent that does nothing, and the speed-up is step_ms / wall time. Amounts of game time per
step: the game's default (`CARD["step_ms"]`, made for classic RL: a frame skip), 1 s and 2 s
(a VLM agent's step), 5 s. Medians over --seeds episodes of --steps steps (an episode that
ends early is cut there). Flappy does not start before its first flap, so under no-op steps
nothing moves and nothing is drawn: its figure is the floor of a step (one round trip).

    .venv/bin/python benchmarks/bench_game_speed.py --out benchmarks/results/game_speed.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import gymnasium as gym

import hybridgym  # noqa: F401
from hybridgym.agents import NOOP_ACTION

REALTIME = ["whack-a-mole", "snake", "breakout", "flappy", "falling-blocks", "pong"]


def speed(game: str, step_ms: int, steps: int, seeds: int) -> dict:
    env = gym.make(f"hybridgym/game.{game}-v0", step_ms=step_ms, max_steps=10**6)
    rates, walls = [], []
    try:
        env.reset(seed=0)   # start the sandbox outside the timing
        for seed in range(seeds):
            env.reset(seed=seed)
            n, t = 0, time.perf_counter()
            for _ in range(steps):
                *_, term, trunc, info = env.step(NOOP_ACTION)
                n += 1
                if term or trunc:
                    break
            wall = time.perf_counter() - t
            rates.append(n * step_ms / 1000 / wall)
            walls.append(wall / n)
    finally:
        env.close()
    return {"game": game, "step_ms": step_ms, "speedup_median": round(statistics.median(rates), 1),
            "wall_ms_per_step": round(statistics.median(walls) * 1000, 1)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--step-ms", type=int, action="append", help="default: the game's own, 1000 and 5000")
    p.add_argument("--out", default="benchmarks/results/game_speed.json")
    args = p.parse_args()
    from hybridgym.tasks.players import discover
    cards = {n: m.CARD for n, m in discover().items()}
    rows = []
    load_before = os.getloadavg()[0]
    for game in REALTIME:
        for ms in args.step_ms or [cards[game]["step_ms"], 1000, 2000, 5000]:
            r = speed(game, ms, args.steps, args.seeds)
            rows.append(r)
            print(json.dumps(r), flush=True)
    load_after = os.getloadavg()[0]
    by_ms: dict[str, list[float]] = {}
    for r in rows:
        key = "default" if r["step_ms"] == cards[r["game"]]["step_ms"] else str(r["step_ms"])
        if r["game"] != "flappy":
            by_ms.setdefault(key, []).append(r["speedup_median"])
    summary = {f"speedup_{k}_min_over_games_but_flappy": min(v) for k, v in by_ms.items()}
    Path(args.out).write_text(json.dumps({
        "command": "python benchmarks/bench_game_speed.py" + (f" --steps {args.steps}" if args.steps != 20 else ""),
        "machine": {"cpus": os.cpu_count(), "loadavg_1m_before": round(load_before, 2), "loadavg_1m_after": round(load_after, 2)},
        "date": time.strftime("%Y-%m-%d %H:%M"), "summary": summary, "results": rows}, indent=2) + "\n")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
