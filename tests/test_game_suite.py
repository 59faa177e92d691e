"""The game suite beyond single games: determinism through the env, classic-RL wrappers, SB3 PPO, normalized scores."""

from __future__ import annotations

import hashlib

import gymnasium as gym
import numpy as np
import pytest

import hybridgym
from hybridgym.tasks.game import GAME_TASKS, normalized_score
from hybridgym.wrappers import DiscreteActions, make_classic


def _run(env, seed: int, actions: list[dict]) -> tuple[list[str], float]:
    obs, _ = env.reset(seed=seed)
    hashes = [hashlib.sha1(obs["screenshot"].tobytes()).hexdigest()]
    total = 0.0
    for a in actions:
        obs, r, term, trunc, info = env.step(a)
        total += r
        hashes.append(hashlib.sha1(obs["screenshot"].tobytes()).hexdigest())
        if term or trunc:
            break
    return hashes, total


def test_same_seed_and_actions_give_identical_screenshots(suite_env):
    env = gym.make("hybridgym/game.snake-v0")
    keys = ["up", "right", "right", "down", "down", "left", "up", "up", "right", "right"] * 2
    actions = [{"action_type": "hotkey", "keys": [k]} for k in keys]
    try:
        a = _run(env, 11, actions)
        b = _run(env, 11, actions)
        c = _run(env, 12, actions)
    finally:
        env.close()
    assert a == b
    assert a[0] != c[0]


@pytest.mark.parametrize("game", sorted(GAME_TASKS))
def test_the_observation_read_from_the_canvas_is_what_the_screen_shows(suite_env, game):
    """The games' observation is their canvas, read without waiting for Chromium to draw the screen:
    once Chromium has drawn, the screen (read through X) must be the same picture, pixel for pixel."""
    env = suite_env("game")
    obs, _ = env.reset(seed=5, options={"task": f"game.{game}-v0"})
    sb = env.unwrapped.sandbox
    actions = [{"action_type": "hotkey", "keys": ["right"]}, {"action_type": "click", "x": 400, "y": 330},
               {"action_type": "wait", "seconds": 0}, {"action_type": "hotkey", "keys": ["space"]},
               {"action_type": "click", "x": 250, "y": 420}]
    from_canvas = 0
    for action in [None] + actions:
        if action is not None:
            obs, _, term, trunc, _ = env.step(action)
        from_canvas += env.unwrapped.observer.raw is None
        sb.browser.wait_real_frame()
        screen, _, _ = sb.capture.settle(quiet=0.1, max_wait=2.0)
        assert np.array_equal(screen, obs["screenshot"]), f"{game}: the observation is not the screen"
        if action is not None and (term or trunc):
            break
    assert from_canvas >= 1


def test_discrete_actions_and_pixels_wrappers():
    env = make_classic("hybridgym/game.snake-v0", size=(84, 84), grayscale=True)
    try:
        assert isinstance(env.action_space, gym.spaces.Discrete) and env.action_space.n == 5  # noop + 4 keys
        obs, info = env.reset(seed=0)
        assert obs.shape == (84, 84, 1) and obs.dtype == np.uint8 and env.observation_space.contains(obs)
        obs, r, term, trunc, info = env.step(1)
        assert info["actions"][0] == {"action_type": "hotkey", "keys": ("up",)}
        with pytest.raises(ValueError):
            env.step(99)
    finally:
        env.close()
    with pytest.raises(ValueError, match="one game task"):
        DiscreteActions(gym.make("hybridgym/Game-v0"))


def test_grid_games_get_click_actions():
    for name, cls in GAME_TASKS.items():
        task = cls()
        acts = task.discrete_actions()
        assert acts[0]["action_type"] == "wait"
        grid = task.card["grid"]
        if grid:
            clicks = [a for a in acts if a["action_type"] == "click"]
            assert len(clicks) == grid["rows"] * grid["cols"]
            assert all(0 <= a["x"] < 800 and 0 <= a["y"] < 600 for a in clicks)
        else:
            assert len(acts) == 1 + len(task.card["keys"])


@pytest.mark.timeout(1200)
def test_stable_baselines3_ppo_learns_on_a_game():
    sb3 = pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env as sb3_check_env
    env = make_classic("hybridgym/game.snake-v0", size=(64, 64), grayscale=True)
    try:
        sb3_check_env(env, warn=False)
        # two rollouts and two updates: the env under SB3's own loop, not a training run (2,048 steps took 3 min of CI)
        model = sb3.PPO("CnnPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0, verbose=0,
                        policy_kwargs={"normalize_images": True})
        model.learn(total_timesteps=256)
        assert model.num_timesteps >= 256
        action, _ = model.predict(env.reset(seed=1)[0])
        assert env.action_space.contains(int(action))
    finally:
        env.close()


def test_normalized_score_maps_random_to_0_and_scripted_to_100(monkeypatch):
    import hybridgym.tasks.game as game
    monkeypatch.setattr(game, "load_baselines", lambda: {"snake": {"random": 2.0, "scripted": 22.0}})
    assert normalized_score("snake", 2.0) == 0.0
    assert normalized_score("snake", 22.0) == 100.0
    assert normalized_score("snake", 12.0) == 50.0
    assert normalized_score("nope", 1.0) is None


def test_every_game_has_normalized_score_baselines_over_ten_held_out_seeds():
    from hybridgym.tasks.game import load_baselines
    base = load_baselines()
    assert set(base) == set(GAME_TASKS)
    for game, b in base.items():
        assert b["seeds"] >= 10 and b["first_seed"] >= 1000, game     # test seeds: not a bench run's own 0, 1, ...
        assert b["scripted"] > b["random"], game
        assert b["random_std"] >= 0 and b["scripted_std"] >= 0
