"""Game suite benchmark: random and scripted scores (the normalized-score baselines), virtual-time
speed-up, step and reset latency, and a same-seed determinism check, per game.

    .venv/bin/python benchmarks/bench_games.py --seeds 2 --out benchmarks/results/games.json
    .venv/bin/python benchmarks/bench_games.py --seeds 12 --first-seed 1000 --baselines-only \
        --out benchmarks/results/game_baselines_run.json --write-baselines

--write-baselines stores {game: {random, scripted, their spread, seeds}} in tasks/game_baselines.json,
which `hybridgym bench` uses for the normalized score (0 = random, 100 = scripted). The baselines are
played on held-out seeds (from --first-seed: 1000 is the first test seed), so that a bench run on its
default seeds 0, 1, ... is not scored against its own episodes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path

import gymnasium as gym

import hybridgym
from hybridgym.agents import NOOP_ACTION, RandomAgent
from hybridgym.tasks.game import BASELINES_FILE, GAME_TASKS


def play(env, task_id: str, seed: int, agent: str, max_steps: int | None = None) -> dict:
    """One full episode (no early finish) with the scripted player, random or noop; score and timings."""
    obs, info = env.reset(seed=seed, options={"task": task_id})
    base = env.unwrapped
    task, sb = base.episode.task, base.sandbox
    rnd = RandomAgent()
    rnd.reset(env, obs, info)
    steps, step_s, hashes = 0, [], []
    t0 = time.perf_counter()
    while True:
        if agent == "scripted":
            action = dict(task.player.policy(sb.browser.page.evaluate("hybridgym.state()")))
            if action.get("action_type") == "click":
                action["x"], action["y"] = sb.browser.to_screen(action["x"], action["y"])
        elif agent == "random":
            action = rnd.act(obs)
        else:
            action = NOOP_ACTION
        obs, reward, term, trunc, info = env.step(action)
        steps += 1
        step_s.append(info["timings"]["step_s"])
        hashes.append(hashlib.sha1(obs["screenshot"].tobytes()).hexdigest())
        if term or trunc or (max_steps and steps >= max_steps):
            break
    wall = time.perf_counter() - t0
    return {"score": info["score"], "steps": steps, "wall_s": wall, "step_s": step_s, "hashes": hashes,
            "reset_s": None}


def bench_game(env, name: str, seeds: int, first_seed: int = 0, baselines_only: bool = False) -> dict:
    task = GAME_TASKS[name]()
    tid = task.id
    res = {"game": name, "step_ms": task.step_ms, "max_steps": task.max_steps, "target": task.target,
           "seeds": list(range(first_seed, first_seed + seeds))}
    scripted = [play(env, tid, s, "scripted") for s in res["seeds"]]
    random_ = [play(env, tid, s, "random") for s in res["seeds"]]
    res["scripted_scores"] = [r["score"] for r in scripted]
    res["random_scores"] = [r["score"] for r in random_]
    for who in ("scripted", "random"):
        scores = res[f"{who}_scores"]
        res[f"{who}_mean"] = statistics.mean(scores)
        res[f"{who}_std"] = round(statistics.stdev(scores), 3) if len(scores) > 1 else 0.0
    steps = [s for r in scripted + random_ for s in r["step_s"]]
    res["step_ms_median"] = round(statistics.median(steps) * 1000, 1)
    if baselines_only:
        return res
    # speed-up under no-op steps: game time advanced / wall time, observation included
    noop = play(env, tid, 0, "noop", max_steps=60)
    res["noop_steps"] = noop["steps"]
    res["speedup_noop_steps"] = round(noop["steps"] * task.step_ms / 1000 / noop["wall_s"], 1)
    # the clock alone (no input, no screenshot): 60 s of game time in step_ms chunks
    env.reset(seed=0, options={"task": tid})
    br = env.unwrapped.sandbox.browser
    t = time.perf_counter()
    advanced = 0
    while advanced < 60_000 and not br.page.evaluate("hybridgym.gameOver()"):
        br.advance_clock(task.step_ms)
        advanced += task.step_ms
    res["speedup_clock_only"] = round(advanced / 1000 / (time.perf_counter() - t), 1)
    resets = []
    for s in range(10):
        t = time.perf_counter()
        env.reset(seed=s, options={"task": tid})
        resets.append(time.perf_counter() - t)
    res["reset_ms_median"] = round(statistics.median(resets) * 1000, 1)
    # determinism: the scripted player again on seed 0 gives the same screenshots (first 100 steps)
    again = play(env, tid, 0, "scripted", max_steps=100)
    res["deterministic"] = again["hashes"] == scripted[0]["hashes"][:len(again["hashes"])]
    return res


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=2, help="episodes per game and player")
    p.add_argument("--first-seed", type=int, default=0, help="the first seed (1000: the first test seed)")
    p.add_argument("--baselines-only", action="store_true", help="only the random and scripted scores")
    p.add_argument("--game", action="append")
    p.add_argument("--out", default="benchmarks/results/games.json")
    p.add_argument("--write-baselines", action="store_true")
    args = p.parse_args()
    env = gym.make(hybridgym.SUITE_IDS["game"])
    rows = []
    try:
        for name in args.game or sorted(GAME_TASKS):
            r = bench_game(env, name, args.seeds, args.first_seed, args.baselines_only)
            rows.append(r)
            print(json.dumps(r), flush=True)
    finally:
        env.close()
    head = ["game", "step_ms", "random_mean", "random_std", "scripted_mean", "scripted_std", "step_ms_median"]
    if not args.baselines_only:
        head += ["speedup_noop_steps", "speedup_clock_only", "reset_ms_median", "deterministic"]
    print(" | ".join(head))
    for r in rows:
        print(" | ".join(str(r[k]) for k in head))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"command": "python benchmarks/bench_games.py " + " ".join(sys.argv[1:]),
                                          "date": time.strftime("%Y-%m-%d %H:%M"), "results": rows}, indent=2) + "\n")
    if args.write_baselines:
        base = json.loads(BASELINES_FILE.read_text()) if BASELINES_FILE.exists() else {}
        for r in rows:
            base[r["game"]] = {"random": r["random_mean"], "scripted": r["scripted_mean"],
                               "random_std": r["random_std"], "scripted_std": r["scripted_std"],
                               "seeds": len(r["seeds"]), "first_seed": r["seeds"][0], "max_steps": r["max_steps"]}
        BASELINES_FILE.write_text(json.dumps(base, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
