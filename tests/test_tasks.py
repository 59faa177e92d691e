"""Every task is solvable by its oracle through the env's own actions, and doing nothing does not pass."""

from __future__ import annotations

import pytest

from hybridgym.agents import NoopAgent, OracleAgent, run_episode
from hybridgym.tasks import TASKS

TASK_IDS = sorted(TASKS)
SEEDS = (0, 1)


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_oracle_solves_every_task(task_id, suite_env):
    env = suite_env(TASKS[task_id].suite)
    for seed in SEEDS:
        r = run_episode(env, OracleAgent(), seed, task=task_id)
        assert r["success"], f"{task_id} seed {seed}: {r['message']} {r['error']}"
        assert r["invalid_actions"] == 0 and r["error"] is None
        assert r["steps"] <= TASKS[task_id].max_steps


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_noop_agent_fails_every_task(task_id, suite_env):
    env = suite_env(TASKS[task_id].suite)
    r = run_episode(env, NoopAgent(), 0, task=task_id)
    assert not r["success"], f"{task_id}: doing nothing passed ({r['message']})"


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_untouched_state_does_not_pass(task_id, suite_env):
    env = suite_env(TASKS[task_id].suite).unwrapped
    env.reset(seed=3, options={"task": task_id})   # reset itself refuses a task that passes untouched
    ep = env.episode
    state = ep.task.read_state(env.sandbox, ep.params)
    assert not ep.task.check(state, ep.params, None, ep.baseline).success
    assert not ep.task.check(state, ep.params, "", ep.baseline).success


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_parameters_come_from_the_seed(task_id):
    import numpy as np
    task = TASKS[task_id]
    a = task.sample(np.random.default_rng(7))
    b = task.sample(np.random.default_rng(7))
    c = task.sample(np.random.default_rng(8))
    assert a == b
    assert a != c
    assert task.instruction(a)
