"""verl-agent's environment manager over hybridgym: a batch of prompts and screenshots in, model replies out, `won` back.

    .venv/bin/python docs/examples/verl_agent_manager.py --env hybridgym/browser.todo-add-v0 --envs 2

This is the loop verl-agent's TrajectoryCollector runs (agent_system/multi_turn_rollout): reset,
then each turn one reply per sub-env, until every sub-env is done; a sub-env that is done is
masked out (it still gets a reply, which the manager does not play). The "model" here is a
stand-in: sub-env 0 plays the task's oracle written as UI-TARS text, the others reply at random
(a random action as UI-TARS text, or a sentence that is no action at all).
"""

from __future__ import annotations

import argparse

import numpy as np

from hybridgym.agents import OracleAgent, RandomAgent
from hybridgym.integrations.text_env import as_reply
from hybridgym.integrations.verl_agent import HybridEnvManager


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env", default="hybridgym/browser.todo-add-v0")
    p.add_argument("--envs", type=int, default=2)
    p.add_argument("--family", default="uitars", help="the model family the prompt is written for")
    p.add_argument("--obs-mode", default="screenshot", help='e.g. "axtree" to put the tree in the text')
    p.add_argument("--max-turns", type=int, default=12)
    args = p.parse_args()

    mgr = HybridEnvManager(args.env, num_envs=args.envs, family=args.family, seed=0, obs_mode=args.obs_mode)
    rng = np.random.default_rng(0)
    try:
        obs, infos = mgr.reset()
        print(f"--- the prompt of sub-env 0 ({len(obs['text'][0])} characters, image {obs['image'][0].shape}) ---")
        print(obs["text"][0][-1500:])
        subs = [e for e in mgr.envs.envs]                    # the sync vector env's sub-envs (for the stand-in model)
        agents = [OracleAgent() if i == 0 else RandomAgent() for i in range(args.envs)]
        for i, agent in enumerate(agents):
            agent.reset(subs[i], {"screenshot": obs["image"][i]}, infos[i])
        is_done = np.zeros(args.envs, dtype=bool)
        for turn in range(1, args.max_turns + 1):
            replies = []
            for i, agent in enumerate(agents):
                if i > 0 and rng.random() < 0.2:
                    replies.append("I am not sure; let me think about it.")   # no action: is_action_valid False
                else:
                    replies.append(str(as_reply(subs[i], agent.act({"screenshot": obs["image"][i]}))))
            obs, rewards, dones, infos = mgr.step(replies)
            for i in range(args.envs):
                if not is_done[i]:
                    print(f"turn {turn} sub-env {i}: {replies[i].splitlines()[-1][:70]!r:72} reward {rewards[i]:.1f} "
                          f"done {bool(dones[i])} won {infos[i]['won']} valid {infos[i]['is_action_valid']}")
            is_done |= dones
            if is_done.all():
                break
        print("success rate:", mgr.success_evaluator()["success_rate"], "anchors:", obs["anchor"])
    finally:
        mgr.close()


if __name__ == "__main__":
    main()
