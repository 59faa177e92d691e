"""Are an env's observations final? Replays the oracles of a suite's tasks and, after every step,
compares the observation with the screen a moment later (0.6 s by default; no input in between): a difference means the
env returned before the step's result was all on the screen (a stale observation). Writes the count
and the steps where it happened. Suites: mobile, browser, miniwob (the tasks with a scripted solver; with
`--agent random`, the first N tasks of the suite but MiniWoB's real-time ones, whose pages move by themselves
(`tasks.miniwob.REAL_TIME`), each episode `--steps` random actions: clicks anywhere on the screen, keys, typing,
scrolls). Each reset's first observation is checked the same way. On MiniWoB it also counts the steps and resets
whose picture was read once the frame marker showed their colour (`XShmCapture.read_marked`; the others waited for a
quiet screen), and the steps that were one click whose release was the sentinel (`ChromiumBrowser.click_barrier`,
the page saw it; the others sent the sentinel key).

    .venv/bin/python benchmarks/check_observations.py --suite mobile --tasks 60
    .venv/bin/python benchmarks/check_observations.py --suite browser --tasks 60
    .venv/bin/python benchmarks/check_observations.py --suite miniwob
    .venv/bin/python benchmarks/check_observations.py --suite miniwob --agent random --tasks 60 --seeds 2 --steps 5
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
from hybridgym.agents import OracleAgent, RandomAgent
from hybridgym.sandbox.browser import ChromiumBrowser
from hybridgym.sandbox.capture import XShmCapture
from hybridgym.tasks import tasks_of
from hybridgym.tasks.miniwob import REAL_TIME

SUITES = ("mobile", "browser", "miniwob")


def check(suite: str, n_tasks: int, seeds: int = 1, shots: Path | None = None, later_s: float = 0.6,
          agent_name: str = "oracle", max_steps: int = 5) -> dict:
    oracle = agent_name == "oracle"
    tasks = sorted(t.id for t in tasks_of(suite) if oracle and getattr(t, "has_oracle", True)
                   or not oracle and getattr(t, "name", None) not in REAL_TIME)[:n_tasks]
    env = gym.make(hybridgym.SUITE_IDS[suite], max_steps=10 ** 6)
    steps, stale, failed, resets, stale_resets = 0, [], [], 0, []
    marked = {"step": 0, "reset": 0}
    phase = ["reset"]
    read_marked, click_barrier = XShmCapture.read_marked, ChromiumBrowser.click_barrier
    by_release = [0]

    def counted(self, *args, **kwargs):
        frame = read_marked(self, *args, **kwargs)
        marked[phase[0]] += frame is not None
        return frame

    def counted_click(self, *args, **kwargs):
        answer = click_barrier(self, *args, **kwargs)
        by_release[0] += answer is not None and answer[0] is True
        return answer

    def stale_box(obs_shot: np.ndarray, name: str) -> list[int] | None:
        """The box where the screen `later_s` after the observation differs from it (None: the same)."""
        time.sleep(later_s)
        later = env.unwrapped.sandbox.capture.grab()
        if np.array_equal(later, obs_shot):
            return None
        diff = np.argwhere((later != obs_shot).any(axis=2))
        (y0, x0), (y1, x1) = diff.min(axis=0), diff.max(axis=0)
        if shots is not None:   # the observation above, the screen `later_s` later below
            from PIL import Image
            shots.mkdir(parents=True, exist_ok=True)
            Image.fromarray(np.concatenate([obs_shot, later])).save(shots / f"{name}.png")
        return [int(x0), int(y0), int(x1) + 1, int(y1) + 1, len(diff)]
    XShmCapture.read_marked, ChromiumBrowser.click_barrier = counted, counted_click
    try:
        for tid in tasks:
            for seed in range(seeds):
                phase[0] = "reset"
                obs, info = env.reset(seed=seed, options={"task": tid})
                phase[0] = "step"
                resets += 1
                box = stale_box(obs["screenshot"], f"{tid}-{seed}-reset")
                if box is not None:
                    stale_resets.append({"task": tid, "seed": seed, "changed_box": box[:4], "changed_pixels": box[4]})
                agent = OracleAgent() if oracle else RandomAgent()
                agent.reset(env, obs, info)
                done, n = False, 0
                while not done:
                    action = agent.act(obs)
                    obs, _, term, trunc, info = env.step(action)
                    n += 1
                    done = term or trunc or (not oracle and n >= max_steps)
                    steps += 1
                    box = stale_box(obs["screenshot"], f"{tid}-{seed}-{steps}")
                    if box is not None:
                        stale.append({"task": tid, "seed": seed, "step": steps, "action": str(action)[:80],
                                      "changed_box": box[:4], "changed_pixels": box[4]})
                if oracle and not info.get("success"):
                    failed.append(f"{tid} seed {seed}")
    finally:
        XShmCapture.read_marked, ChromiumBrowser.click_barrier = read_marked, click_barrier
        env.close()
    return {"suite": suite, "agent": agent_name, "tasks": len(tasks), "seeds": seeds, "later_s": later_s, "steps": steps,
            "marked_steps": marked["step"], "release_sentinel_steps": by_release[0], "stale_observations": len(stale),
            "stale_share": round(len(stale) / max(steps, 1), 4),
            "resets": resets, "marked_resets": marked["reset"], "stale_first_observations": len(stale_resets),
            "oracle_failures": failed, "where": stale, "where_reset": stale_resets}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", choices=SUITES, default="mobile")
    p.add_argument("--tasks", type=int, default=60, help="the first N tasks by id (with a scripted solver)")
    p.add_argument("--seeds", type=int, default=1, help="episodes per task (seeds 0..N-1)")
    p.add_argument("--later", type=float, default=0.6, help="seconds after the step to look again (the browser's"
                   " status bubble fades out until 0.47 s after the pointer left a link)")
    p.add_argument("--out", help="default: benchmarks/results/<suite>_observations.json")
    p.add_argument("--agent", choices=("oracle", "random"), default="oracle")
    p.add_argument("--steps", type=int, default=5, help="steps per episode of the random agent")
    p.add_argument("--shots", type=Path, help="a folder for each stale observation's picture (above) and the later screen")
    args = p.parse_args()
    result = {"command": f"python benchmarks/check_observations.py --suite {args.suite} --tasks {args.tasks}"
                         f" --seeds {args.seeds} --later {args.later}"
                         + (f" --agent random --steps {args.steps}" if args.agent == "random" else ""),
              "date": time.strftime("%Y-%m-%d %H:%M"), "loadavg_1m_before": round(os.getloadavg()[0], 2),
              **check(args.suite, args.tasks, args.seeds, args.shots, args.later, args.agent, args.steps), "loadavg_1m_after": round(os.getloadavg()[0], 2)}
    out = Path(args.out or f"benchmarks/results/{args.suite}_observations"
                              f"{'_random' if args.agent == 'random' else ''}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k not in ("where", "where_reset")}, indent=2))


if __name__ == "__main__":
    main()
