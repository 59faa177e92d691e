"""The MiniWoB++ suite env: the installed `miniwob` package's task pages in the browser suite's Chromium window."""

from __future__ import annotations

from .core import HybridEnv

#: screen pixels per CSS pixel of the page (Chromium's device scale factor): MiniWoB's 160×210 task box
#: is drawn 320×420 on the 1280×800 screen, its text about 20 px high (at 1.0 it is 10 px, in a corner)
DEFAULT_ZOOM = 2.0


class MiniWoBEnv(HybridEnv):
    """
    ## Description
    A MiniWoB++ task (from the installed `miniwob` package) in the browser suite's
    Chromium window (1280×800, tab strip and address bar included). The package's html
    folder is served by the env's own 127.0.0.1 server at `/miniwob/`; the browser
    reaches only that server, by a stable name: `http://miniwob.test/miniwob/...` (the same
    address bar in every process). The task area is MiniWoB's 160×210 box at the top left
    of the page, next to MiniWoB's reward display, zoomed 2× (`zoom`: Chromium's device scale
    factor), so it is 320×420 screen pixels with text about 20 px high; the agent sees and
    acts on the whole screen through X like a person. Ids: `hybridgym/miniwob.<name>-v0` (one per task;
    FlightWoB pages as `miniwob.flight.<site>-v0`), and `hybridgym/MiniWoB-v0`, which
    draws a task at each reset (or `options={"task": id}`).

    **Time.** MiniWoB ends an episode after `core.EPISODE_MAX_TIME` (7-60 s, mostly 10 s)
    of wall time with reward -1, and scales its reward down by the time taken. Here the
    page runs on the real clock, so its animations, transitions and delays behave as
    designed, but the episode time-out is disarmed at every episode start (the timer is
    cleared and the countdown stopped by a wrapper around `core.startEpisodeReal`), and
    the reward is MiniWoB's raw reward, which does not depend on time. An agent that
    thinks for minutes between steps is judged as one that acts at once. (A paused
    virtual clock, as in the game suite, was not chosen: CSS transitions run on real
    time anyway, and every step would need a clock advance long enough for jQuery UI
    widgets and delayed buttons.) The few pages whose task is itself real-time
    (`REAL_TIME`: chase-circle, moving-items, button-delay, simon-says) still end or
    score by their own timers.

    ## Action Space
    As `BrowserEnv`: UI-TARS text, pyautogui code, dicts or typed actions, in screen pixels
    of the whole display.

    ## Observation Space
    `Dict(screenshot=Box(0, 255, (800, 1280, 3), uint8), instruction, sdk_output,
    action_error)`; `instruction` is MiniWoB's utterance (`core.getUtterance()`; for
    FlightWoB a JSON object of the fields to book).

    With `obs_mode` it also carries the text views of the task page that
    `BrowserEnv` describes: `axtree`, `dom`, `som` and `marks` (docs/observations.md).

    ## Rewards
    When the page ends the episode (core.endEpisode): MiniWoB's raw reward (the value its task code
    handed to `core.endEpisode`, through a channel the page cannot rewrite), in [-1, 1] (1 for a solved task; some tasks give partial
    credit); `info["success"]` is raw reward > 0. 0 on other steps and at truncation.

    ## Starting State
    The page's episode restarted with `Math.seedrandom(<seed drawn from the reset seed>)`
    and data mode "train" (reset seeds < 1000) or "test" (the others), as MiniWoB's own env
    restarts it. The page is reloaded when the task changes, when the last episode left
    it (navigation, extra tabs), or at every reset with `fresh_page=True`; otherwise the
    episode is restarted in the loaded page. Keyboard focus is given back to the page.

    ## Episode End
    Terminated when the page ends the episode, or on `finished(...)`/`call_user()`;
    truncated at the task's step budget (15, or 30 for long tasks) or when the browser
    or display fails.

    ## Arguments
    `task` (a MiniWoB task id or name, or None to draw one per reset), `fresh_page`
    (reload the page at every reset: slower, but nothing of the last episode survives
    in the page), `zoom` (screen pixels per CSS pixel, 1.0-3.0, default 2.0; 1.0 is MiniWoB's
    own size, as the `miniwob` package shows it), `coords`, `max_steps`, `render_mode` (see `HybridEnv`). The tasks are
    `hybridgym.tasks.miniwob`; the observer is `hybridgym.observers.PageFrame`.

    ## Version History
    * v0: first version (miniwob==1.1.0 pages).
    """

    suite = "miniwob"

    def __init__(self, task=None, *, zoom: float = DEFAULT_ZOOM, **kwargs):
        zoom = float(zoom)
        if not 1.0 <= zoom <= 3.0:
            raise ValueError(f"zoom must be 1.0..3.0 (the page's CSS pixels per screen pixel), got {zoom}")
        self.zoom = zoom
        super().__init__(task, **kwargs)

    def sandbox_options(self) -> dict:
        return {**super().sandbox_options(), "scale": self.zoom}
