"""The action codec: agent output -> typed actions, or an ActionError saying what was wrong.

Accepted forms (see DESIGN.md, "The flow of one step"):
  - UI-TARS response text: "Thought: ...\\nAction: click(point='<point>500 300</point>')"
  - pyautogui code: "pyautogui.click(960, 540)" (read through an ast whitelist, never run)
  - a dict: {"action_type": "click", "x": 960, "y": 540}
  - an Action, or a list of any of these (concatenated)

Coordinates: `coords` names the mode of UI-TARS text and pyautogui code
("relative" 0..1000, "absolute" screenshot pixels, "smart_resize" pixels of the
Qwen2.5-VL resized image).  Left as None, each form keeps its usual mode: UI-TARS
text relative, pyautogui code absolute.  Dicts are always absolute pixels.

`platform` decides what UI-TARS's shared vocabulary means: on "mobile" click is a
Tap, drag a Swipe and scroll a finger Swipe (other computer actions pass unchanged,
for the env to perform or refuse); on "computer" the mobile-only actions (tap,
long_press, swipe, press_home, press_back, open_app) are refused, whatever form
they came in.

Pixels are ints: halves round up, and a point on the far edge (x = 1000 in
relative mode) is the last pixel; a point beyond the screen is an ActionError.

Limits (their values: `hybridgym.actions.model`, "limits"): whatever its form, a step
is checked as a whole once parsed (`limits.check_limits`): at most MAX_ACTIONS actions, MAX_TYPED_CHARS
characters typed, MAX_STEP_SECONDS of waiting, MAX_HOTKEY_KEYS keys in a hotkey, caps
on every text an action carries (command, file content, path, answer, app name),
text that encodes as UTF-8, fields of the types their action declares.  Text longer
than MAX_TEXT_CHARS, lists nested deeper than MAX_NESTING and input too deep to
read are refused unread.  Every refusal is an ActionError saying what is accepted.
"""

from __future__ import annotations

from .coords import MAX_PIXELS, MIN_PIXELS, CoordMode, CoordSpace, smart_resize
from .dicts import parse_dict
from .keys import normalize_key, split_hotkey
from .limits import check_limits
from .model import (
    ACTION_TYPES, ALL_ACTIONS, MAX_ACTIONS, MAX_ANSWER_CHARS, MAX_COMMAND_BYTES, MAX_FILE_BYTES, MAX_HOTKEY_KEYS,
    MAX_KEY_CHARS, MAX_NAME_CHARS, MAX_NESTING, MAX_PATH_BYTES, MAX_REPEAT, MAX_STEP_SECONDS, MAX_TEXT_CHARS,
    MAX_TYPED_CHARS, Action, ActionError, CallUser, Click, DoubleClick, Drag, Finished, Hotkey, KeyDown, KeyUp,
    LongPress, MiddleClick, MouseDown, MouseUp, MoveTo, OpenApp, PressBack, PressHome, ReadFile, RightClick, Scroll,
    Swipe, Tap, Terminal, TypeText, Wait, WriteFile, shown,
)
from .pyautogui_code import looks_like_pyautogui, parse_pyautogui
from .uitars import looks_like_uitars, parse_uitars

LIMITS = ("MAX_TEXT_CHARS", "MAX_ACTIONS", "MAX_NESTING", "MAX_REPEAT", "MAX_STEP_SECONDS", "MAX_TYPED_CHARS",
          "MAX_HOTKEY_KEYS", "MAX_KEY_CHARS", "MAX_COMMAND_BYTES", "MAX_FILE_BYTES", "MAX_PATH_BYTES",
          "MAX_ANSWER_CHARS", "MAX_NAME_CHARS")
__all__ = [
    "parse_action", "Codec", "CoordMode", "ActionError", "normalize_key", "split_hotkey", "smart_resize",
    "ACTION_TYPES", "ALL_ACTIONS", *LIMITS, *(cls.__name__ for cls in ALL_ACTIONS), "Action",
]

PLATFORMS = ("computer", "mobile")
#: longest error message: a longer one (a parser quoting too much) is cut
MAX_ERROR_CHARS = 2000
_MOBILE_ONLY = (Tap, LongPress, Swipe, PressHome, PressBack, OpenApp)
_FORMS = ("UI-TARS text (\"Action: click(point='<point>500 300</point>')\"), pyautogui code "
          "(\"pyautogui.click(960, 540)\"), a dict with 'action_type', an Action, or a list of these")


