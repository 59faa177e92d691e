"""The mobile suite env: a phone-sized touch screen running the phone shell web app, and the phone backend interface."""

from __future__ import annotations

import time
from typing import Protocol, runtime_checkable

import numpy as np

from hybridgym.assets import ASSETS

from .actions import model as A
from .actions.uitars import _scroll_swipe
from .core import HybridEnv
from .sandbox import Sandbox

#: how long a long press is held at least, in seconds of the page's clock
LONG_PRESS_S = 1.0
#: after a step's input, how long nothing may be drawn before the screen counts as settled
#: (replaying 30 tasks' oracles: 0-2 stale observations in 186 steps at 4 ms, 8 at 2 ms)
SETTLE_QUIET_S = 0.004
#: after a step whose input made the apps call their backend, drawing older than this when the
#: page's last frame is done is an earlier picture, not the reply's
REPLY_FRAME_AGE_S = 0.010


@runtime_checkable
class PhoneBackend(Protocol):
    """What a phone must do to run the mobile tasks' actions. Coordinates are screen pixels
    of the phone (the screenshot's pixels), origin top-left.

    `ChromiumPhone` implements it on the web phone shell; a real Android device could
    implement it with adb (`input tap x y`, `input swipe x1 y1 x2 y2 ms` — a long press is a
    swipe that does not move —, `input text`, `input keyevent KEYCODE_HOME/KEYCODE_BACK`,
    `exec-out screencap -p`, `monkey -p <package> 1`), and the same oracles would drive it.
    """

    size: tuple[int, int]

    def tap(self, x: int, y: int) -> None:
        """A short touch at (x, y)."""

    def long_press(self, x: int, y: int, duration: float = LONG_PRESS_S) -> None:
        """A touch held still at (x, y) for `duration` seconds of the device's clock."""

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration: float = 0.12) -> None:
        """A touch moved from (x1, y1) to (x2, y2) through intermediate points, then lifted
        (held at the end for a moment, so lists scroll by the finger's distance, no fling)."""

    def type_text(self, text: str) -> None:
        """Text typed into the focused field, as a hardware keyboard would."""

    def key(self, key: str) -> None:
        """A key event: "home", "back", "enter", "backspace" or a canonical key name."""

    def open_app(self, name: str) -> bool:
        """Bring the app (id or display name, any case) to the front, started fresh; False if none has that name."""

    def screenshot(self) -> np.ndarray:
        """The screen as RGB uint8 (H, W, 3)."""


