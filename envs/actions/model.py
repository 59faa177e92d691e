"""Typed actions: what every agent output is parsed into, and what a sandbox executes.

Coordinates are absolute pixels of the env's screenshot (the whole display),
already converted from whatever coordinate mode the agent used.  Keys are
canonical names (see `keys.py`): lower-case, e.g. "ctrl", "enter", "a", "f5".
"""

from __future__ import annotations

import reprlib
from dataclasses import asdict, dataclass, fields
from typing import ClassVar


class ActionError(ValueError):
    """Agent output that cannot be turned into actions; the message says what was
    wrong and what is accepted."""


@dataclass(frozen=True)
class Action:
    action_type: ClassVar[str] = ""
    #: which kind of channel executes it: "gui" (screen input), "sdk", or "control"
    channel: ClassVar[str] = "gui"

    def to_dict(self) -> dict:
        d = {"action_type": self.action_type}
        d.update(asdict(self))
        return d


# --- pointer ---------------------------------------------------------------
@dataclass(frozen=True)
class Click(Action):
    action_type: ClassVar[str] = "click"
    x: int
    y: int


@dataclass(frozen=True)
class DoubleClick(Action):
    action_type: ClassVar[str] = "left_double"
    x: int
    y: int


@dataclass(frozen=True)
class RightClick(Action):
    action_type: ClassVar[str] = "right_single"
    x: int
    y: int


@dataclass(frozen=True)
class MiddleClick(Action):
    action_type: ClassVar[str] = "middle_single"
    x: int
    y: int


@dataclass(frozen=True)
class MoveTo(Action):
    """Move the pointer without pressing (UI-TARS `hover`, pyautogui `moveTo`)."""
    action_type: ClassVar[str] = "hover"
    x: int
    y: int


@dataclass(frozen=True)
class Drag(Action):
    """Press at (x1, y1), move to (x2, y2) with intermediate motion, release."""
    action_type: ClassVar[str] = "drag"
    x1: int
    y1: int
    x2: int
    y2: int


@dataclass(frozen=True)
class MouseDown(Action):
    action_type: ClassVar[str] = "mouse_down"
    x: int | None = None   # None: where the pointer is
    y: int | None = None
    button: str = "left"   # left | right | middle


@dataclass(frozen=True)
class MouseUp(Action):
    action_type: ClassVar[str] = "mouse_up"
    x: int | None = None
    y: int | None = None
    button: str = "left"


@dataclass(frozen=True)
class Scroll(Action):
    """Wheel scroll of `amount` notches in a direction, at (x, y) or where the pointer is."""
    action_type: ClassVar[str] = "scroll"
    direction: str          # up | down | left | right
    x: int | None = None
    y: int | None = None
    amount: int = 5


# --- keyboard --------------------------------------------------------------
@dataclass(frozen=True)
class TypeText(Action):
    """Type literal text (any Unicode; "\\n" presses Enter)."""
    action_type: ClassVar[str] = "type"
    text: str


@dataclass(frozen=True)
class Hotkey(Action):
    """Press keys in order, release in reverse order (e.g. ("ctrl", "c"))."""
    action_type: ClassVar[str] = "hotkey"
    keys: tuple[str, ...]


@dataclass(frozen=True)
class KeyDown(Action):
    action_type: ClassVar[str] = "keydown"
    key: str


@dataclass(frozen=True)
class KeyUp(Action):
    action_type: ClassVar[str] = "keyup"
    key: str


# --- mobile ----------------------------------------------------------------
@dataclass(frozen=True)
class Tap(Action):
    action_type: ClassVar[str] = "tap"
    x: int
    y: int


@dataclass(frozen=True)
class LongPress(Action):
    action_type: ClassVar[str] = "long_press"
    x: int
    y: int
    duration: float = 1.0   # seconds held


@dataclass(frozen=True)
class Swipe(Action):
    """A touch moved from (x1, y1) to (x2, y2) with intermediate moves."""
    action_type: ClassVar[str] = "swipe"
    x1: int
    y1: int
    x2: int
    y2: int


@dataclass(frozen=True)
class PressHome(Action):
    action_type: ClassVar[str] = "press_home"


@dataclass(frozen=True)
class PressBack(Action):
    action_type: ClassVar[str] = "press_back"


@dataclass(frozen=True)
class OpenApp(Action):
    action_type: ClassVar[str] = "open_app"
    app_name: str


# --- SDK -------------------------------------------------------------------
@dataclass(frozen=True)
class Terminal(Action):
    action_type: ClassVar[str] = "terminal"
    channel: ClassVar[str] = "sdk"
    command: str


@dataclass(frozen=True)
class ReadFile(Action):
    action_type: ClassVar[str] = "read_file"
    channel: ClassVar[str] = "sdk"
    path: str


@dataclass(frozen=True)
class WriteFile(Action):
    action_type: ClassVar[str] = "write_file"
    channel: ClassVar[str] = "sdk"
    path: str
    content: str


@dataclass(frozen=True)
class EditFile(Action):
    """A file edit with the semantics of the `str_replace_editor` tool (SWE-agent / OpenHands, Seed,
    Anthropic's text editor): view (a file with line numbers, or a folder's listing), create,
    str_replace (old_str must occur exactly once), insert (new_str after line insert_line; 0 =
    at the top), undo_edit (the file as before its last edit in this episode)."""
    action_type: ClassVar[str] = "edit_file"
    channel: ClassVar[str] = "sdk"
    command: str            # view | create | str_replace | insert | undo_edit
    path: str
    file_text: str | None = None
    old_str: str | None = None
    new_str: str | None = None
    insert_line: int | None = None
    view_range: tuple[int, int] | None = None   # (first line, last line or -1), 1-based


