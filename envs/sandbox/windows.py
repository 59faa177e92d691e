"""The X windows of a display, through one kept X connection: find, measure, list and activate
top-level windows (the window manager's view of the desktop)."""

from __future__ import annotations

import contextlib
import time

from Xlib import X
from Xlib import display as xdisplay
from Xlib.protocol import event

from .errors import SandboxError


class WindowError(SandboxError):
    """A window did not appear, did not reach its place, or was not activated in time."""


class XWindows:
    """Window queries on one display, over one X connection opened at the first call."""

    def __init__(self, display_name: str):
        self.display_name = display_name
        self._d: xdisplay.Display | None = None

    @property
    def _x(self) -> xdisplay.Display:
        if self._d is None:
            self._d = xdisplay.Display(self.display_name)
        return self._d

    def close(self) -> None:
        d, self._d = self._d, None
        if d is not None:
            with contextlib.suppress(Exception):
                d.close()

    def _top_levels(self):
        """Mapped windows of the tree's first two levels (frames of the window manager and their
        clients), with their WM_CLASS and title."""
        d = self._x
        for win in _walk(d.screen().root, depth=2):
            try:
                if win.get_attributes().map_state != X.IsViewable:
                    continue
                yield win, tuple(win.get_wm_class() or ()), _title(d, win)
            except Exception:   # gone while we looked
                continue

    def find(self, wm_class: str | None = None, title: str | None = None, timeout: float = 10.0) -> int:
        """Poll until a mapped window whose WM_CLASS contains `wm_class` and whose title contains
        `title` exists (at least one of them given); its id."""
        if wm_class is None and title is None:
            raise ValueError("find() needs a wm_class or a title")
        deadline = time.monotonic() + timeout
        while True:
            for win, cls, name in self._top_levels():
                if (wm_class is None or wm_class in cls) and (title is None or title in name):
                    return win.id
            if time.monotonic() >= deadline:
                raise WindowError(f"no window (class {wm_class!r}, title {title!r}) appeared within {timeout:.0f} s")
            time.sleep(0.02)

    def geometry(self, wid: int) -> tuple[int, int, int, int]:
        """(x, y, width, height) of a window's client area in screen pixels (no frame)."""
        d = self._x
        win = d.create_resource_object("window", wid)
        g = win.get_geometry()
        pos = win.translate_coords(d.screen().root, 0, 0)
        return (-pos.x, -pos.y, g.width, g.height)

    def list(self) -> list[dict]:
        """The mapped top-level windows: id, WM_CLASS (instance, class), title and geometry (None if unknown)."""
        out = [{"id": win.id, "wm_class": cls, "title": name} for win, cls, name in self._top_levels() if cls]
        for w in out:
            try:
                w["geometry"] = self.geometry(w["id"])
            except Exception:
                w["geometry"] = None
        return out

    def activate(self, wid: int, timeout: float = 2.0) -> None:
        """Raise a window and give it the keyboard focus (an EWMH _NET_ACTIVE_WINDOW request to the
        window manager, as a taskbar click sends), and wait until the window manager says it is active."""
        d = self._x
        root = d.screen().root
        active = d.intern_atom("_NET_ACTIVE_WINDOW")
        win = d.create_resource_object("window", wid)
        ev = event.ClientMessage(window=win, client_type=active, data=(32, [2, X.CurrentTime, 0, 0, 0]))
        root.send_event(ev, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        d.flush()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            prop = root.get_full_property(active, X.AnyPropertyType)
            if prop is not None and prop.value and prop.value[0] == wid:
                return
            time.sleep(0.01)
        raise WindowError(f"the window manager did not activate window {wid:#x}")


def _walk(win, depth: int):
    yield win
    if depth > 0:
        try:
            kids = win.query_tree().children
        except Exception:
            return
        for c in kids:
            yield from _walk(c, depth - 1)


def _title(d, win) -> str:
    """A window's title: _NET_WM_NAME (UTF-8; all Chromium sets), else WM_NAME."""
    prop = win.get_full_property(d.intern_atom("_NET_WM_NAME"), d.intern_atom("UTF8_STRING"))
    if prop is not None and prop.value:
        value = prop.value
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    name = win.get_wm_name() or ""
    return name.decode("utf-8", "replace") if isinstance(name, bytes) else name
