"""Pong as PettingZoo envs (parallel and AEC, raw and classic): PettingZoo's API and seed tests, the seed reaching
the game, and players acting only by their own keys."""

from __future__ import annotations

import pytest
import numpy as np
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from hybridgym import multiagent
from hybridgym.tasks.players import pong as pong_player


@pytest.fixture(scope="module")
def par():
    env = multiagent.parallel_env(max_steps=40)
    yield env
    env.close()


def test_parallel_api(par):
    parallel_api_test(par, num_cycles=30)


def test_parallel_seed_test_passes():
    parallel_seed_test(lambda: multiagent.parallel_env(max_steps=20), num_cycles=15)


def test_aec_seed_test_passes():
    seed_test(lambda: multiagent.env(max_steps=20), num_cycles=15)


def test_the_reset_seed_reaches_the_game(par):
    a, _ = par.reset(seed=11)
    assert par._page().evaluate("hybridgym.seed") == 11
    b, _ = par.reset(seed=12)
    assert par._page().evaluate("hybridgym.seed") == 12
    c, _ = par.reset(seed=11)
    assert np.array_equal(a["left"]["screenshot"], c["left"]["screenshot"])
    assert not np.array_equal(a["left"]["screenshot"], b["left"]["screenshot"])   # the serve's height is seeded


def test_classic_pong_passes_the_api_tests_and_moves_by_discrete_actions():
    env = multiagent.classic_parallel_env(size=(64, 64), max_steps=30)
    try:
        parallel_api_test(env, num_cycles=20)
        obs, _ = env.reset(seed=2)
        assert obs["left"].shape == (64, 64, 1) and obs["left"].dtype == np.uint8
        assert env.action_space("left").n == 3
        for _ in range(6):
            obs, rewards, terms, truncs, infos = env.step({"left": 1, "right": 2})
        assert all(i["action_error"] is None for i in infos.values())
        with pytest.raises(ValueError, match="Discrete"):
            env.step({"left": 7, "right": 0})
    finally:
        env.close()
    aec = multiagent.classic_env(max_steps=20)
    try:
        api_test(aec, num_cycles=15)
    finally:
        aec.close()


def test_aec_api():
    env = multiagent.env(max_steps=40)
    try:
        api_test(env, num_cycles=30)
    finally:
        env.close()


def test_each_player_only_moves_its_own_paddle(par):
    par.reset(seed=3)
    page = par.sandbox.browser.page
    before = page.evaluate("hybridgym.state()")["paddles"]
    obs, rew, term, trunc, infos = par.step({"left": {"action_type": "hotkey", "keys": ["up"]},
                                             "right": {"action_type": "hotkey", "keys": ["down"]}})
    assert "may only press w/s" in infos["left"]["action_error"]
    assert infos["right"]["action_error"] is None
    after = page.evaluate("hybridgym.state()")["paddles"]
    assert after["left"]["y"] == before["left"]["y"]
    assert after["right"]["y"] > before["right"]["y"]
    assert obs["left"]["action_error"] and not obs["right"]["action_error"]


def test_scripted_players_score_and_rewards_are_zero_sum(par):
    par.reset(seed=1)
    page = par.sandbox.browser.page
    totals = {"left": 0.0, "right": 0.0}
    for _ in range(40):
        state = page.evaluate("hybridgym.state()")
        acts = {"left": pong_player.policy(state),
                "right": {"action_type": "wait", "seconds": 0}}   # the right player does nothing
        obs, rew, term, trunc, infos = par.step(acts)
        for a in rew:
            totals[a] += rew[a]
        assert sum(rew.values()) == 0
        if not par.agents:
            break
    assert totals["left"] >= 1, "the scripted left player should score against an idle right paddle"
