"""Trainer adapters (hybridgym.integrations), each driven the way its library's loop drives an env.

- verl-agent: `reset()` then `step(list of model replies)` until every sub-env is done, `won` read
  with verl-agent's active masks (its TrajectoryCollector's loop, done sub-envs still given a reply);
- SkyRL-Gym: `skyrl_gym.make` -> `init(prompt)` -> `step(str)` until `done`, the reward at the end;
- GEM: `gem.make` under GEM's ObservationWrapper -> `reset()` -> `step(str)` until terminated;
- the asynchronous rollout pool over a real local Ray (`RayVectorEnv.send`/`recv`).

The winning replies are each task's oracle, written as model text in the family the env reads
(`codec.format`), so `won`/reward are earned through the adapters' own text path.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from hybridgym.agents import OracleAgent
from hybridgym.integrations.text_env import NO_TREE_NOTE, HybridGemEnv, as_reply, HybridSkyRLEnv, register_gem, register_skyrl
from hybridgym.integrations.verl_agent import HybridEnvManager

TODO = "hybridgym/browser.todo-add-v0"
GAME = "hybridgym/game.snake-v0"


def oracle_replies(env: gym.Env):
    """The task's oracle for the current episode, one model reply (text in the env's schema) per step."""
    agent = OracleAgent()
    agent.reset(env, None, {})
    while True:
        yield as_reply(env, agent.act(None))


@pytest.fixture(scope="module")
def todo_axtree():
    """One Taskboard env with the accessibility tree in its observation, for the text-protocol adapters."""
    env = gym.make(TODO, obs_mode="axtree")
    yield env
    env.close()


# -- verl-agent ------------------------------------------------------------------------------------------------------
def test_verl_agent_manager_batches_text_images_and_reports_won_per_sub_env():
    mgr = HybridEnvManager(TODO, num_envs=2, group_n=2, family="uitars", seed=11)
    try:
        obs, infos = mgr.reset()
        assert set(obs) == {"text", "image", "anchor"} and len(obs["text"]) == len(obs["image"]) == 2
        assert obs["image"][0].shape == (800, 1280, 3) and obs["image"][0].dtype == np.uint8
        assert [i["seed"] for i in infos] == [11, 11]                       # a group shares its seed
        instruction = mgr.envs.envs[0].unwrapped.episode.instruction
        assert "Taskboard" in instruction and all(instruction in t for t in obs["text"])
        assert all("<image>" in t and NO_TREE_NOTE not in t for t in obs["text"])  # screenshot mode: the image speaks
        assert all(a.startswith("browser.todo-add-v0:") for a in obs["anchor"])
        assert "Action:" in obs["text"][0]                                  # the family's prompt: how to write actions

        # verl-agent's collector loop: every sub-env gets a reply each step; done ones are masked out
        winner = oracle_replies(mgr.envs.envs[0])
        loser = iter(["I am not sure what to do here.", "Action: finished()"])
        is_done = np.zeros(2, dtype=bool)
        total_infos, total_batch_list, rewards_sum = [[], []], [[], []], np.zeros(2)
        for _ in range(10):
            active = ~is_done
            texts = [next(winner) if active[0] else "Action: wait()", next(loser) if active[1] else "Action: wait()"]
            obs, rewards, dones, infos = mgr.step(texts)
            assert rewards.dtype == np.float32 and dones.dtype == bool and len(infos) == 2
            rewards_sum += rewards * active
            for i in range(2):
                total_infos[i].append(infos[i])
                total_batch_list[i].append({"active_masks": bool(active[i])})
            if active[1] and not total_infos[1][1:]:                         # the loser's first reply is no action
                assert infos[1]["is_action_valid"] is False and "Action:" in infos[1]["action_error"]
                assert "refused" in obs["text"][1]                          # and the next prompt says so
            is_done |= dones
            if is_done.all():
                break
        assert is_done.all()
        assert total_infos[0][-1]["won"] is True and rewards_sum[0] == 1.0
        assert all(i["is_action_valid"] for i in total_infos[0])
        assert total_infos[1][1]["won"] is False and total_infos[1][-1]["active"] is False
        success = mgr.success_evaluator(total_infos=total_infos, total_batch_list=total_batch_list)
        assert list(success["success_rate"]) == [1.0, 0.0]

        obs, infos = mgr.reset()                                          # the next batch: new seeds
        assert [i["seed"] for i in infos] == [12, 12] and not any(i["won"] for i in infos)
    finally:
        mgr.close()


def test_verl_agent_manager_over_a_same_step_vector_env_keeps_each_episode_end():
    from gymnasium.vector.vector_env import AutoresetMode
    venv = gym.make_vec(GAME, num_envs=2, vectorization_mode="sync", max_steps=2,
                        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP})
    mgr = HybridEnvManager(venv, family="uitars", include_image=False)
    try:
        obs, infos = mgr.reset([{"seed": 3}, {"seed": 4}])              # verl-agent's per-sample env_kwargs
        assert obs["image"] is None and all(NO_TREE_NOTE in t for t in obs["text"])   # text-only: the note says why
        press = "Action: hotkey(key='up')"
        obs, rewards, dones, infos = mgr.step([press, press])
        assert not dones.any() and [i["step"] for i in infos] == [1, 1] and all(i["is_action_valid"] for i in infos)
        obs, rewards, dones, infos = mgr.step([press, press])
        assert dones.all() and [i["step"] for i in infos] == [2, 2]       # the episode's end, not the autoreset's start
        assert [i["seed"] for i in infos] == [3, 4] and all("check" in i for i in infos)
        obs, rewards, dones, infos = mgr.step([press, press])             # done: masked out, last info again
        assert dones.all() and (rewards == 0).all() and [i["active"] for i in infos] == [False, False]
        assert [i["step"] for i in infos] == [2, 2]
    finally:
        mgr.close()
        venv.close()


def test_verl_agent_manager_refuses_what_it_cannot_serve():
    with pytest.raises(ValueError, match="num_envs"):
        HybridEnvManager(TODO)
    with pytest.raises(ValueError, match="group_n=2 must divide"):
        HybridEnvManager(TODO, num_envs=3, group_n=2)
    with pytest.raises(ValueError, match="unknown model family"):
        HybridEnvManager(TODO, num_envs=1, family="gpt-9")
    single = gym.make(GAME)
    try:
        with pytest.raises(TypeError, match="VectorEnv"):
            HybridEnvManager(single, num_envs=1)
    finally:
        single.close()


# -- SkyRL-Gym -------------------------------------------------------------------------------------------------------
def test_skyrl_gym_loop_with_the_axtree_earns_the_reward_at_the_end(todo_axtree):
    skyrl_gym = pytest.importorskip("skyrl_gym")
    from skyrl_gym.envs.base_text_env import BaseTextEnv
    register_skyrl([TODO])
    env = skyrl_gym.make(TODO, env_config={"family": "pyautogui"}, extras={"seed": 4}, env=todo_axtree)
    assert isinstance(env, BaseTextEnv) and isinstance(env, HybridSkyRLEnv)
    chat_history, meta = env.init([])
    assert chat_history[0]["role"] == "system" and "pyautogui" in chat_history[0]["content"]
    first = chat_history[-1]["content"]
    assert chat_history[-1]["role"] == "user" and 'textbox "Title"' in first and "Taskboard" in first
    assert meta["screenshot"].shape == (800, 1280, 3) and meta["seed"] == 4
    replies, rewards, done, out = oracle_replies(todo_axtree), [], False, None
    while not done:                                      # SkyRL's generator: reply, step, append the observations
        reply = next(replies)
        chat_history.append({"role": "assistant", "content": reply})
        out = env.step(reply)
        chat_history += out["observations"]
        rewards.append(out["reward"])
        done = out["done"]
        if not done:
            assert out["observations"][0]["role"] == "user" and "Accessibility tree" in out["observations"][0]["content"]
        assert env.turns <= env.max_turns
    assert out["observations"] == [] and out["metadata"]["success"] is True
    assert rewards[-1] == 1.0 and sum(rewards[:-1]) == 0.0
    assert env.get_metrics()["success"] == 1.0
    env.close()                                           # not the shared env: it was given, not made
    assert todo_axtree.unwrapped.sandbox is not None


def test_skyrl_text_env_feeds_an_action_error_back_as_the_next_user_message(todo_axtree):
    env = HybridSkyRLEnv(env_config={"family": "pyautogui"}, extras={"seed": 5}, env=todo_axtree)
    env.init([{"role": "user", "content": "Solve the task on the screen."}])
    out = env.step("pyautogui.explode()")
    text = out["observations"][0]["content"]
    assert not out["done"] and out["reward"] == 0.0
    assert "refused" in text and "explode" in text and 'textbox "Title"' in text
    with pytest.raises(TypeError, match="str"):
        env.step({"action_type": "wait"})


# -- GEM -------------------------------------------------------------------------------------------------------------
def test_gem_loop_under_its_observation_wrapper_terminates_with_the_reward(todo_axtree):
    gem = pytest.importorskip("gem")
    from gem.wrappers.observation_wrapper import ObservationWrapper
    register_gem([TODO])
    raw = gem.make(TODO, env=todo_axtree, seed=6)
    assert isinstance(raw, gem.Env) and isinstance(raw, HybridGemEnv)
    env = ObservationWrapper(raw, include_chat_template=False)       # GEM's history of text turns
    obs, info = env.reset()
    assert isinstance(obs, str) and 'textbox "Title"' in obs and "pyautogui" in obs and info["seed"] == 6
    assert info["screenshot"].shape == (800, 1280, 3)
    assert isinstance(raw.sample_random_action(), str)
    replies, terminated, truncated, reward = oracle_replies(todo_axtree), False, False, 0.0
    steps = 0
    while not (terminated or truncated):
        reply = next(replies)
        obs, reward, terminated, truncated, info = env.step(reply)
        steps += 1
        assert reply in obs                                      # the wrapper keeps the dialogue
    assert terminated and not truncated and reward == 1.0 and info["success"] is True
    assert "the task succeeded" in obs
    with pytest.raises(RuntimeError, match="ended"):
        raw.step("pyautogui.click(10, 10)")


def test_text_env_without_a_tree_mode_says_so():
    env = HybridGemEnv(GAME, seed=0, family="pyautogui")
    try:
        obs, info = env.reset()
        assert NO_TREE_NOTE in obs and info["screenshot"].shape[2] == 3
        obs, reward, terminated, truncated, info = env.step("pyautogui.press('up')")
        assert info["action_error"] is None and NO_TREE_NOTE in obs
    finally:
        env.close()


# -- the asynchronous rollout pool (one Ray test) --------------------------------------------------------------------
@pytest.mark.xdist_group(name="ray")
def test_rollout_pool_groups_recv_steps_into_whole_episodes():
    ray = pytest.importorskip("ray")
    from hybridgym.integrations.rollouts import RolloutPool
    from hybridgym.vector import RayVectorEnv
    if ray.is_initialized():
        ray.shutdown()
    rng = np.random.default_rng(0)
    keys = ["up", "down", "left", "right"]
    seen: list[int] = []

    def policy(index, obs):
        assert obs["screenshot"].shape == (600, 800, 3)
        seen.append(index)
        return {"action_type": "hotkey", "keys": [keys[int(rng.integers(4))]]}

    venv = RayVectorEnv(GAME, 2, env_kwargs={"max_steps": 3}, call_timeout_s=60)
    try:
        pool = RolloutPool(venv, policy, min_ready=1, timeout=30)
        pool.start(seed=0)
        first = pool.take(3)
        pool.policy_version = 1                          # the trainer updated; later steps say so
        second = pool.take(3)
        for ep in first + second:
            assert ep.terminated or ep.truncated
            assert 1 <= ep.steps <= 3 and len(ep.rewards) == ep.steps and len(ep.observations) == ep.steps + 1
            assert "step" not in ep.infos[0] and ep.infos[0]["task_id"] == "game.snake-v0"   # the reset's info
            assert [i["step"] for i in ep.infos[1:]] == list(range(1, ep.steps + 1))         # its own steps, in order
            assert ep.error is None and ep.policy_versions == sorted(ep.policy_versions)
        assert {ep.index for ep in first + second} == {0, 1}
        assert all(v == 0 for ep in first for v in ep.policy_versions)
        assert any(v == 1 for ep in second for v in ep.policy_versions)
        assert pool.transitions >= sum(ep.steps for ep in first + second)
        pool.close()
        assert venv.pending == []

        # the verl-agent manager over the same Ray vector env: done sub-envs are not stepped at all
        mgr = HybridEnvManager(venv, family="uitars")
        obs, infos = mgr.reset(seed=[7, 8])
        assert [i["seed"] for i in infos] == [7, 8] and len(obs["image"]) == 2
        press = "Thought: go up.\nAction: hotkey(key='up')"
        for _ in range(3):
            obs, rewards, dones, infos = mgr.step([press, press])
        assert dones.all() and [i["step"] for i in infos] == [3, 3] and all(i["is_action_valid"] for i in infos)
        obs, rewards, dones, infos = mgr.step([press, press])
        assert dones.all() and [i["active"] for i in infos] == [False, False] and [i["step"] for i in infos] == [3, 3]
        assert venv.pending == []
    finally:
        venv.close()
    sync = gym.make_vec(GAME, num_envs=1, vectorization_mode="sync")
    try:
        with pytest.raises(TypeError, match="send/recv"):
            RolloutPool(sync, policy)
    finally:
        sync.close()
