"""Wrappers for classic RL: a discrete action set per game and pixels-only observations."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from PIL import Image


class DiscreteActions(gym.ActionWrapper):
    """Discrete(n) over the task's action set (do nothing, each key, a click per grid cell).

    The task is the env's fixed task (make the env with a task id); the list is
    `env.unwrapped.episode.task.discrete_actions()`, fixed for the task.
    """

    def __init__(self, env: gym.Env):
        super().__init__(env)
        task = env.unwrapped.fixed_task
        if task is None or task.discrete_actions() is None:
            raise ValueError("DiscreteActions needs an env made for one game task, "
                             "e.g. gym.make('hybridgym/game.snake-v0')")
        self.actions = task.discrete_actions()
        self.action_space = spaces.Discrete(len(self.actions))

    def action(self, action) -> dict:
        a = int(action)
        if not 0 <= a < len(self.actions):
            raise ValueError(f"action {a} is outside Discrete({len(self.actions)})")
        return self.actions[a]


class PixelsOnly(gym.ObservationWrapper):
    """The screenshot alone, optionally resized (PIL, bilinear) and/or grayscale: uint8 (H, W, C)."""

    def __init__(self, env: gym.Env, size: tuple[int, int] | None = None, grayscale: bool = False):
        super().__init__(env)
        h, w, _ = env.observation_space["screenshot"].shape
        self.size = size or (h, w)
        self.grayscale = grayscale
        self.observation_space = spaces.Box(0, 255, (*self.size, 1 if grayscale else 3), np.uint8)

    def observation(self, obs: dict) -> np.ndarray:
        return small_frame(obs["screenshot"], self.size, self.grayscale)


def small_frame(frame: np.ndarray, size: tuple[int, int], grayscale: bool) -> np.ndarray:
    """`frame` resized to `size` (height, width; PIL bilinear), grayscale (H, W, 1) if asked: a new, writable array."""
    if not grayscale and tuple(frame.shape[:2]) == tuple(size):
        return frame
    img = Image.fromarray(frame)
    if grayscale:
        img = img.convert("L")
    if img.size != (size[1], size[0]):
        img = img.resize((size[1], size[0]), Image.BILINEAR)
    out = np.array(img, dtype=np.uint8)
    return out[:, :, None] if grayscale else out


def make_classic(env_id: str, size: tuple[int, int] = (84, 84), grayscale: bool = True, **kwargs) -> gym.Env:
    """`gym.make(env_id)` wrapped for a classic policy: Discrete actions, small pixel observations."""
    return PixelsOnly(DiscreteActions(gym.make(env_id, **kwargs)), size=size, grayscale=grayscale)
