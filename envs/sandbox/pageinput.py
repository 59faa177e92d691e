"""A game's input dispatched inside its page: DOM events made by the env's own script, not X input.

The default input of a game env is real X input (`xinput.XTestInput`): the keys and clicks travel X server ->
Chromium's browser process -> the renderer, and the step waits for a sentinel key to reach the page before the
game's clock moves (`ChromiumBrowser.canvas_frame(after_input=)`). That trip is most of a game step's time.
With `input="page"` (`hybridgym.observers.CanvasClock`) the same actions become the DOM events Chromium would
make of them (pointer and mouse events, keydown/keypress/keyup with `key`, `code` and `keyCode` of a US
keyboard), recorded here and dispatched by the page's end of the step's call, before the clock moves: no X, no
sentinel, and the events reach the page in the call that reads its picture.

`PageInput` has the methods of `XTestInput` that `actuators.XActuator` calls, so every computer action (click,
double and right click, drag, scroll, typing, hotkeys, keys and buttons held across steps) keeps its meaning;
`take()` hands over the events recorded since the last call. `PAGE_INPUT_JS` is the page's dispatcher.

What differs from X input (docs/game-suite.md): the events are not trusted (`isTrusted` is false) and have no
default actions of the browser (no text typed into a field, no focus moved by a click, no scrolling, no browser
shortcut: a key never leaves the page); X's key auto-repeat and the coalescing of pointer moves into one per
frame do not happen. The games of the suite read none of that: tests compare every game's pictures under both
inputs for the same actions (tests/test_page_input.py).

Trust: the events are data. Python builds each one from an action the codec already checked (a canonical key, a
point on the screen) as a JSON object of known fields; the dispatcher accepts only its own event types and
copies numbers and strings into event constructors. Nothing of the agent's is run as script.
"""

from __future__ import annotations

from typing import Callable

# -- keys: canonical key name (hybridgym.actions.keys) -> the DOM's (key, code, keyCode, location) ----------
_NAMED = {
    "enter": ("Enter", "Enter", 13), "tab": ("Tab", "Tab", 9), "esc": ("Escape", "Escape", 27),
    "backspace": ("Backspace", "Backspace", 8), "delete": ("Delete", "Delete", 46), "insert": ("Insert", "Insert", 45),
    "home": ("Home", "Home", 36), "end": ("End", "End", 35), "pageup": ("PageUp", "PageUp", 33),
    "pagedown": ("PageDown", "PageDown", 34), "up": ("ArrowUp", "ArrowUp", 38), "down": ("ArrowDown", "ArrowDown", 40),
    "left": ("ArrowLeft", "ArrowLeft", 37), "right": ("ArrowRight", "ArrowRight", 39), "space": (" ", "Space", 32),
    "capslock": ("CapsLock", "CapsLock", 20), "printscreen": ("PrintScreen", "PrintScreen", 44),
    "menu": ("ContextMenu", "ContextMenu", 93),
    **{f"f{i}": (f"F{i}", f"F{i}", 111 + i) for i in range(1, 25)},
}
#: modifiers: (key, code, keyCode, the event's flag); the left-hand key, as X's keymap presses it
_MODIFIERS = {"ctrl": ("Control", "ControlLeft", 17, "ctrl"), "shift": ("Shift", "ShiftLeft", 16, "shift"),
              "alt": ("Alt", "AltLeft", 18, "alt"), "super": ("Meta", "MetaLeft", 91, "meta")}
# the printable keys of a US keyboard: unshifted character -> (shifted character, code, keyCode)
_PRINTABLE = {
    **{c: (c.upper(), f"Key{c.upper()}", ord(c.upper())) for c in "abcdefghijklmnopqrstuvwxyz"},
    **{d: (s, f"Digit{d}", ord(d)) for d, s in zip("1234567890", "!@#$%^&*()")},
    "`": ("~", "Backquote", 192), "-": ("_", "Minus", 189), "=": ("+", "Equal", 187),
    "[": ("{", "BracketLeft", 219), "]": ("}", "BracketRight", 221), "\\": ("|", "Backslash", 220),
    ";": (":", "Semicolon", 186), "'": ('"', "Quote", 222), ",": ("<", "Comma", 188), ".": (">", "Period", 190),
    "/": ("?", "Slash", 191),
}
#: a shifted character -> its key's unshifted one ("A" -> "a", "+" -> "=")
_UNSHIFTED = {v[0]: k for k, v in _PRINTABLE.items()}
_BUTTONS = {"left": 0, "middle": 1, "right": 2}
_BUTTON_BITS = {0: 1, 1: 4, 2: 2}   # MouseEvent.buttons: left 1, right 2, middle 4
_SCROLL = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
#: pixels one wheel notch scrolls in Chromium on X11 (its kWheelScrollAmount)
WHEEL_PX = 53
_CHARS = {"\n": "enter", "\r": "enter", "\t": "tab", " ": "space"}


