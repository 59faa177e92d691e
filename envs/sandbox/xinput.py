"""Mouse and keyboard input into an X display through the XTEST extension (python-xlib, in process)."""

from __future__ import annotations

import select
import time

from Xlib import X, XK
from Xlib import display as xdisplay
from Xlib.ext import xtest
from Xlib.protocol import event

# canonical key name (hybridgym.actions.keys) -> X keysym name
_NAMED_KEYSYMS = {
    "ctrl": "Control_L", "alt": "Alt_L", "shift": "Shift_L", "super": "Super_L",
    "enter": "Return", "tab": "Tab", "esc": "Escape", "backspace": "BackSpace",
    "delete": "Delete", "insert": "Insert", "home": "Home", "end": "End",
    "pageup": "Prior", "pagedown": "Next", "up": "Up", "down": "Down",
    "left": "Left", "right": "Right", "space": "space", "capslock": "Caps_Lock",
    "printscreen": "Print", "menu": "Menu", "pause": "Pause",
}
_BUTTONS = {"left": 1, "middle": 2, "right": 3}
_SCROLL_BUTTONS = {"up": 4, "down": 5, "left": 6, "right": 7}


def keysym_for(key: str) -> int:
    """X keysym of a canonical key name or a single character."""
    if key in _NAMED_KEYSYMS:
        return XK.string_to_keysym(_NAMED_KEYSYMS[key])
    if len(key) >= 2 and key[0] == "f" and key[1:].isdigit():
        return XK.string_to_keysym(key.upper())
    if len(key) == 1:
        if key == "\n":
            return XK.string_to_keysym("Return")
        if key == "\t":
            return XK.string_to_keysym("Tab")
        code = ord(key)
        if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF:
            return code
        return 0x01000000 | code  # X11 Unicode keysym
    raise ValueError(f"no X keysym for key {key!r}")


