"""What `ChatAgent` adds to a step, per model family, against calling the env directly.

Each family plays the same steps on the same page: a pointer move, alternating between two
empty spots (a real action every family can write, with no effect on the page). The replies
come from a scripted OpenAI-compatible server on 127.0.0.1 (tests/chat_server.py) that answers at
once, in the family's dialect (`Codec.format`). Per step:

- `direct`: `env.step(action)` with the typed action (the baseline);
- `act`: `ChatAgent.act(obs)`: encoding the screenshot, building the request, the HTTP round trip
  through the `openai` package, reading the reply; minus the server's own time in the script
  (the stand-in for "the model's own time"), that is what the agent adds;
- `step`: `env.step(reply)`: the env reading the family's dialect and performing it.

Added per step = act - script + (step - direct). `own` is the agent's own work in `act` (its
`episode_stats()["mean_overhead_ms"]`: encoding the screenshot, building the request, reading the
reply), without the HTTP round trip (the `openai` client and the server's HTTP stack, which a real
model server has too); `encode` is the part of it that encodes the screenshot. Medians over `--steps` steps per family, the
families interleaved round by round. PNG is the default image (lossless); `--jpeg` measures JPEG.

    .venv/bin/python benchmarks/chat_agent_latency.py --steps 30 --out benchmarks/results/chat_agent_latency.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import hybridgym  # noqa: F401
from hybridgym.actions import MoveTo
from hybridgym.chat_agent import ChatAgent

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.chat_server import ScriptedChatServer  # noqa: E402

FAMILIES = ("seed", "uitars", "qwen", "qwen3", "openai", "anthropic", "pyautogui")
SPOTS = (MoveTo(1200, 700), MoveTo(1210, 710))


def _median_ms(values: list[float]) -> float:
    return round(1000 * float(np.median(values)), 3)


def measure(task: str, steps: int, image_format: str) -> dict:
    env = gym.make(f"hybridgym/{task}", max_steps=10**6, max_episode_steps=10**6)   # no end mid-measure
    base = env.unwrapped
    obs, info = env.reset(seed=0)
    times: dict[str, dict[str, list[float]]] = {f: {"act": [], "script": [], "step": [], "encode": []}
                                               for f in ("direct", *FAMILIES)}
    pending: dict[str, MoveTo] = {}
    script_s: list[float] = []

    def respond(request: dict):
        t = time.perf_counter()
        written = base.codec.format([pending["action"]])
        reply = written if isinstance(written, str) else json.dumps(written)
        script_s.append(time.perf_counter() - t)
        return reply

    try:
        with ScriptedChatServer(respond) as server:
            agents = {f: ChatAgent(server.base_url, f"scripted-{f}", schema=f, history=1, image_format=image_format)
                      for f in FAMILIES}
            for family, agent in agents.items():        # each agent's reset sets the env's format; warm up
                agent.reset(env, obs, info)
            for i in range(steps):
                action = SPOTS[i % 2]
                base.set_action_format()
                t = time.perf_counter()
                obs, *_ = env.step(action)
                times["direct"]["step"].append(time.perf_counter() - t)
                for family, agent in agents.items():
                    space = agent.family
                    base.set_action_format(space.schema, space.coords, agent._sent_size(base.screen_size))
                    pending["action"] = action
                    before = len(script_s)
                    t = time.perf_counter()
                    reply = agent.act(obs)
                    times[family]["act"].append(time.perf_counter() - t)
                    times[family]["script"].append(sum(script_s[before:]))
                    t = time.perf_counter()
                    obs, _, _, _, step_info = env.step(reply)
                    times[family]["step"].append(time.perf_counter() - t)
                    if step_info["action_error"]:
                        raise RuntimeError(f"{family}: {step_info['action_error']} (reply {reply!r})")
            for family, agent in agents.items():
                stats = agent.episode_stats()
                times[family]["encode"] = [stats["mean_encode_ms"] / 1000]
                times[family]["own"] = [stats["mean_overhead_ms"] / 1000]
    finally:
        env.close()
    direct = _median_ms(times["direct"]["step"])
    rows = {"direct": {"step_ms": direct}}
    for family in FAMILIES:
        t = times[family]
        agent_ms = _median_ms([a - s for a, s in zip(t["act"], t["script"])])
        step_ms = _median_ms(t["step"])
        rows[family] = {"agent_ms": agent_ms, "own_ms": round(1000 * t["own"][0], 3),
                        "encode_ms": round(1000 * t["encode"][0], 3), "step_ms": step_ms,
                        "added_ms": round(agent_ms + step_ms - direct, 3)}
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--task", action="append", help="task id (default: browser.todo-add-v0 and miniwob.click-button-v0)")
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--jpeg", action="store_true", help="send JPEG screenshots instead of PNG")
    p.add_argument("--out", help="JSON file for the results")
    args = p.parse_args()
    results = {}
    for task in args.task or ["browser.todo-add-v0", "miniwob.click-button-v0"]:
        rows = measure(task, args.steps, "jpeg" if args.jpeg else "png")
        results[task] = rows
        print(f"{task}: direct env.step {rows['direct']['step_ms']} ms (median of {args.steps})")
        print(f"  {'family':10s} {'agent ms':>9s} {'own ms':>7s} {'encode ms':>10s} {'env.step ms':>12s} "
              f"{'added ms':>9s}")
        for family in FAMILIES:
            r = rows[family]
            print(f"  {family:10s} {r['agent_ms']:9.2f} {r['own_ms']:7.2f} {r['encode_ms']:10.2f} {r['step_ms']:12.2f} "
                  f"{r['added_ms']:9.2f}")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps({"steps": args.steps, "image": "jpeg" if args.jpeg else "png",
                                              "results": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
