"""A hybridgym task as a GEM env: `gem.make` -> reset() -> step(reply) until terminated or truncated.

    .venv/bin/python docs/examples/gem_text_env.py --env hybridgym/browser.todo-add-v0 --seed 0

Needs `pip install gem-llm`. GEM's own ObservationWrapper keeps the dialogue (observations and
replies) in the text, as GEM's training examples do. The observation is the set-of-marks list
and the tree (obs_mode "axtree+som"), so a text model can click a mark by its number; the
screenshot rides in `info["screenshot"]`. The "model" is a stand-in: the task's oracle written as
pyautogui code (`--policy oracle`) or GEM's `sample_random_action()` (`--policy random`).
"""

from __future__ import annotations

import argparse

import gem
from gem.wrappers.observation_wrapper import ObservationWrapper

from hybridgym.agents import OracleAgent
from hybridgym.integrations.text_env import as_reply, register_gem


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env", default="hybridgym/browser.todo-add-v0")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--policy", choices=["oracle", "random"], default="oracle")
    args = p.parse_args()

    register_gem([args.env])
    raw = gem.make(args.env, seed=args.seed, obs_mode="axtree+som", family="pyautogui")
    env = ObservationWrapper(raw, include_chat_template=False)
    try:
        obs, info = env.reset()
        print(f"--- first observation ({len(obs)} characters) ---")
        print(obs[-1500:])
        gym_env = raw.session.env
        agent = OracleAgent()
        agent.reset(gym_env, raw.session.obs, info["hybridgym_info"])
        terminated = truncated = False
        while not (terminated or truncated):
            reply = raw.sample_random_action() if args.policy == "random" else str(as_reply(gym_env, agent.act(None)))
            obs, reward, terminated, truncated, info = env.step(reply)
            print(f"{reply.splitlines()[-1]!r:50} reward {reward:.1f} terminated {terminated} truncated {truncated} "
                  f"success {info['success']}")
        print(f"--- the dialogue so far: {len(obs)} characters; its end ---")
        print(obs[-400:])
    finally:
        env.close()


if __name__ == "__main__":
    main()
