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
    #: one round trip per step: the page's drawing count, score and game over together
    _POLL = ("({draws: window.__hybridgymDraws || 0, score: Number(hybridgym.score()), "
             "over: Boolean(hybridgym.gameOver())})")
    _polled: dict | None = None

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
        # the clock must not move before the page has the step's input
        if any(a.channel == "gui" for a in actions):
            self.sandbox.browser.flush_input(self.sandbox.input)
        self.sandbox.browser.advance_clock(self.step_ms or self.episode.task.step_ms)

    def _wait(self, seconds: float) -> None:
        ms = max(0.0, min(float(seconds), 60.0)) * 1000
        if ms > 0:
            self.sandbox.browser.advance_clock(ms)

    def _health(self) -> str | None:
        # the step's poll reached the page, so the browser is alive; the display may still have died
        if self._polled is not None and self.sandbox.display is not None and self.sandbox.display.is_alive():
            return None
        return super()._health()

    def _progress(self, task) -> tuple[float, bool]:
        if self._polled is None:
            return super()._progress(task)
        return self._polled["score"], self._polled["over"]

    def _observe(self, first: bool = False) -> None:
        """The page's timers are virtual: wait for the new picture by events, not time.

        Games draw on a canvas when their state changes. If the page drew nothing
        during the step, the screen is as it was: one grab. Otherwise wait for two
        real frames, then (Chromium may show the picture late under load) up to
        50 ms for the screen to differ from the last observation, then for quiet.
        """
        browser = self.sandbox.browser
        self._polled = None
        polled = browser.page.evaluate(self._POLL)
        draws = int(polled["draws"])
        if not first and draws == self._draws:
            self._frame, self._raw, _ = self.sandbox.capture.settle(quiet=0.0, max_wait=0.0)
        else:
            browser.wait_real_frame()
            self._frame, self._raw, _ = self.sandbox.capture.settle(
                before=None if first else self._raw, change_timeout=0.05, quiet=0.02, max_wait=1.0)
        self._draws = draws
        self._polled = None if first else polled
