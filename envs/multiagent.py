"""Two-player games as PettingZoo envs: Pong, each player acting by GUI keys on its side of one screen.

Creators in the PettingZoo classic style: `parallel_env()` (ParallelEnv),
`raw_env()` and `env()` (AEC, via `parallel_to_aec`); `classic_parallel_env()` / `classic_env()`: the
same game for a classic policy (Discrete(3) actions, small pixel observations; `ClassicPong`).
"""

from __future__ import annotations

import functools
import time

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils import parallel_to_aec, wrappers

from hybridgym.assets import ASSETS

from .actions import ActionError, Codec
from .actions import model as A
from .core import Timings
from .sandbox import Sandbox
from .spaces import UnicodeText


class PongParallelEnv(ParallelEnv):
    """
    ## Description
    Pong (assets/games/pong) full screen in Chromium on an 800×600 display, on the
    virtual clock. Two players share the screen and the keyboard: "left" moves its
    paddle with W/S, "right" with the Up/Down arrows. Each step both players' actions
    are sent as real X key presses (left first), then the clock advances `step_ms`.

    ## Action Space
    Per player, `UnicodeText`: UI-TARS text, pyautogui code or a dict, as in the
    single-agent envs, limited to that player's keys (`hotkey`/`press`, `keydown`,
    `keyup`) and `wait`; anything else is reported in `infos[agent]["action_error"]`
    and ignored.

    ## Observation Space
    Per player, `Dict(screenshot=Box(0, 255, (600, 800, 3), uint8), instruction, action_error)`;
    both players see the whole screen.

    ## Rewards
    +1 to a player when it scores a point, -1 when the other does.

    ## Episode End
    Terminated when a player reaches the winning score; truncated at `max_steps`.

    ## Arguments
    `max_steps` (default 1500), `step_ms` (default: the game card's), `coords`, `render_mode`.

    ## Version History
    * v0: first version.
    """

    metadata = {"name": "hybridgym_pong_v0", "render_modes": ["rgb_array"], "is_parallelizable": True,
                "render_fps": 10}
    KEYS = {"left": ("w", "s"), "right": ("up", "down")}
    INSTRUCTIONS = {"left": "You play the LEFT paddle of Pong: W moves it up, S down. Score 5 points first.",
                    "right": "You play the RIGHT paddle of Pong: Up moves it up, Down down. Score 5 points first."}
    WIDTH, HEIGHT = 800, 600

    def __init__(self, max_steps: int = 1500, step_ms: int | None = None, coords: str | None = None,
                 render_mode: str | None = None):
        from hybridgym.tasks.base import TASKS
        self.step_ms = step_ms or TASKS["game.pong-v0"].step_ms
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = ["left", "right"]
        self.agents: list[str] = []
        self.codec = Codec(screen=(self.WIDTH, self.HEIGHT), coords=coords)
        self.sandbox: Sandbox | None = None
        self._frame: np.ndarray | None = None
        self._scores = [0, 0]
        self._steps = 0
        self._sent = 0

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Space:
        return spaces.Dict({"screenshot": spaces.Box(0, 255, (self.HEIGHT, self.WIDTH, 3), np.uint8),
                            "instruction": UnicodeText(4096), "action_error": UnicodeText(4096)})

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Space:
        return UnicodeText(65536)

    def _page(self):
        return self.sandbox.browser.page

    def reset(self, seed: int | None = None, options: dict | None = None):
        if self.sandbox is not None and self.sandbox.health() is not None:
            self.close()
        if self.sandbox is None:
            self.sandbox = Sandbox(self.WIDTH, self.HEIGHT, browser="app", web_root=ASSETS / "games", page_channel=True).start()
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (2**31))
        sb = self.sandbox
        sb.input.move(self.WIDTH - 1, self.HEIGHT - 1)
        sb.browser.load(sb.server.url("/pong/index.html", seed=seed), clock_time=0)
        self._page().wait_for_function("window.hybridgym && window.hybridgym.ready === true", timeout=10000)
        self.agents = list(self.possible_agents)
        self._steps = 0
        self._scores, _ = self._observe()
        obs = {a: self._obs(a, "") for a in self.agents}
        return obs, {a: {"seed": seed} for a in self.agents}

    def _execute(self, agent: str, action) -> str:
        """Send one player's keys; returns the action error ('' if none)."""
        try:
            acts = self.codec.parse(action)
        except ActionError as e:
            return str(e)
        allowed = self.KEYS[agent]
        for act in acts:
            keys = (act.keys if isinstance(act, A.Hotkey) else
                    (act.key,) if isinstance(act, (A.KeyDown, A.KeyUp)) else None)
            if isinstance(act, A.Wait):
                continue
            if keys is None or any(k not in allowed for k in keys):
                return (f"{agent} may only press {'/'.join(allowed)} or wait; "
                        f"got {act.action_type}{'(' + ','.join(keys) + ')' if keys else '()'}")
        for act in acts:
            if not isinstance(act, A.Wait):
                self.sandbox.execute(act)
                self._sent += 1
        return ""

    def step(self, actions: dict):
        t0 = time.perf_counter()
        sent = self._sent
        errors = {a: self._execute(a, actions.get(a, {"action_type": "wait", "seconds": 0}))
                  for a in self.agents}
        if self._sent > sent:   # the clock must not move before the page has the players' keys
            self.sandbox.browser.flush_input(self.sandbox.input)
        scores, over = self._observe(advance_ms=self.step_ms)
        self._steps += 1
        d_left, d_right = scores[0] - self._scores[0], scores[1] - self._scores[1]
        self._scores = scores
        rewards = {"left": float(d_left - d_right), "right": float(d_right - d_left)}
        trunc = self._steps >= self.max_steps and not over
        obs = {a: self._obs(a, errors[a]) for a in self.agents}
        infos = {a: {"action_error": errors[a] or None, "scores": scores, "step": self._steps,
                     "timings": Timings(step_s=time.perf_counter() - t0)} for a in self.agents}
        terminations = {a: over for a in self.agents}
        truncations = {a: trunc for a in self.agents}
        rewards = {a: rewards[a] for a in self.agents}
        if over or trunc:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def _observe(self, advance_ms: int = 0) -> tuple[list, bool]:
        """Advance the clock, then read the picture, the scores and game over, in one round trip.

        The picture is the canvas, read as GameEnv reads it; the screen only if the canvas
        is not the whole picture."""
        frame, _, (scores, over) = self.sandbox.browser.canvas_frame(
            -1, "[hybridgym.scores(), Boolean(hybridgym.gameOver())]", advance_ms=advance_ms)
        if frame is None:
            self.sandbox.browser.wait_real_frame()
            frame, _, _ = self.sandbox.capture.settle(quiet=0.02, max_wait=0.5)
        self._frame = frame
        return list(scores), bool(over)

    def _obs(self, agent: str, error: str) -> dict:
        return {"screenshot": self._frame, "instruction": self.INSTRUCTIONS[agent], "action_error": error[:4096]}

    def render(self):
        return self._frame if self.render_mode == "rgb_array" else None

    def close(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None


class ClassicPong(ParallelEnv):
    """Pong for a classic policy: per player `Discrete(3)` (0 stay, 1 up, 2 down: its own two keys) and
    the screen as a small uint8 picture (`Box(0, 255, (*size, 1 or 3))`, PIL bilinear, grayscale by
    default), as `hybridgym.wrappers.make_classic` gives a single-player game. Rewards, ends, infos
    and seeding are `PongParallelEnv`'s (the keyword arguments go to it)."""

    def __init__(self, size: tuple[int, int] = (84, 84), grayscale: bool = True, **kwargs):
        self.env = PongParallelEnv(**kwargs)
        self.size, self.grayscale = (int(size[0]), int(size[1])), bool(grayscale)
        self.metadata = {**self.env.metadata, "name": "hybridgym_pong_classic_v0"}
        self.possible_agents = list(self.env.possible_agents)
        self.render_mode = self.env.render_mode

    @property
    def agents(self) -> list[str]:
        return self.env.agents

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Space:
        return spaces.Box(0, 255, (*self.size, 1 if self.grayscale else 3), np.uint8)

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Space:
        return spaces.Discrete(3)

    def _pixels(self, frame: np.ndarray) -> np.ndarray:
        from .wrappers import small_frame
        return small_frame(frame, self.size, self.grayscale)

    def _action(self, agent: str, a) -> dict:
        a = int(a)
        if not 0 <= a < 3:
            raise ValueError(f"{agent}: action {a} is outside Discrete(3) (0 stay, 1 up, 2 down)")
        if a == 0:
            return {"action_type": "wait", "seconds": 0}
        return {"action_type": "press", "key": PongParallelEnv.KEYS[agent][a - 1]}

    def reset(self, seed: int | None = None, options: dict | None = None):
        obs, infos = self.env.reset(seed=seed, options=options)
        return {a: self._pixels(o["screenshot"]) for a, o in obs.items()}, infos

    def step(self, actions: dict):
        obs, rewards, terms, truncs, infos = self.env.step({a: self._action(a, x) for a, x in actions.items()})
        return {a: self._pixels(o["screenshot"]) for a, o in obs.items()}, rewards, terms, truncs, infos

    def render(self):
        return self.env.render()

    def close(self) -> None:
        self.env.close()


def classic_parallel_env(**kwargs) -> ClassicPong:
    return ClassicPong(**kwargs)


def classic_env(**kwargs):
    return wrappers.OrderEnforcingWrapper(parallel_to_aec(classic_parallel_env(**kwargs)))


def parallel_env(**kwargs) -> PongParallelEnv:
    return PongParallelEnv(**kwargs)


def raw_env(**kwargs):
    return parallel_to_aec(parallel_env(**kwargs))


def env(**kwargs):
    e = raw_env(**kwargs)
    return wrappers.OrderEnforcingWrapper(e)