EDIT_COMMANDS = ("view", "create", "str_replace", "insert", "undo_edit")


# --- control ---------------------------------------------------------------
@dataclass(frozen=True)
class Wait(Action):
    action_type: ClassVar[str] = "wait"
    channel: ClassVar[str] = "control"
    seconds: float = 1.0


@dataclass(frozen=True)
class Finished(Action):
    action_type: ClassVar[str] = "finished"
    channel: ClassVar[str] = "control"
    content: str = ""


@dataclass(frozen=True)
class CallUser(Action):
    action_type: ClassVar[str] = "call_user"
    channel: ClassVar[str] = "control"
    content: str = ""


ALL_ACTIONS: tuple[type[Action], ...] = (
    Click, DoubleClick, RightClick, MiddleClick, MoveTo, Drag, MouseDown, MouseUp, Scroll,
    TypeText, Hotkey, KeyDown, KeyUp,
    Tap, LongPress, Swipe, PressHome, PressBack, OpenApp,
    Terminal, ReadFile, WriteFile, EditFile,
    Wait, Finished, CallUser,
)
ACTION_TYPES: dict[str, type[Action]] = {cls.action_type: cls for cls in ALL_ACTIONS}


def field_names(cls: type[Action]) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


# --- shared vocabulary of the parsers ----------------------------------------
SCROLL_DIRECTIONS = ("up", "down", "left", "right")
MOUSE_BUTTONS = ("left", "right", "middle")


def choice(value: object, accepted: tuple[str, ...], what: str) -> str:
    """`value` lower-cased if it is one of `accepted`; else ActionError
    "{what} up/down/left/right, got 'sideways'"."""
    if isinstance(value, str) and value.strip().lower() in accepted:
        return value.strip().lower()
    raise ActionError(f"{what} {'/'.join(accepted)}, got {shown(value)}")


def seconds(value: object, what: str) -> float:
    """`value` as a number of seconds from 0 to MAX_STEP_SECONDS; else ActionError
    "{what} a number of seconds >= 0 and at most 30 ..." (`what`: "sleep() needs")."""
    if type(value) in (int, float) and 0 <= value <= MAX_STEP_SECONDS:   # also refuses nan
        return float(value)
    raise ActionError(f"{what} a number of seconds >= 0 and at most {MAX_STEP_SECONDS:g} (the most a step "
                      f"may wait), got {shown(value)}")


class _Shown(reprlib.Repr):
    """reprlib with ints too long to print (Python refuses str() of > 4300 digits) shown by size."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 160:
            return f"<a {'-' if x < 0 else ''}{int(x.bit_length() * 0.30103) + 1}-digit int>"
        return super().repr_int(x, level)


_SHOWN = _Shown()
_SHOWN.maxstring = _SHOWN.maxother = 80
_SHOWN.maxlevel, _SHOWN.maxlist, _SHOWN.maxtuple, _SHOWN.maxdict = 3, 6, 6, 4


def shown(value: object) -> str:
    """A short repr of agent input for an error message: bounded in length and depth, and
    safe for any object (huge ints, deep nesting, a __repr__ that raises)."""
    return _SHOWN.repr(value)


# --- limits: the most one agent output may ask for ----------------------------------
# Checked on every parsed step, whatever its form (`limits.check_limits`); MAX_STEP_SECONDS
# is also the env's time budget of a step as it runs (`HybridEnv._execute`).

#: longest action text read (a UI-TARS response, pyautogui code; all texts of a list
#: together); longer text is refused unread
MAX_TEXT_CHARS = 100_000
#: most actions in one step (list items, UI-TARS calls, code lines and their repeats all count)
MAX_ACTIONS = 200
#: deepest nesting of lists of actions
MAX_NESTING = 8
#: most repetitions one call may ask for (clicks=, presses=, scroll notches)
MAX_REPEAT = 100
#: seconds one step may spend: its waits and long presses together when parsed; as it runs,
#: its waits (the seconds they ask for) and the time its other actions take
MAX_STEP_SECONDS = 30.0
#: most characters typed in one step (all its type actions together)
MAX_TYPED_CHARS = 10_000
#: estimated seconds to type a character, in the step's time: one on the X keymap (ASCII,
#: Latin-1, newline, tab; measured 1-3 ms with the app's handling), any other (X maps it to a
#: spare keycode first and lets the app reload its keymap: measured 36 ms)
TYPE_KEY_SECONDS = 0.002
TYPE_OTHER_SECONDS = 0.04
#: most keys pressed together in one hotkey
MAX_HOTKEY_KEYS = 8
#: longest key name or key combination as written ('Ctrl + Shift + T'), in characters
MAX_KEY_CHARS = 100
#: longest terminal command, in UTF-8 bytes
MAX_COMMAND_BYTES = 16 * 1024
#: longest write_file content, in UTF-8 bytes
MAX_FILE_BYTES = 1 << 20
#: longest SDK file path, in UTF-8 bytes
MAX_PATH_BYTES = 4096
#: longest finished()/call_user() content, in characters
MAX_ANSWER_CHARS = 4096
#: longest app name, in characters
MAX_NAME_CHARS = 256


def too_many_keys(n: int) -> ActionError:
    return ActionError(f"hotkey() presses {n} keys together; at most {MAX_HOTKEY_KEYS} are pressed at once "
                       f"(e.g. hotkey(key='ctrl shift t')); press other keys in separate actions")
