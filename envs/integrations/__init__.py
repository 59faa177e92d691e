"""Adapters that serve hybridgym envs to RL trainers as those trainers already take envs (docs/integrations.md).

- `hybridgym.integrations.verl_agent.HybridEnvManager`: verl-agent's environment manager (batched
  prompts + screenshots + anchors in, model replies out, `won` / `is_action_valid` in the infos);
- `hybridgym.integrations.text_env.HybridSkyRLEnv` / `HybridGemEnv`: text in, text out for SkyRL-Gym
  and GEM loops (the screen as text from the tree modes, the screenshot beside it), with
  `register_skyrl()` / `register_gem()` for their registries;
- `hybridgym.integrations.rollouts.RolloutPool`: a partially filled rollout pool for asynchronous RL,
  fed by the Ray vector env's `send`/`recv`.

Each module imports its library (SkyRL-Gym, GEM, Ray) only when it is used.
"""
