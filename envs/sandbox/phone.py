"""The phone's touch screen: the `PhoneBackend` interface the mobile tasks' actions need, its
implementation on the phone shell in Chromium (`ChromiumPhone`), and the actuator that performs
the mobile actions through it (`TouchActuator`)."""

from __future__ import annotations

import time
from typing import Protocol, runtime_checkable

import numpy as np

from ..actions import model as A
from ..actions.uitars import scroll_swipe
from .actuators import XActuator, check_point, points_of
from .browser import ChromiumBrowser
from .capture import XShmCapture
from .xinput import XTestInput

#: how long a long press is held at least, in seconds of the page's clock
LONG_PRESS_S = 1.0


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

    def app_names(self) -> list[str]:
        """The names of the apps on the phone."""

    def screenshot(self) -> np.ndarray:
        """The screen as RGB uint8 (H, W, 3)."""


class ChromiumPhone:
    """`PhoneBackend` on the phone shell in Chromium: touches are X pointer input that Chromium's
    touch emulation turns into touchstart/touchmove/touchend (pointerType "touch"), keys go
    through the X keyboard, home/back/open_app call the shell (`phone.home()` ...)."""

    def __init__(self, xinput: XTestInput, browser: ChromiumBrowser, capture: XShmCapture, size: tuple[int, int]):
        self.input, self.browser, self.capture, self.size = xinput, browser, capture, tuple(size)

    def tap(self, x: int, y: int) -> None:
        self.input.click(x, y)

    def long_press(self, x: int, y: int, duration: float = LONG_PRESS_S) -> None:
        inp, page = self.input, self.browser.page
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
        inp, steps = self.input, 10
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
        self.input.type_text(text)

    def key(self, key: str) -> None:
        if key == "home":
            self.browser.page.evaluate("phone.home()")
        elif key == "back":
            self.browser.page.evaluate("phone.back()")
        else:
            self.input.hotkey((key,))

    def open_app(self, name: str) -> bool:
        return bool(self.browser.page.evaluate("name => phone.open(name)", name.strip()))

    def app_names(self) -> list[str]:
        return self.browser.page.evaluate("[...document.querySelectorAll('#launcher .icon')].map(e => e.textContent.trim())")

    def screenshot(self) -> np.ndarray:
        return self.capture.grab()


class TouchActuator:
    """The mobile actions on a `PhoneBackend`: a click is a tap, a drag a swipe, a wheel scroll a
    finger swipe that scrolls that way; home, back and open_app are the phone's; keys and the
    other pointer actions go to the display's `XActuator`."""

    def __init__(self, phone: PhoneBackend, keys: XActuator):
        self.phone, self.keys = phone, keys

    def execute(self, action: A.Action) -> None:
        ph, size = self.phone, self.phone.size
        for x, y in points_of(action):
            check_point(x, y, size)
        if isinstance(action, (A.Tap, A.Click)):
            ph.tap(action.x, action.y)
        elif isinstance(action, A.LongPress):
            ph.long_press(action.x, action.y, max(LONG_PRESS_S, action.duration))
        elif isinstance(action, (A.Swipe, A.Drag)):
            ph.swipe(action.x1, action.y1, action.x2, action.y2)
        elif isinstance(action, A.Scroll):
            at = (action.x, action.y) if action.x is not None and action.y is not None else None
            s = scroll_swipe(action.direction, at, size)
            ph.swipe(s.x1, s.y1, s.x2, s.y2)
        elif isinstance(action, A.TypeText):
            ph.type_text(action.text)
        elif isinstance(action, A.PressHome):
            ph.key("home")
        elif isinstance(action, A.PressBack):
            ph.key("back")
        elif isinstance(action, A.OpenApp):
            if not ph.open_app(action.app_name):
                raise A.ActionError(f"open_app(): no app named {action.app_name!r} on this phone; "
                                    f"it has {ph.app_names()}")
        else:
            self.keys.execute(action)
