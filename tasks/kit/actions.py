"""The env's own actions as dicts, for oracles: each function returns what an agent would send.

Coordinates are absolute screen pixels (the dict form's coordinate space). Generators
(`until`, `point_and_click`) yield several actions, one per step.
"""

from __future__ import annotations

from typing import Callable, Iterator


def click(x: float, y: float, button: str = "left") -> dict:
    """A click at (x, y); button "left", "right" or "middle"."""
    kind = {"left": "click", "right": "right_single", "middle": "middle_single"}[button]
    return {"action_type": kind, "x": int(x), "y": int(y)}


def _at(kind: str, doc: str):
    """A builder of the point action `kind`: f(x, y) -> its dict."""
    def build(x: float, y: float) -> dict:
        return {"action_type": kind, "x": int(x), "y": int(y)}
    build.__name__, build.__doc__ = kind, doc
    return build


def _stroke(kind: str, doc: str):
    """A builder of the stroke action `kind`: f(x1, y1, x2, y2) -> its dict."""
    def build(x1: float, y1: float, x2: float, y2: float) -> dict:
        return {"action_type": kind, "x1": int(x1), "y1": int(y1), "x2": int(x2), "y2": int(y2)}
    build.__name__, build.__doc__ = kind, doc
    return build


double_click = _at("left_double", "A double click at (x, y).")
hover = _at("hover", "The pointer moved to (x, y), no button pressed.")
mouse_down = _at("mouse_down", "The left button pressed at (x, y) and held.")
mouse_up = _at("mouse_up", "The left button released at (x, y).")
drag = _stroke("drag", "Press at (x1, y1), move to (x2, y2), release.")
tap = _at("tap", "A short touch at (x, y).")
long_press = _at("long_press", "A touch held at (x, y) (at least a second).")
swipe = _stroke("swipe", "A touch moved from (x1, y1) to (x2, y2), then lifted.")


def scroll(direction: str, x: float | None = None, y: float | None = None, amount: int = 3) -> dict:
    act = {"action_type": "scroll", "direction": direction, "amount": int(amount)}
    if x is not None and y is not None:
        act.update(x=int(x), y=int(y))
    return act


def typed(text: str) -> dict:
    """Text typed on the keyboard ("\\n" presses Enter)."""
    return {"action_type": "type", "text": text}


def keys(*names: str) -> dict:
    """A hotkey: the keys pressed together, then released ("ctrl", "a")."""
    return {"action_type": "hotkey", "keys": list(names)}


def wait(seconds: float = 0.2) -> dict:
    return {"action_type": "wait", "seconds": seconds}


def finish(content: str = "") -> dict:
    """`finished(content=...)`: the episode ends; `content` is the answer for question tasks."""
    return {"action_type": "finished", "content": content}


def call_user(content: str = "") -> dict:
    """`call_user()`: the agent hands back to the person (the right end of an infeasible task)."""
    return {"action_type": "call_user", "content": content}


# -- the phone's buttons ---------------------------------------------------------------
def open_app(name: str) -> dict:
    return {"action_type": "open_app", "app_name": name}


def press_home() -> dict:
    return {"action_type": "press_home"}


def press_back() -> dict:
    return {"action_type": "press_back"}


# -- the SDK ------------------------------------------------------------------------
def terminal(command: str) -> dict:
    return {"action_type": "terminal", "command": command}


def read_file(path: str) -> dict:
    return {"action_type": "read_file", "path": path}


def write_file(path: str, content: str) -> dict:
    return {"action_type": "write_file", "path": path, "content": content}


# -- a few steps -------------------------------------------------------------------
def point_and_click(x: float, y: float) -> Iterator[dict]:
    """Hover, press, release as three steps: a GTK dialog button drops a click whose press and
    release arrive together, the way a person's slower click never does."""
    yield hover(x, y)
    yield mouse_down(x, y)
    yield mouse_up(x, y)


def until(done: Callable[[], bool], tries: int = 12, seconds: float = 0.1) -> Iterator[dict]:
    """Wait steps until `done()` holds (a person waits for a copy or a save to finish); each wait
    half as long again as the one before, up to 1 s (12 tries: about 7 s in all)."""
    for _ in range(tries):
        if done():
            return
        yield wait(seconds)
        seconds = min(1.0, seconds * 1.5)