class ChromiumPhone:
    """`PhoneBackend` on the phone shell in Chromium: touches are X pointer input that Chromium's
    touch emulation turns into touchstart/touchmove/touchend (pointerType "touch"), keys go
    through the X keyboard, home/back/open_app call the shell (`phone.home()` ...)."""

    def __init__(self, sb: Sandbox):
        self.sb = sb
        self.size = (sb.width, sb.height)

    def tap(self, x: int, y: int) -> None:
        self.sb.input.click(x, y)

    def long_press(self, x: int, y: int, duration: float = LONG_PRESS_S) -> None:
        inp, page = self.sb.input, self.sb.browser.page
        inp.move(x, y)
        inp.button("left", True)
        inp.sync()
        start = page.evaluate("Date.now()")
        time.sleep(duration)
        # the page's clock may run slower than the wall clock (a fake clock): hold until it has moved on
        for _ in range(50):
            if page.evaluate("Date.now()") - start >= duration * 1000:
                break
            time.sleep(0.02)
        inp.button("left", False)
        inp.sync()

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration: float = 0.12) -> None:
        inp, steps = self.sb.input, 10
        inp.move(x1, y1)
        inp.button("left", True)
        inp.sync()
        for i in range(1, steps + 1):
            inp.move(x1 + (x2 - x1) * i // steps, y1 + (y2 - y1) * i // steps)
            inp.sync()
            time.sleep(duration / steps)
        time.sleep(0.05)   # rest before lifting: no fling
        inp.button("left", False)
        inp.sync()

    def type_text(self, text: str) -> None:
        self.sb.input.type_text(text)

    def key(self, key: str) -> None:
        if key == "home":
            self.sb.browser.page.evaluate("phone.home()")
        elif key == "back":
            self.sb.browser.page.evaluate("phone.back()")
        else:
            self.sb.input.hotkey((key,))

    def open_app(self, name: str) -> bool:
        return bool(self.sb.browser.page.evaluate("name => phone.open(name)", name.strip()))

    def screenshot(self) -> np.ndarray:
        return self.sb.capture.grab()


class PhoneSandbox(Sandbox):
    """A Sandbox whose touch actions go through a `PhoneBackend` (a wheel scroll becomes a finger swipe)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.phone = ChromiumPhone(self)

    def execute(self, action: A.Action) -> None:
        ph = self.phone
        if isinstance(action, (A.Tap, A.Click)):
            self.check_point(action.x, action.y)
            ph.tap(action.x, action.y)
        elif isinstance(action, A.LongPress):
            self.check_point(action.x, action.y)
            ph.long_press(action.x, action.y, max(LONG_PRESS_S, action.duration))
        elif isinstance(action, (A.Swipe, A.Drag)):
            self.check_point(action.x1, action.y1)
            self.check_point(action.x2, action.y2)
            ph.swipe(action.x1, action.y1, action.x2, action.y2)
        elif isinstance(action, A.Scroll):
            at = (action.x, action.y) if action.x is not None and action.y is not None else None
            s = _scroll_swipe(action.direction, at, (self.width, self.height))
            ph.swipe(s.x1, s.y1, s.x2, s.y2)
        elif isinstance(action, A.TypeText):
            ph.type_text(action.text)
        else:
            super().execute(action)


_X_INPUT = (A.Tap, A.Click, A.DoubleClick, A.LongPress, A.Swipe, A.Drag, A.Scroll, A.TypeText, A.Hotkey,
            A.KeyDown, A.KeyUp, A.MouseDown, A.MouseUp)
# wait until the apps are idle, then until the next frame (the one that shows the DOM as it is
# now) has been painted and handed to the compositor; answers whether other requests or a page
# load are still in flight (`__hybridgymBusy`), and how many backend requests the apps made
# (-1: unknown)
_IDLE = ("(window.phone && phone.idle ? Promise.race([phone.idle(), new Promise(r => setTimeout(() => r(-1), 2000))]) : Promise.resolve(-1))"
         ".then(n => Promise.resolve(window.__hybridgymNextFrame && window.__hybridgymNextFrame()).then(() => n))"
         ".then(n => new Promise(r => setTimeout(() => r(n), 0)))"
         ".then(n => [Boolean(window.__hybridgymBusy && window.__hybridgymBusy()), typeof n === 'number' ? n : -1])")
# wait (at most n frames) until the page saw the n-th barrier key, then until the apps are idle
_BARRIER_THEN_IDLE = f"""([n, frames]) => Promise.resolve(window.__hybridgymInputSeen && window.__hybridgymInputSeen(n, frames))
  .then(() => {_IDLE})"""
class MobileEnv(HybridEnv):
    """
    ## Description
    A phone: a 720×1600 screen (360×800 CSS pixels at device scale 2, a common
    Android size) showing the phone shell (status bar, launcher with ten apps,
    notification shade, back stack, recents, on-screen keyboard) in Chromium with
    mobile emulation and a touch screen. Taps, long presses (held ≥ 1 s of the
    page's clock) and swipes (with intermediate moves, resting before the lift so
    lists do not fling) are real touch events: the env moves the X pointer and
    Chromium's touch emulation (CDP `Emulation.setEmitTouchEventsForMouse`)
    delivers touchstart/touchmove/touchend with pointerType "touch". Typing goes
    through the X keyboard. The phone's clock is Playwright's clock, set by the
    task (default `hybridgym.tasks.kit.phone.PHONE_NOW`) and running. App state lives in the env's backend
    records. Touch and keys go through a `PhoneBackend` (`ChromiumPhone`), the
    interface a real device could implement. Before each observation the env
    waits until the page has received the step's input and the apps' backend
    requests have returned, then for the screen to settle.

    ## Action Space
    UI-TARS mobile actions: click/tap, long_press, type, scroll/swipe (4 directions),
    drag, open_app(app_name=...), press_home(), press_back(), wait(), finished(...);
    also dicts and pyautogui code. A `click` is a tap, a `drag` a swipe, a wheel
    `scroll` a finger swipe that scrolls that way.

    ## Observation Space
    `Dict(screenshot=Box(0, 255, (1600, 720, 3), uint8), instruction, sdk_output,
    action_error)`: the phone screen only.

    ## Rewards
    1.0 when the checker (the backend's records before and after, or the answer)
    passes at the end of the episode, else 0.0.

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
    _page_busy: bool | None = None   # after a step's input: whether the page is still busy (None: not asked)
    _page_requests = -1   # after a step's input: the apps' backend requests since the input (-1: unknown)
    screen_size = (720, 1600)
    refresh_hz = 240   # the phone's display: Chromium paces its frames by it (see `XvfbDisplay`)
    platform = "mobile"

    def _make_sandbox(self) -> Sandbox:
        return PhoneSandbox(*self.screen_size, browser="app", scale=2.0, touch=True, web_root=ASSETS / "phone",
                            refresh_hz=self.refresh_hz)

    def step(self, action):
        # what is drawn from here on is the step's (the last observation may predate a frame
        # that was still on its way: drawing before the touch must not end the wait)
        if not self._done and self.sandbox is not None and self.sandbox.capture is not None:
            self.sandbox.capture.mark()
        return super().step(action)

    def _after_actions(self, actions: list[A.Action]) -> None:
        # Before looking: the page has received the step's input (an input barrier: Pause pressed
        # through X after it, see `ChromiumBrowser.flush_input`), and an app that answered it with
        # a backend request has rendered the reply (`phone.idle()`); one round trip to the page.
        b = self.sandbox.browser
        self._page_busy = None
        if b.page is None:
            return
        if any(isinstance(a, _X_INPUT) for a in actions):
            b._sentinels += 1   # the browser's barrier count, shared with its flush_input
            self.sandbox.input.hotkey(("pause",))
            self._page_busy, self._page_requests = b.page.evaluate(_BARRIER_THEN_IDLE, [b._sentinels, 30])
        elif any(isinstance(a, (A.PressBack, A.PressHome, A.OpenApp)) for a in actions):
            self._page_busy, self._page_requests = b.page.evaluate(_IDLE)

    def _observe(self, first: bool = False) -> None:
        if first:   # the shell is up (`boot_phone`) and has no animations: its first frame, then a short quiet
            self.sandbox.browser.page.evaluate(_IDLE)
            self._frame, self._raw, _ = self.sandbox.capture.settle(quiet=0.02, max_wait=1.5)
        elif self._page_busy is False:
            # The apps are idle and the frame with their DOM has been handed to the compositor
            # (no need to ask the page whether it is busy): it is drawn within a few ms, and
            # earlier frames may still be drawn before it. So: the first drawing since the
            # step's input, then nothing drawn for `SETTLE_QUIET_S` (X DAMAGE events).
            # When the apps called their backend, the screen drawn from the reply may follow the
            # tap's own picture by many frames (Save: the keyboard goes, the list comes with the
            # reply): a picture drawn well before the page's last frame is not the result.
            requests = self._page_requests != 0
            self._frame, self._raw, _ = self.sandbox.capture.settle(
                before=self._raw, quiet=SETTLE_QUIET_S, max_wait=0.5,
                older_than=REPLY_FRAME_AGE_S if requests else None, change_timeout=0.02 if requests else 0.05)
        else:
            super()._observe()

    def _page_answered(self) -> bool:
        return self._page_busy is not None   # the after-input round trip reached the page

    def _system_action(self, act: A.Action) -> None:
        ph = self.sandbox.phone
        if isinstance(act, A.PressHome):
            ph.key("home")
        elif isinstance(act, A.PressBack):
            ph.key("back")
        elif isinstance(act, A.OpenApp):
            if not ph.open_app(act.app_name):
                names = self.sandbox.browser.page.evaluate("[...document.querySelectorAll('#launcher .icon')].map(e => e.textContent.trim())")
                raise A.ActionError(f"open_app(): no app named {act.app_name!r} on this phone; it has {names}")
