"""The game suite env: HTML5 games on Playwright's virtual clock, full screen in Chromium."""

from __future__ import annotations

from .core import HybridEnv


class GameEnv(HybridEnv):
    """
    ## Description
    An HTML5 game (assets/games/<name>/) full screen in Chromium on an 800×600 Xvfb
    display. Game time is virtual: Playwright's clock is installed before the page
    loads and each step advances it by the task's `step_ms`; nothing runs between
    steps, so a run is deterministic for a seed and an action sequence, and faster
    than real time. Input is real X keyboard and mouse input; with `input="page"` the
    same actions become DOM events that the page dispatches itself in the step's round
    trip (the same pictures for the same actions, a faster step; docs/game-suite.md).

    ## Action Space
    As `ComputerEnv` (keys and clicks are what games use). `wait()` advances the game
    clock by its seconds instead of sleeping.

    ## Observation Space
    `Dict(screenshot=Box(0, 255, (600, 800, 3), uint8), instruction, sdk_output,
    action_error)`; `info["score"]` is the game's score.

    With `obs_mode` it also carries the text views of the game's page (the canvas and the page's own controls) that
    `BrowserEnv` describes: `axtree`, `dom`, `som` and `marks` (docs/observations.md).

    ## Rewards
    The change of the game's score at each step.

    ## Starting State
    A new game seeded from the reset seed, clock at 0.

    ## Episode End
    Terminated at game over or on `finished(...)`; truncated at the step budget.
    `info["success"]` says whether the task's target score was reached.

    ## Arguments
    `task`, `coords`, `max_steps`, `render_mode` (see `HybridEnv`); `step_ms`: game
    time per step, overriding the game's default (e.g. a larger step skips frames);
    `input`: "x" (the default) or "page". The observer is
    `hybridgym.observers.CanvasClock`.

    ## Version History
    * v0: first version.
    """

    suite = "game"

    def render_fps(self, task) -> float:
        """A step is `step_ms` of game time: a video of the episode plays at the game's own speed."""
        step_ms = self.observer.step_ms or (task.step_ms if task is not None else None)
        return 1000.0 / step_ms if step_ms else self.spec_of_suite().render_fps