class XTestInput:
    """Sends pointer and key events to one X display. Coordinates are display pixels."""

    def __init__(self, display_name: str):
        self._d = xdisplay.Display(display_name)
        if not self._d.has_extension("XTEST"):
            raise RuntimeError(f"X display {display_name} has no XTEST extension")
        self._shift = self._d.keysym_to_keycode(XK.string_to_keysym("Shift_L"))
        # keycodes with no keysym, used to type characters the keymap lacks (CJK, emoji)
        first = self._d.display.info.min_keycode
        count = self._d.display.info.max_keycode - first + 1
        mapping = self._d.get_keyboard_mapping(first, count)
        self._scratch = [first + i for i, syms in enumerate(mapping) if not any(syms)][:64]
        self._scratch_used: dict[int, float] = {}   # keycode -> time it was last remapped
        self._scratch_of: dict[int, int] = {}       # keysym -> scratch keycode holding it
        self.pointer = (0, 0)
        #: button releases sent so far, any button (`ChromiumBrowser.click_barrier` tells a click's from another's)
        self.releases = 0
        self._barrier = None   # our window whose frame extents the window manager is asked for (wm_barrier)

    # -- pointer ---------------------------------------------------------
    def move(self, x: int, y: int) -> None:
        xtest.fake_input(self._d, X.MotionNotify, x=int(x), y=int(y))
        self.pointer = (int(x), int(y))

    def button(self, button: str | int, down: bool) -> None:
        b = _BUTTONS[button] if isinstance(button, str) else button
        xtest.fake_input(self._d, X.ButtonPress if down else X.ButtonRelease, b)
        if not down:
            self.releases += 1

    def click(self, x: int, y: int, button: str = "left", count: int = 1) -> None:
        self.move(x, y)
        for _ in range(count):
            self.button(button, True)
            self.button(button, False)
        self.sync()

    def drag(self, x1: int, y1: int, x2: int, y2: int, steps: int = 12, button: str = "left") -> None:
        self.move(x1, y1)
        self.button(button, True)
        self.sync()
        for i in range(1, steps + 1):
            self.move(x1 + (x2 - x1) * i // steps, y1 + (y2 - y1) * i // steps)
            self.sync()
            time.sleep(0.004)  # let the app see the motion as motion, not a jump
        self.button(button, False)
        self.sync()

    def scroll(self, direction: str, amount: int = 5, x: int | None = None, y: int | None = None) -> None:
        if x is not None and y is not None:
            self.move(x, y)
        b = _SCROLL_BUTTONS[direction]
        for _ in range(max(1, int(amount))):
            xtest.fake_input(self._d, X.ButtonPress, b)
            xtest.fake_input(self._d, X.ButtonRelease, b)
            self.releases += 1
        self.sync()

    def release_all(self) -> None:
        """Release every key and pointer button the X server holds down (a key the agent left
        pressed with key_down must not reach the next episode)."""
        released = 0
        keymap = self._d.query_keymap()
        for byte, bits in enumerate(keymap):
            for bit in range(8):
                if bits >> bit & 1:
                    xtest.fake_input(self._d, X.KeyRelease, byte * 8 + bit)
                    released += 1
        mask = self._d.screen().root.query_pointer().mask
        for button, flag in ((1, X.Button1Mask), (2, X.Button2Mask), (3, X.Button3Mask),
                             (4, X.Button4Mask), (5, X.Button5Mask)):
            if mask & flag:
                xtest.fake_input(self._d, X.ButtonRelease, button)
                self.releases += 1
                released += 1
        if released:   # (the two queries were answered: nothing sent is left unprocessed otherwise)
            self.sync()

    # -- keyboard --------------------------------------------------------
    def _keycode(self, keysym: int) -> tuple[int, bool]:
        """(keycode, needs shift) for a keysym, mapping a scratch keycode if needed."""
        for code, index in self._d.keysym_to_keycodes(keysym):
            if index in (0, 1):
                return code, index == 1
        if keysym in self._scratch_of:
            return self._scratch_of[keysym], False
        if not self._scratch:
            raise RuntimeError("no free keycode to type this character")
        code = min(self._scratch, key=lambda c: self._scratch_used.get(c, 0.0))
        since = time.monotonic() - self._scratch_used.get(code, 0.0)
        if since < 0.05:  # the app may not have read the last key on this keycode yet
            time.sleep(0.05 - since)
        for sym, c in list(self._scratch_of.items()):
            if c == code:
                del self._scratch_of[sym]
        self._d.change_keyboard_mapping(code, [(keysym, keysym)])
        self._d.sync()
        # clients reload their keymap on the MappingNotify a moment later; a key sent at
        # once would still be read with the old map (and lost)
        time.sleep(0.03)
        self._scratch_of[keysym] = code
        self._scratch_used[code] = time.monotonic()
        return code, False

    def key(self, key: str, down: bool) -> None:
        code, shift = self._keycode(keysym_for(key))
        if shift and down:
            xtest.fake_input(self._d, X.KeyPress, self._shift)
        xtest.fake_input(self._d, X.KeyPress if down else X.KeyRelease, code)
        if shift and not down:
            xtest.fake_input(self._d, X.KeyRelease, self._shift)

    def hotkey(self, keys: tuple[str, ...] | list[str], wait: bool = True) -> None:
        """Press the keys in order, release them in reverse. wait=False: sent, not waited for (no round
        trip to the X server, 0.3-0.4 ms in a step), for a key whose arrival the caller waits for itself."""
        codes = [self._keycode(keysym_for(k))[0] for k in keys]
        for c in codes:
            xtest.fake_input(self._d, X.KeyPress, c)
        for c in reversed(codes):
            xtest.fake_input(self._d, X.KeyRelease, c)
        if wait:
            self.sync()
        else:
            self._d.flush()

    def tap_keysym(self, name: str) -> None:
        """Press and release the key of X keysym `name` (e.g. "Cancel"), sent, not waited for: for the env's own
        keys (an input barrier's sentinel), by a name the agents' key names do not reach."""
        code = self._keycode(XK.string_to_keysym(name))[0]
        xtest.fake_input(self._d, X.KeyPress, code)
        xtest.fake_input(self._d, X.KeyRelease, code)
        self._d.flush()

    def type_text(self, text: str) -> None:
        for ch in text:
            code, shift = self._keycode(keysym_for(ch))
            if shift:
                xtest.fake_input(self._d, X.KeyPress, self._shift)
            xtest.fake_input(self._d, X.KeyPress, code)
            xtest.fake_input(self._d, X.KeyRelease, code)
            if shift:
                xtest.fake_input(self._d, X.KeyRelease, self._shift)
            if code in self._scratch_used:
                self._scratch_used[code] = time.monotonic()
        self.sync()

    def sync(self) -> None:
        self._d.sync()

    def wm_barrier(self, timeout: float = 1.0) -> bool:
        """Return once the window manager has handled every event before this call (True),
        or after `timeout` seconds (False: no EWMH window manager answered).

        A window manager that binds clicks in windows (openbox: a click focuses and raises)
        holds each press until it has acted on it, then lets it through to the app; keys
        sent meanwhile are not held and would reach the app first. This asks the window
        manager for the frame extents of a window of our own (_NET_REQUEST_FRAME_EXTENTS)
        and waits for its answer: it answers in order, after the press it held.
        """
        d = self._d
        if self._barrier is None:
            self._barrier = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent,
                                                          event_mask=X.PropertyChangeMask)
            self._extents = d.intern_atom("_NET_FRAME_EXTENTS")
            self._request = d.intern_atom("_NET_REQUEST_FRAME_EXTENTS")
        root = d.screen().root
        ev = event.ClientMessage(window=self._barrier, client_type=self._request, data=(32, [0, 0, 0, 0, 0]))
        root.send_event(ev, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        d.flush()
        deadline = time.monotonic() + timeout
        while True:
            while d.pending_events():
                e = d.next_event()
                if (e.type == X.PropertyNotify and e.window.id == self._barrier.id and e.atom == self._extents
                        and e.state == X.PropertyNewValue):
                    return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            select.select([d.fileno()], [], [], left)
            d.display.pending_events()   # read what arrived

    def close(self) -> None:
        try:
            self._d.close()
        except Exception:
            pass
