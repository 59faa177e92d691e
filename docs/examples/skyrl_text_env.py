"""A hybridgym task as a SkyRL-Gym text env: `skyrl_gym.make` -> init(prompt) -> step(reply) until done.

    .venv/bin/python docs/examples/skyrl_text_env.py --env hybridgym/browser.todo-add-v0 --seed 0

Needs `pip install skyrl-gym`. The observation is text: the accessibility tree of the screen
(obs_mode "axtree"), with the SDK's output and the last action's error; the screenshot rides in
`metadata["screenshot"]`. The "model" is a stand-in: the task's oracle written as pyautogui code
(`--policy oracle`), or random actions (`--policy random`).
"""

from __future__ import annotations

import argparse

import skyrl_gym

from hybridgym.agents import OracleAgent, RandomAgent
from hybridgym.integrations.text_env import as_reply, register_skyrl


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env", default="hybridgym/browser.todo-add-v0")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--policy", choices=["oracle", "random"], default="oracle")
    args = p.parse_args()

    register_skyrl([args.env])
    env = skyrl_gym.make(args.env, env_config={"obs_mode": "axtree", "family": "pyautogui"}, extras={"seed": args.seed})
    try:
        chat_history, meta = env.init([])
        print(f"--- system prompt: {len(chat_history[0]['content'])} characters; first user message ---")
        print(chat_history[-1]["content"][:1500])
        gym_env = env.session.env                               # the hybridgym env (for the stand-in model)
        agent = OracleAgent() if args.policy == "oracle" else RandomAgent()
        agent.reset(gym_env, env.session.obs, meta["hybridgym_info"])
        done = False
        while not done:
            reply = str(as_reply(gym_env, agent.act(env.session.obs)))
            chat_history.append({"role": "assistant", "content": reply})
            out = env.step(reply)
            chat_history += out["observations"]
            done = out["done"]
            print(f"turn {env.turns}: {reply.splitlines()[-1]!r:50} reward {out['reward']:.1f} done {done} "
                  f"error {out['metadata']['action_error']}")
        print(f"metrics {env.get_metrics()}; {len(chat_history)} messages; last screenshot "
              f"{out['metadata']['screenshot'].shape}")
        print(out["metadata"]["final_text"])
    finally:
        env.close()


if __name__ == "__main__":
    main()
