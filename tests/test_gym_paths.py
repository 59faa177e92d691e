"""Every Gymnasium path, checked by what it returns (not only shapes): make_vec sync and async (shared
memory on and off) with text and non-ASCII text, `max_episode_steps` as the env's own budget, flattening
of text, writable arrays, `render_fps`, and a clear error where a pixels-only learner meets text."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.spaces import flatten, flatten_space, unflatten

import hybridgym  # noqa: F401
from hybridgym.agents import OracleAgent, run_episode
from hybridgym.spaces import UnicodeText
from hybridgym.tasks import TASKS

GAME = "hybridgym/game.snake-v0"
#: a task whose instruction has non-ASCII characters ("My Drive › Team notes")
NON_ASCII = "browser.files-download-v1"
#: an action the codec refuses, quoting non-ASCII text back in the action error
BAD = "click(“x”, ‘y’) ›"

pytestmark = pytest.mark.xdist_group("gym_paths")


def test_text_flattens_and_round_trips_any_unicode():
    space = UnicodeText(40)
    for text in ["", "plain", "My Drive › Team “notes” 867 × 67 − 2604", "😀\x00tab\tend", "\ud800 lone"]:
        flat = flatten(space, text)
        assert flat.dtype == np.int32 and flat.shape == (40,) and flatten_space(space).contains(flat)
        assert unflatten(space, flat) == text
    obs_space = gym.spaces.Dict({"t": space, "b": gym.spaces.Box(0, 1, (2,), np.float32)})
    back = unflatten(obs_space, flatten(obs_space, {"t": "a › b", "b": np.ones(2, np.float32)}))
    assert back["t"] == "a › b" and back["b"].tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="does not fit"):
        flatten(space, "x" * 41)


@pytest.mark.parametrize("mode,kwargs", [("sync", {}), ("async", {}), ("async", {"shared_memory": False})],
                         ids=["sync", "async-shared-memory", "async-pickled"])
def test_make_vec_returns_the_envs_own_text(mode, kwargs):
    single = gym.make(GAME)
    try:
        ref_obs, _ = single.reset(seed=5)
        ref_step, *_ = single.step(BAD)
    finally:
        single.close()
    venv = gym.make_vec(GAME, num_envs=2, vectorization_mode=mode, vector_kwargs=kwargs)
    try:
        obs, infos = venv.reset(seed=[5, 6])
        assert obs["instruction"][0] == ref_obs["instruction"] and len(ref_obs["instruction"]) > 20
        assert np.array_equal(obs["screenshot"][0], ref_obs["screenshot"])   # a game: deterministic pixels
        assert list(infos["seed"]) == [5, 6]
        obs, *_ = venv.step([BAD, "press(key='up')"])
        assert obs["action_error"][0] == ref_step["action_error"] and "“x”" in obs["action_error"][0]
        assert obs["action_error"][1] == ""
        assert venv.observation_space["screenshot"].shape == (2, 600, 800, 3)
    finally:
        venv.close()


def test_async_vector_env_carries_a_non_ascii_instruction_through_shared_memory():
    task = TASKS[NON_ASCII]
    expected = task.instruction(task.draw(0))
    assert "›" in expected
    venv = gym.make_vec(f"hybridgym/{NON_ASCII}", num_envs=1, vectorization_mode="async")
    try:
        obs, _ = venv.reset(seed=0)
        assert obs["instruction"][0] == expected
        obs, *_ = venv.step([BAD])
        assert "“x”" in obs["action_error"][0]
    finally:
        venv.close()


def test_max_episode_steps_is_the_envs_budget_and_the_checker_runs_at_it():
    # todo-add's oracle does the work in 5 steps and says finished() in a 6th; with 5 steps the
    # episode is truncated at the 5th, and the checker runs there and finds the task done
    env = gym.make("hybridgym/browser.todo-add-v0", max_episode_steps=5)
    try:
        infos: list[dict] = []
        r = run_episode(env, OracleAgent(), 0, on_step=lambda n, obs, info: infos.append(info))
        assert env.unwrapped.max_steps == 5
        assert r["steps"] == 5 and infos[-1]["step"] == 5
        assert "check" in infos[-1] and infos[-1]["success"] is True and r["success"]
        assert all("check" not in i for i in infos[:-1])
    finally:
        env.close()
    both = gym.make(GAME, max_steps=10, max_episode_steps=5)
    try:
        with pytest.raises(ValueError, match="disagree"):
            both.reset(seed=0)
    finally:
        both.close()


def test_without_a_time_limit_the_tasks_budget_holds():
    env = gym.make(GAME)
    try:
        assert env.spec.max_episode_steps is None
        _, info = env.reset(seed=0)
        assert info["max_steps"] == TASKS["game.snake-v0"].max_steps == env.unwrapped.max_steps
    finally:
        env.close()


def test_arrays_are_writable_and_render_fps_is_the_games():
    env = gym.make(GAME, obs_mode="som")
    try:
        obs, _ = env.reset(seed=0)
        obs2, *_ = env.step("press(key='up')")
        for o in (obs, obs2):
            assert o["screenshot"].flags.writeable and o["som"].flags.writeable
        obs2["screenshot"][:] = 0                       # the caller's copy: the env's next picture is its own
        obs3, *_ = env.step("press(key='up')")
        assert obs3["screenshot"].any()
        step_ms = TASKS["game.snake-v0"].step_ms
        assert env.metadata["render_fps"] == pytest.approx(1000 / step_ms)
    finally:
        env.close()
    fast = gym.make(GAME, step_ms=20)
    try:
        assert fast.metadata["render_fps"] == pytest.approx(50)
    finally:
        fast.close()


def test_stable_baselines3_on_a_raw_env_says_what_to_use():
    sb3 = pytest.importorskip("stable_baselines3")
    env = gym.make(GAME)
    try:
        with pytest.raises(TypeError, match="make_classic"):
            sb3.PPO("MultiInputPolicy", env)
    finally:
        env.close()