def base_key(key: str) -> tuple[str, bool]:
    """(the key that types `key`, whether Shift is needed): "A" -> ("a", True), "+" -> ("=", True)."""
    key = _CHARS.get(key, key)
    if key in _UNSHIFTED:
        return _UNSHIFTED[key], True
    return key, False


class PageInput:
    """Records pointer and key input as DOM events for a page (the methods of `XTestInput` that
    `XActuator` calls). `to_page(x, y)` turns a screen pixel into the page's CSS pixel."""

    def __init__(self, to_page: Callable[[float, float], tuple[float, float]], park: tuple[int, int]):
        self._to_page, self._park = to_page, park
        self.events: list[dict] = []
        self.reset()

    def reset(self) -> None:
        """A new page: nothing held, the pointer parked where the env parks the X pointer, nothing pending."""
        self.events = []
        self.pointer = tuple(self._park)
        self._keys: list[str] = []         # keys held down (canonical names), in the order pressed
        self._buttons = 0                  # MouseEvent.buttons bits held

    def take(self) -> list[dict]:
        """The events recorded since the last call, in order."""
        out, self.events = self.events, []
        return out

    # -- pointer -------------------------------------------------------------------------------------
    def _point(self) -> dict:
        x, y = self._to_page(*self.pointer)
        return {"x": x, "y": y, **self._mods()}

    def move(self, x: int, y: int) -> None:
        self.pointer = (int(x), int(y))
        self.events.append({"t": "move", "buttons": self._buttons, **self._point()})

    def button(self, button: str | int, down: bool, count: int = 1) -> None:
        b = _BUTTONS[button] if isinstance(button, str) else {1: 0, 2: 1, 3: 2}[int(button)]
        bit = _BUTTON_BITS[b]
        if down == bool(self._buttons & bit):   # X ignores a press of a held button (and a release of a free one)
            return
        # `only`: the pointer's first button down or its last up (pointerdown/pointerup; else a pointermove)
        only = self._buttons == 0 if down else self._buttons == bit
        self._buttons = self._buttons | bit if down else self._buttons & ~bit
        self.events.append({"t": "down" if down else "up", "button": b, "buttons": self._buttons,
                            "count": count, "only": only, **self._point()})

    def click(self, x: int, y: int, button: str = "left", count: int = 1) -> None:
        self.move(x, y)
        for n in range(1, count + 1):
            self.button(button, True, n)
            self.button(button, False, n)

    def drag(self, x1: int, y1: int, x2: int, y2: int, steps: int = 12, button: str = "left") -> None:
        self.move(x1, y1)
        self.button(button, True)
        for i in range(1, steps + 1):
            self.move(x1 + (x2 - x1) * i // steps, y1 + (y2 - y1) * i // steps)
        self.button(button, False)

    def scroll(self, direction: str, amount: int = 5, x: int | None = None, y: int | None = None) -> None:
        if x is not None and y is not None:
            self.move(x, y)
        dx, dy = _SCROLL[direction]
        for _ in range(max(1, int(amount))):
            self.events.append({"t": "wheel", "dx": dx * WHEEL_PX, "dy": dy * WHEEL_PX, **self._point()})

    def release_all(self) -> None:
        for key in reversed(list(self._keys)):
            self._key_event(key, False)
        for name, b in _BUTTONS.items():
            if self._buttons & _BUTTON_BITS[b]:
                self.button(name, False)

    # -- keyboard ------------------------------------------------------------------------------------
    def _mods(self) -> dict:
        held = {_MODIFIERS[k][3] for k in self._keys if k in _MODIFIERS}
        return {m: m in held for m in ("ctrl", "shift", "alt", "meta")}

    def _key_event(self, key: str, down: bool) -> None:
        """One keydown or keyup of the key `key` (a canonical name; a character is its unshifted key)."""
        if down == (key in self._keys):   # X ignores a press of a held key (no auto-repeat here)
            return
        if down:
            self._keys.append(key)
        else:
            self._keys.remove(key)
        mods = self._mods()
        if key in _MODIFIERS:
            name, code, key_code, _ = _MODIFIERS[key]
            location, char = 1, 0
        elif key in _NAMED:
            (name, code, key_code), location = _NAMED[key], 0
            char = {"enter": 13, "space": 32}.get(key, 0)
        elif key in _PRINTABLE:
            shifted, code, key_code = _PRINTABLE[key]
            name, location = (shifted if mods["shift"] else key), 0
            char = ord(name)
        else:   # a character no US key types (é, 中): X maps it to a spare keycode; the DOM has no code for it
            name, code, key_code, location, char = key, "", 0, 0, ord(key[0]) if len(key) == 1 else 0
        # a keypress follows a keydown that types something (not with Ctrl, Alt or Meta held)
        press = char if down and char and not (mods["ctrl"] or mods["alt"] or mods["meta"]) else 0
        self.events.append({"t": "key", "down": down, "key": name, "code": code, "keyCode": key_code,
                            "location": location, "press": press, **mods})

    def key(self, key: str, down: bool) -> None:
        """As `XTestInput.key`: a character that needs Shift gets it pressed with its key and released after."""
        base, shift = base_key(key)
        if shift and down:
            self._key_event("shift", True)
        self._key_event(base, down)
        if shift and not down:
            self._key_event("shift", False)

    def hotkey(self, keys, wait: bool = True) -> None:
        """As `XTestInput.hotkey`: the keys pressed in order and released in reverse, each by its own key
        (a shifted character as its unshifted key: "+" presses "=")."""
        bases = [base_key(k)[0] for k in keys]
        for k in bases:
            self._key_event(k, True)
        for k in reversed(bases):
            self._key_event(k, False)

    def type_text(self, text: str) -> None:
        for ch in text:
            base, shift = base_key(ch)
            if shift:
                self._key_event("shift", True)
            self._key_event(base, True)
            self._key_event(base, False)
            if shift:
                self._key_event("shift", False)

    # -- what XTestInput also has --------------------------------------------------------------------
    def sync(self) -> None:
        """Nothing to wait for: the events travel with the step's call."""

    def wm_barrier(self, timeout: float = 1.0) -> bool:
        return True

    def close(self) -> None:
        self.events = []


# `dispatch(events)`: the page's end. Makes each recorded event into the DOM events Chromium makes of mouse and
# keyboard input, in its order: at a pointer move that changes the element under it, pointerout/leave and
# mouseout/leave on the old one, pointerover/enter and mouseover/enter on the new; then pointermove and
# mousemove. A press: pointerdown (with no other button held; else a pointermove), then mousedown unless the
# pointerdown's default was prevented, and contextmenu for the right button. A release: pointerup, mouseup,
# then click (left) or auxclick (others) on the element both were on, and dblclick after a second click. A
# key: keydown, keypress (when it types, unless the keydown's default was prevented), keyup.
PAGE_INPUT_JS = """(events) => {
  const st = window.__hybridgymPointer || (window.__hybridgymPointer = {over: null, down: {}, quiet: false, x: null, y: null});
  const num = v => (typeof v === 'number' && isFinite(v)) ? v : 0;
  const mods = e => ({ctrlKey: e.ctrl === true, shiftKey: e.shift === true, altKey: e.alt === true, metaKey: e.meta === true});
  const at = (x, y) => document.elementFromPoint(x, y) || document.documentElement;
  const common = (a, b) => { for (let n = a; n; n = n.parentNode) if (n.contains && n.contains(b)) return n; return null; };
  const chain = n => { const out = []; for (; n && n.nodeType === 1; n = n.parentNode) out.push(n); return out; };
  for (const e of Array.isArray(events) ? events : []) {
    if (!e || typeof e !== 'object') continue;
    if (e.t === 'key') {
      if (typeof e.key !== 'string' || typeof e.code !== 'string') continue;
      const target = document.activeElement || document.body || document.documentElement;
      const init = {key: e.key, code: e.code, keyCode: num(e.keyCode), which: num(e.keyCode), location: num(e.location),
                    repeat: false, bubbles: true, cancelable: true, composed: true, view: window, ...mods(e)};
      const go = target.dispatchEvent(new KeyboardEvent(e.down ? 'keydown' : 'keyup', init));
      if (e.down && go && num(e.press) > 0)
        target.dispatchEvent(new KeyboardEvent('keypress', {...init, keyCode: num(e.press), which: num(e.press), charCode: num(e.press)}));
      continue;
    }
    if (!['move', 'down', 'up', 'wheel'].includes(e.t)) continue;
    const x = num(e.x), y = num(e.y), target = at(x, y);
    const base = {clientX: x, clientY: y, screenX: x, screenY: y, bubbles: true, cancelable: true, composed: true,
                  view: window, ...mods(e)};
    const buttons = num(e.buttons);
    const pointer = (type, extra) => target.dispatchEvent(new PointerEvent(type, {...base, pointerId: 1, pointerType: 'mouse',
      isPrimary: true, width: 1, height: 1, pressure: buttons ? 0.5 : 0, buttons, ...extra}));
    const mouse = (type, extra, on) => (on || target).dispatchEvent(new MouseEvent(type, {...base, buttons, ...extra}));
    if (st.over !== target) {   // the element under the pointer changed: its boundary events
      const old = st.over && st.over.isConnected ? st.over : null, gone = chain(old), come = chain(target);
      const bnd = (Ctor, type, on, related, bubbles) => on.dispatchEvent(new Ctor(type, {...base, bubbles, cancelable: bubbles,
        relatedTarget: related, buttons, ...(Ctor === PointerEvent ? {pointerId: 1, pointerType: 'mouse', isPrimary: true} : {})}));
      for (const [Ctor, out, leave, over, enter] of [[PointerEvent, 'pointerout', 'pointerleave', 'pointerover', 'pointerenter'],
                                                      [MouseEvent, 'mouseout', 'mouseleave', 'mouseover', 'mouseenter']]) {
        if (old) { bnd(Ctor, out, old, target, true); for (const n of gone) if (!come.includes(n)) bnd(Ctor, leave, n, target, false); }
        bnd(Ctor, over, target, old, true);
        for (const n of come.slice().reverse()) if (!gone.includes(n)) bnd(Ctor, enter, n, old, false);
      }
      st.over = target;
    }
    const moved = st.x !== x || st.y !== y, mx = st.x === null ? 0 : x - st.x, my = st.y === null ? 0 : y - st.y;
    st.x = x; st.y = y;
    if (e.t === 'move') {
      if (!moved) continue;
      pointer('pointermove', {button: -1, movementX: mx, movementY: my});
      if (!st.quiet) mouse('mousemove', {button: 0, movementX: mx, movementY: my});
    } else if (e.t === 'wheel') {
      target.dispatchEvent(new WheelEvent('wheel', {...base, buttons, deltaX: num(e.dx), deltaY: num(e.dy), deltaMode: 0}));
    } else {
      const b = num(e.button), detail = Math.max(1, num(e.count)), first = e.only === true;
      if (e.t === 'down') {
        const go = first ? pointer('pointerdown', {button: b}) : pointer('pointermove', {button: b});
        if (first) st.quiet = !go;   // a pointerdown whose default was prevented: no mouse events until all are up
        if (!st.quiet) mouse('mousedown', {button: b, detail});
        st.down[b] = target;
        if (b === 2) mouse('contextmenu', {button: 2, detail});
      } else {
        if (first) pointer('pointerup', {button: b}); else pointer('pointermove', {button: b});
        if (!st.quiet) mouse('mouseup', {button: b, detail});
        if (first) st.quiet = false;
        const on = st.down[b] ? common(st.down[b], target) : null;
        delete st.down[b];
        if (on) {
          on.dispatchEvent(new PointerEvent(b === 0 ? 'click' : 'auxclick',
            {...base, button: b, buttons, detail, pointerId: 1, pointerType: 'mouse', isPrimary: true}));
          if (b === 0 && detail === 2) mouse('dblclick', {button: 0, detail: 2}, on);
        }
      }
    }
  }
  return true;
}"""
