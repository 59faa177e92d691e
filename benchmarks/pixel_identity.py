"""Whether one seed gives the same pixels in two processes: each process makes the env, resets it with the
seed and plays the oracle's first steps, hashing every screenshot; the hashes are compared frame by frame.

Before the browser suites showed a stable host name (`webapps.test`, `miniwob.test`, `intranet.test`),
the address bar carried each process's random port, so no browser frame was the same.

    .venv/bin/python benchmarks/pixel_identity.py [--steps 4] [--tasks a,b]   # -> benchmarks/results/pixel_identity.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

TASKS = ["browser.todo-add-v0", "browser.files-download-v1", "miniwob.click-button-v0", "miniwob.enter-text-v0",
         "computer.editor-create-file-v0", "game.snake-v0"]
OUT = Path(__file__).parent / "results" / "pixel_identity.json"


def play(task: str, seed: int, steps: int) -> list[str]:
    """The sha256 of the reset screenshot and of the oracle's first `steps` steps' (in this process)."""
    import gymnasium as gym
    import hybridgym  # noqa: F401
    from hybridgym.agents import OracleAgent
    env = gym.make(f"hybridgym/{task}")
    try:
        obs, info = env.reset(seed=seed)
        agent = OracleAgent()
        agent.reset(env, obs, info)
        hashes = [hashlib.sha256(obs["screenshot"].tobytes()).hexdigest()]
        for _ in range(steps):
            obs, _, term, trunc, info = env.step(agent.act(obs))
            hashes.append(hashlib.sha256(obs["screenshot"].tobytes()).hexdigest())
            if term or trunc:
                break
        return hashes
    finally:
        env.close()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tasks", default=",".join(TASKS))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--steps", type=int, default=4)
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(play(args.child, args.seed, args.steps)))
        return 0
    rows = []
    for task in args.tasks.split(","):
        runs = []
        for _ in range(2):   # two fresh processes
            out = subprocess.run([sys.executable, __file__, "--child", task, "--seed", str(args.seed),
                                  "--steps", str(args.steps)], capture_output=True, text=True, timeout=600)
            if out.returncode != 0:
                raise SystemExit(f"{task}: {out.stderr[-2000:]}")
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        n = min(len(runs[0]), len(runs[1]))
        same = sum(a == b for a, b in zip(runs[0][:n], runs[1][:n]))
        rows.append({"task": task, "frames": n, "identical": same, "reset_identical": runs[0][0] == runs[1][0]})
        print(f"{task:36s} {same}/{n} frames identical across two processes (reset frame: "
              f"{'same' if runs[0][0] == runs[1][0] else 'differs'})", flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"seed": args.seed, "steps": args.steps, "rows": rows}, indent=1) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
