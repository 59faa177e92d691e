"""Pong as PettingZoo envs (parallel and AEC): the API tests, and players acting only by their own keys."""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test, parallel_api_test

from hybridgym import multiagent
from hybridgym.tasks.players import pong as pong_player


@pytest.fixture(scope="module")
def par():
    env = multiagent.parallel_env(max_steps=40)
    yield env
    env.close()


def test_parallel_api(par):
    parallel_api_test(par, num_cycles=30)


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
