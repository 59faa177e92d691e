"""The suites as specs: for each suite, its gym id, env class, screen, sandbox and observer.

The engine knows a suite only through its spec; the suite's tasks are the catalogue's
tasks of that suite (`hybridgym.tasks.base.tasks_of`). `hybridgym.registration` registers
one gym id per suite and one per task from these specs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from hybridgym.assets import ASSETS

from .observers import CanvasClock, Observer, PageFrame, PhoneIdle, ScreenSettle
from .sandbox.browser import MARKER_HEIGHT

#: the MiniWoB screen's hidden rows, where the page draws its frame marker (`Sandbox(marker_rows=...)`, their top
#: `MARKER_HEIGHT` rows) and the browser, below it, its status bubble (a link's address, 37 rows at MiniWoB's scale of
#: 2: out of the screenshot)
MARKER_ROWS = MARKER_HEIGHT + 48


@dataclass(frozen=True)
class Suite:
    """One suite: what every env of it stands on.

    name: the suite's name (tasks' ids start with it: "browser.shop-checkout-v1").
    gym_id: the id of the env that draws a task of the suite at each reset.
    entry_point: the env class ("module:Class"), whose docstring is the suite's manual.
    screen: (width, height) of the display in pixels (the screenshot's size).
    platform: the action codec's platform ("computer": mouse and keys; "mobile": touch).
    sandbox: keyword arguments of `hybridgym.sandbox.Sandbox` besides the screen size.
    observer: makes the env's observer from the env's options (`max_wait_s`, ...).
    deterministic: whether the same seed and actions give the same pixels (games on a virtual clock).
    summary: one line for `hybridgym list`.
    """
    name: str
    gym_id: str
    entry_point: str
    screen: tuple[int, int]
    platform: str
    sandbox: dict[str, Any]
    observer: Callable[..., Observer]
    deterministic: bool = False
    summary: str = ""
    options: tuple[str, ...] = field(default=())   # env arguments handed to the observer
    #: the views `obs_mode` can add to the screenshot (`hybridgym.trees.MODES`)
    views: tuple[str, ...] = ("axtree", "dom", "som")
    #: frames per second of a video of an episode (one frame a step; a game's env makes it its step's game time)
    render_fps: float = 4


SUITE_SPECS: dict[str, Suite] = {s.name: s for s in (
    Suite("computer", "hybridgym/Computer-v0", "hybridgym.computer:ComputerEnv", (1280, 800), "computer",
          # a local web server too: tasks serve files for the desktop's browser from it
          {"desktop": True, "web_root": ASSETS / "desktop" / "web", "web_host": "intranet.test"}, ScreenSettle,
          summary="a Linux desktop with real apps", views=("axtree", "som")),
    Suite("browser", "hybridgym/Browser-v0", "hybridgym.browser:BrowserEnv", (1280, 800), "computer",
          {"browser": "window", "web_root": ASSETS / "web", "web_host": "webapps.test", "refresh_hz": 240}, ScreenSettle,
          summary="web apps served on 127.0.0.1 in a Chromium window"),
    Suite("miniwob", "hybridgym/MiniWoB-v0", "hybridgym.miniwob:MiniWoBEnv", (1280, 800), "computer",
          {"browser": "window", "web_root": ASSETS / "web", "web_host": "miniwob.test", "refresh_hz": 240,
           "marker_rows": MARKER_ROWS}, PageFrame,
          options=("fresh_page",),
          summary="MiniWoB++ pages of the installed miniwob package"),
    Suite("mobile", "hybridgym/Mobile-v0", "hybridgym.mobile:MobileEnv", (720, 1600), "mobile",
          # the phone's display at 240 Hz: Chromium paces its frames by it (see `XvfbDisplay`)
          {"browser": "app", "scale": 2.0, "touch": True, "web_root": ASSETS / "phone", "refresh_hz": 240},
          PhoneIdle, summary="a phone shell with ten apps, touch input"),
    Suite("game", "hybridgym/Game-v0", "hybridgym.game:GameEnv", (800, 600), "computer",
          {"browser": "app", "web_root": ASSETS / "games", "page_channel": True}, CanvasClock, deterministic=True,
          options=("step_ms", "input"),
          summary="HTML5 games on a virtual clock"),
)}
