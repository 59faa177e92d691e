"""Action execution: typed GUI actions performed on the display, like a person's mouse and keyboard.

`XActuator` performs the computer actions through XTEST. The phone's actuator
(`hybridgym.sandbox.phone.TouchActuator`) performs touches through a `PhoneBackend`
and hands keys to an `XActuator`.
"""

from __future__ import annotations

from ..actions import model as A
from .xinput import XTestInput

#: actions that press a pointer button (the window manager may hold the press)
_BUTTON_ACTIONS = (A.Click, A.DoubleClick, A.RightClick, A.MiddleClick, A.MouseDown, A.MouseUp, A.Drag)
#: the phone's own actions: a computer has no home or back button
PHONE_ACTIONS = (A.Tap, A.LongPress, A.Swipe, A.PressHome, A.PressBack, A.OpenApp)


def check_point(x: int, y: int, size: tuple[int, int]) -> None:
    """ActionError unless (x, y) is a pixel of a screen of `size` (width, height)."""
    w, h = size
    if not (0 <= x < w and 0 <= y < h):
        raise A.ActionError(f"point ({x}, {y}) is outside the {w}x{h} screen")


def points_of(action: A.Action) -> list[tuple[int, int]]:
    """The screen points an action names (x/y, x1/y1, x2/y2)."""
    return [(getattr(action, a), getattr(action, b)) for a, b in (("x", "y"), ("x1", "y1"), ("x2", "y2"))
            if getattr(action, a, None) is not None and getattr(action, b, None) is not None]


class XActuator:
    """Pointer and keyboard actions through XTEST on one display.

    `wm_barrier`: a window manager runs on the display; it holds a button press in a window
    until it has focused and raised it, so after each press the actuator waits for it
    (the app must have the press before it gets the next action's keys).
    """

    def __init__(self, xinput: XTestInput, size: tuple[int, int], *, wm_barrier: bool = False):
        self.input, self.size, self.wm_barrier = xinput, tuple(size), wm_barrier

    def execute(self, action: A.Action) -> None:
        for x, y in points_of(action):
            check_point(x, y, self.size)
        inp = self.input
        if isinstance(action, A.Click):
            inp.click(action.x, action.y)
        elif isinstance(action, A.DoubleClick):
            inp.click(action.x, action.y, count=2)
        elif isinstance(action, A.RightClick):
            inp.click(action.x, action.y, button="right")
        elif isinstance(action, A.MiddleClick):
            inp.click(action.x, action.y, button="middle")
        elif isinstance(action, A.MoveTo):
            inp.move(action.x, action.y)
            inp.sync()
        elif isinstance(action, A.Drag):
            inp.drag(action.x1, action.y1, action.x2, action.y2)
        elif isinstance(action, (A.MouseDown, A.MouseUp)):
            if action.x is not None and action.y is not None:
                inp.move(action.x, action.y)
            inp.button(action.button, isinstance(action, A.MouseDown))
            inp.sync()
        elif isinstance(action, A.Scroll):
            inp.scroll(action.direction, action.amount, action.x, action.y)
        elif isinstance(action, A.TypeText):
            inp.type_text(action.text)
        elif isinstance(action, A.Hotkey):
            inp.hotkey(action.keys)
        elif isinstance(action, (A.KeyDown, A.KeyUp)):
            inp.key(action.key, isinstance(action, A.KeyDown))
            inp.sync()
        elif isinstance(action, PHONE_ACTIONS):
            raise A.ActionError(f"{action.action_type}() is a phone action; this screen has a mouse and a keyboard")
        else:
            raise A.ActionError(f"{action.action_type}() is not a screen action this env can perform")
        if self.wm_barrier and isinstance(action, _BUTTON_ACTIONS):
            inp.wm_barrier()
