"""The game suite env: HTML5 games on Playwright's virtual clock, full screen in Chromium."""

from __future__ import annotations

from hybridgym.assets import ASSETS

from .core import HybridEnv
from .sandbox import Sandbox


class GameEnv(HybridEnv):
    """
    ## Description
    An HTML5 game (assets/games/<name>/) full screen in Chromium on an 800×600 Xvfb
    display. Game time is virtual: Playwright's clock is installed before the page
    loads and each step advances it by the task's `step_ms`; nothing runs between
    steps, so a run is deterministic for a seed and an action sequence, and faster
    than real time. Input is real X keyboard and mouse input.

    ## Action Space
    As `ComputerEnv` (keys and clicks are what games use). `wait()` advances the game
    clock by its seconds instead of sleeping.

    ## Observation Space
    `Dict(screenshot=Box(0, 255, (600, 800, 3), uint8), instruction, sdk_output,
    action_error)`; `info["score"]` is the game's score.

    ## Rewards
    The change of the game's score at each step.

    ## Starting State
    A new game seeded from the reset seed, clock at 0.

    ## Episode End
    Terminated at game over or on `finished(...)`; truncated at the step budget.
    `info["success"]` says whether the task's target score was reached.

    ## Arguments
    `task`, `coords`, `max_steps`, `render_mode` (see `HybridEnv`); `step_ms`: game
    time per step, overriding the game's default (e.g. a larger step skips frames).

    ## Version History
    * v0: first version.
    """

    suite = "game"
    screen_size = (800, 600)
    platform = "computer"

    _draws = -1
    #: read with the picture, in the same round trip: the game's score and game over
    _POLL = "{score: Number(hybridgym.score()), over: Boolean(hybridgym.gameOver())}"
    _polled: dict | None = None
    _advance_ms = 0

    def _make_sandbox(self) -> Sandbox:
        return Sandbox(*self.screen_size, browser="app", web_root=ASSETS / "games")

    def __init__(self, task=None, *, step_ms: int | None = None, **kwargs):
        if step_ms is not None and not 1 <= int(step_ms) <= 600_000:
            raise ValueError(f"step_ms must be 1..600000 ms of game time, got {step_ms}")
        self.step_ms = None if step_ms is None else int(step_ms)
        super().__init__(task, **kwargs)

    def step(self, action):
        self._polled = None   # filled by this step's observation, if it gets that far
        return super().step(action)

    def _after_actions(self, actions) -> None:
        # the clock must not move before the page has the step's input; it moves in the
        # observation's round trip (`_observe`)
        if any(a.channel == "gui" for a in actions):
            self.sandbox.browser.flush_input(self.sandbox.input)
        self._advance_ms = self.step_ms or self.episode.task.step_ms

    def _wait(self, seconds: float) -> None:
        ms = max(0.0, min(float(seconds), 60.0)) * 1000
        if ms > 0:   # keys sent before the wait must act before the game time it skips
            self.sandbox.browser.flush_input(self.sandbox.input)
            self.sandbox.browser.advance_clock(ms)

    def _page_answered(self) -> bool:
        return self._polled is not None   # the step's poll reached the page

    def _progress(self, task) -> tuple[float, bool]:
        if self._polled is None:
            return super()._progress(task)
        return self._polled["score"], self._polled["over"]

    def _observe(self, first: bool = False) -> None:
        """The page's timers are virtual: the picture is read, not waited for.

        One round trip advances the clock by the step's game time, lets the game draw once
        (`hgKit.paint`) and reads its canvas with the score and game over: it is the
        picture Chromium then shows on the screen, without waiting for Chromium's frames.
        A page that drew nothing keeps the last picture. A page whose canvas is not the
        whole screen is read from the screen: two real frames, then (Chromium may show the
        picture late under load) up to 50 ms for the screen to differ, then for quiet.
        """
        browser = self.sandbox.browser
        self._polled = None
        advance, self._advance_ms = self._advance_ms, 0
        frame, draws, polled = browser.canvas_frame(-1 if first else self._draws, self._POLL, advance_ms=advance)
        if frame is not None:
            self._frame, self._raw = frame, None
        elif not first and draws == self._draws:
            self._frame = self._frame.copy()   # the same picture, in a new array (the caller keeps the last)
        else:
            browser.wait_real_frame()
            self._frame, self._raw, _ = self.sandbox.capture.settle(
                before=None if first else self._raw, change_timeout=0.05, quiet=0.02, max_wait=1.0)
        self._draws = draws
        self._polled = None if first else polled
