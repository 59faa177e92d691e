"""The mobile suite env: a phone-sized touch screen running the phone shell web app."""

from __future__ import annotations

from hybridgym.assets import ASSETS

from .actions import model as A
from .core import HybridEnv
from .sandbox import Sandbox


class MobileEnv(HybridEnv):
    """
    ## Description
    A phone: a 720×1600 screen (360×800 CSS pixels at device scale 2, a common
    Android size) showing the phone shell (status bar, apps, back/home navigation)
    in Chromium with mobile emulation and a touch screen. Taps, long presses
    (held 1 s) and swipes (with intermediate moves) are real touch events: the env
    moves the X pointer and Chromium's touch emulation (CDP
    `Emulation.setEmitTouchEventsForMouse`) delivers touchstart/touchmove/touchend
    with pointerType "touch". Typing goes through the X keyboard. App state lives
    in the env's backend records.

    ## Action Space
    UI-TARS mobile actions: click/tap, long_press, type, scroll/swipe (4 directions),
    drag, open_app(app_name=...), press_home(), press_back(), wait(), finished(...);
    also dicts and pyautogui code. A `click` is delivered as a tap.

    ## Observation Space
    `Dict(screenshot=Box(0, 255, (1600, 720, 3), uint8), instruction, sdk_output,
    action_error)`: the phone screen only.

    ## Rewards
    1.0 when the checker (the backend's records before and after) passes at the end
    of the episode, else 0.0.

    ## Starting State
    The home screen, app records seeded by the task from the reset seed.

    ## Episode End
    Terminated on `finished(...)`/`call_user()`; truncated at the step budget or when
    the browser or display fails.

    ## Arguments
    `task`, `coords`, `max_steps`, `render_mode` (see `HybridEnv`).

    ## Version History
    * v0: first version.
    """

    suite = "mobile"
    screen_size = (720, 1600)
    platform = "mobile"

    def _make_sandbox(self) -> Sandbox:
        return Sandbox(*self.screen_size, browser="app", scale=2.0, touch=True, web_root=ASSETS / "phone")

    def _system_action(self, act: A.Action) -> None:
        page = self.sandbox.browser.page
        if isinstance(act, A.PressHome):
            page.evaluate("phone.home()")
        elif isinstance(act, A.PressBack):
            page.evaluate("phone.back()")
        elif isinstance(act, A.OpenApp):
            if not page.evaluate("name => phone.open(name)", act.app_name.strip().lower()):
                raise A.ActionError(f"open_app(): no app named {act.app_name!r} on this phone")