class Codec:
    """Turns one env's agent output into typed actions; holds the screen size, the
    coordinate mode and the platform, so an env keeps one and calls `parse`."""

    def __init__(self, screen: tuple[int, int], coords: CoordMode | str | None = None,
                 platform: str = "computer", min_pixels: int = MIN_PIXELS, max_pixels: int = MAX_PIXELS):
        if platform not in PLATFORMS:
            raise ValueError(f"platform must be one of {PLATFORMS}, got {platform!r}")
        self.screen, self.platform = tuple(screen), platform
        self.text_space = CoordSpace(self.screen, coords or CoordMode.RELATIVE, min_pixels, max_pixels)
        self.code_space = CoordSpace(self.screen, coords or CoordMode.ABSOLUTE, min_pixels, max_pixels)
        self.dict_space = CoordSpace(self.screen, CoordMode.ABSOLUTE)

    def parse(self, action: object) -> list[Action]:
        """At least one typed action within the limits, or ActionError (its message at most
        MAX_ERROR_CHARS long)."""
        try:
            return self._checked(action)
        except ActionError as e:
            if len(str(e)) <= MAX_ERROR_CHARS:
                raise
            raise ActionError(str(e)[:MAX_ERROR_CHARS - 3] + "...") from None

    def _checked(self, action: object) -> list[Action]:
        try:
            actions = self._parse(action, 0, [0])
        except (RecursionError, MemoryError):
            raise ActionError(f"the action is nested too deeply (or is too large) to read; accepted: {_FORMS}") \
                from None
        if not actions:
            raise ActionError(f"no action given; accepted: {_FORMS}")
        if self.platform == "computer":
            for a in actions:
                if isinstance(a, _MOBILE_ONLY):
                    raise ActionError(f"{a.action_type} is a mobile action and this env is a computer; "
                                      f"use click/drag/scroll/hotkey instead")
        check_limits(actions, self.screen)
        return actions

    def _parse(self, action: object, depth: int, read: list[int]) -> list[Action]:
        """`read`: characters of text read so far in this parse (all of a list's texts count)."""
        if isinstance(action, Action):
            return [action]
        if isinstance(action, dict):
            return [parse_dict(action, self.dict_space)]
        if isinstance(action, str):
            read[0] += len(action)
            if read[0] > MAX_TEXT_CHARS:
                raise ActionError((f"action text is {len(action)} characters" if depth == 0 else
                                   f"the list's action texts are {read[0]} characters or more in all")
                                  + f"; at most {MAX_TEXT_CHARS} are read per step")
            return self._parse_text(action)
        if isinstance(action, (list, tuple)):
            if depth >= MAX_NESTING:
                raise ActionError(f"actions are nested in lists more than {MAX_NESTING} deep; give a flat list")
            actions = []
            for i, item in enumerate(action):
                try:
                    actions.extend(self._parse(item, depth + 1, read))
                    if len(actions) > MAX_ACTIONS:
                        raise ActionError(f"the list makes more than {MAX_ACTIONS} actions; at most {MAX_ACTIONS} "
                                          f"are performed per step; send the rest in later steps")
                except ActionError as e:   # an item of an item: "item 2.0: ..."
                    message = str(e)
                    raise ActionError(f"item {i}.{message[5:]}" if message.startswith("item ")
                                      else f"item {i}: {message}") from None
            return actions
        raise ActionError(f"cannot read an action from {type(action).__name__} {shown(action)}; accepted: {_FORMS}")

    def _parse_text(self, text: str) -> list[Action]:
        if not text.strip():
            raise ActionError(f"empty action text; accepted: {_FORMS}")
        if looks_like_uitars(text):
            return parse_uitars(text, self.text_space, self.platform)
        if looks_like_pyautogui(text):
            return parse_pyautogui(text, self.code_space)
        raise ActionError(f"cannot tell what kind of action this is: {text[:60]!r}; accepted: {_FORMS}")

    def __repr__(self) -> str:
        return (f"Codec(screen={self.screen}, text={self.text_space.mode.value}, "
                f"code={self.code_space.mode.value}, platform={self.platform!r})")


def parse_action(action: object, screen: tuple[int, int], coords: CoordMode | str | None = None,
                 platform: str = "computer", min_pixels: int = MIN_PIXELS,
                 max_pixels: int = MAX_PIXELS) -> list[Action]:
    """Typed actions of one agent output (see the module docstring for forms and modes)."""
    return Codec(screen, coords, platform, min_pixels, max_pixels).parse(action)
