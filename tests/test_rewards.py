"""Pluggable rewards (`gym.make(id, reward=..., process_reward=...)`): the built-ins, a user's own, the checker
always reported as the ground truth, and clear errors for a reward that cannot be made."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import hybridgym  # noqa: F401
from hybridgym.agents import make_agent, run_episode
from hybridgym.reward import CheckResult
from hybridgym.rewards import (REWARDS, EpisodeOutcome, RewardResult, StepRecord, binary, make_reward,
                               register_reward, step_cost, value_of)

BROWSER = "hybridgym/browser.todo-add-v0"
GAME = "hybridgym/game.snake-v0"


def outcome(success: bool, steps: int = 4) -> EpisodeOutcome:
    return EpisodeOutcome("t", "browser", 0, "do it", check=CheckResult(success, float(success), "m"),
                          steps=[StepRecord(i + 1, []) for i in range(steps)])


def test_built_in_rewards_on_an_outcome():
    assert binary(outcome(True)) == 1.0 and binary(outcome(False)) == 0.0
    assert step_cost(outcome(True, 10), cost=0.02) == pytest.approx(0.8)
    assert step_cost(outcome(False, 10), cost=0.02, floor=0.0) == 0.0
    assert value_of(RewardResult(0.5, {"x": 1})) == (0.5, {"x": 1})
    with pytest.raises(ValueError, match="finite"):
        value_of(float("nan"))
    with pytest.raises(TypeError, match="number or a RewardResult"):
        value_of("1")


def test_make_reward_accepts_names_dicts_and_callables_and_says_what_it_accepts():
    assert make_reward(None) is None and make_reward("checker") is None
    assert make_reward("binary")(outcome(True)) == 1.0
    assert make_reward({"name": "step_cost", "cost": 0.5})(outcome(True, 1)) == 0.5
    fn = lambda o: 3.0            # noqa: E731
    assert make_reward(fn) is fn
    with pytest.raises(ValueError, match="unknown reward 'nope'; registered: "):
        make_reward("nope")
    with pytest.raises(ValueError, match="has no option 'costs'; its options: \\['cost', 'base', 'floor'\\]"):
        make_reward({"name": "step_cost", "costs": 1})
    with pytest.raises(ValueError, match="needs its 'name'"):
        make_reward({"cost": 1})
    with pytest.raises(TypeError, match="reward must be a name"):
        make_reward(3)
    assert {"binary", "partial", "step_cost", "judge"} <= set(REWARDS)


def test_a_registered_reward_of_ones_own_with_options():
    name = "test-fast-success"
    if name not in REWARDS:
        @register_reward(name)
        def fast(o, budget=10):
            return 0.0 if not o.success else (1.0 if len(o.steps) <= budget else RewardResult(0.5, {"slow": True}))
    with pytest.raises(ValueError, match="registered twice"):
        register_reward(name)(lambda o: 0.0)
    r = make_reward({"name": name, "budget": 3})
    assert r(outcome(True, 2)) == 1.0 and r(outcome(True, 5)).info == {"slow": True}


def test_a_plugged_reward_is_the_last_steps_reward_and_the_checker_stays_the_truth():
    seen = []

    def liar(o):                      # says every episode is a success
        seen.append(o)
        return RewardResult(1.0, {"said": "success"})

    env = gym.make(BROWSER, reward=liar)
    try:
        summary = run_episode(env, make_agent("noop"), 0)
        obs, info = env.reset(seed=0)
        rewards = []
        for a in [{"action_type": "wait", "seconds": 0}] * 3 + [{"action_type": "finished", "content": ""}]:
            obs, r, term, trunc, info = env.step(a)
            rewards.append(r)
    finally:
        env.close()
    assert summary["reward"] == 1.0 and summary["success"] is False        # the lie pays; the truth is kept
    assert rewards == [0.0, 0.0, 0.0, 1.0]
    assert info["success"] is False and info["check"]["success"] is False and info["check"]["message"]
    assert info["reward_info"] == {"said": "success"} and info["task_reward"] == 0.0
    last = seen[-1]
    assert last.task_id == "browser.todo-add-v0" and len(last.steps) == 4 and last.finished
    assert last.state is not None and last.check.success is False
    assert last.frames and last.frames[-1].shape == (800, 1280, 3)
    assert [s.actions[0]["action_type"] for s in last.steps] == ["wait", "wait", "wait", "finished"]


def test_binary_and_step_cost_through_the_env_and_a_process_reward_each_step():
    calls = []

    def process(record, so_far):
        calls.append((record.step, so_far.check is None))
        return -0.01

    env = gym.make(BROWSER, reward={"name": "step_cost", "cost": 0.05}, process_reward=process)
    try:
        summary = run_episode(env, make_agent("oracle"), 0)
    finally:
        env.close()
    n = summary["steps"]
    assert summary["success"] and summary["reward"] == pytest.approx(1.0 - 0.05 * n - 0.01 * n)
    assert [c[0] for c in calls] == list(range(1, n + 1))
    assert all(c[1] for c in calls[:-1]) and not calls[-1][1]              # the check exists at the last step


def test_a_game_with_a_plugged_reward_earns_nothing_before_the_end():
    env = gym.make(GAME, reward="binary", max_steps=5)
    try:
        obs, info = env.reset(seed=0)
        out = [env.step({"action_type": "hotkey", "keys": ["up"]}) for _ in range(5)]
    finally:
        env.close()
    assert [o[1] for o in out] == [0.0] * 5
    assert all("task_reward" in o[4] for o in out) and out[-1][3]          # truncated at the budget
    assert out[-1][4]["check"]["success"] is False


def test_the_vector_envs_take_the_same_reward_argument():
    venv = gym.make_vec(GAME, num_envs=2, vectorization_mode="sync", max_steps=2, reward=lambda o: 5.0)
    try:
        venv.reset(seed=0)
        venv.step([{"action_type": "wait", "seconds": 0}] * 2)
        _, rewards, _, trunc, _ = venv.step([{"action_type": "wait", "seconds": 0}] * 2)
    finally:
        venv.close()
    assert trunc.all() and np.allclose(rewards, 5.0)


def test_a_bad_reward_argument_is_an_error_at_make():
    with pytest.raises(ValueError, match="unknown reward"):
        gym.make(BROWSER, reward="best")
    with pytest.raises(TypeError, match="process_reward must be a callable"):
        gym.make(BROWSER, process_reward="dense")


def test_a_trajectory_records_the_check_and_hides_a_rewards_key(tmp_path):
    from hybridgym.trajectory import RecordTrajectory, Trajectory
    if "test-keyed" not in REWARDS:
        register_reward("test-keyed")(lambda o, api_key=None: 0.0)
    env = RecordTrajectory(gym.make(BROWSER, reward={"name": "test-keyed", "api_key": "sk-secret"}, max_steps=2),
                           tmp_path, agent="noop")
    try:
        run_episode(env, make_agent("noop"), 0)
    finally:
        env.close()
    traj = Trajectory(env.last_episode)
    assert traj.result["check"]["success"] is False and "message" in traj.result["check"]
    assert traj.header["env_kwargs"]["reward"] == {"name": "test-keyed", "api_key": "<redacted>"}
    assert "sk-secret" not in (env.last_episode / "episode.json").read_text()
