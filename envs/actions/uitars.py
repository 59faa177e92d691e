"""Parser of UI-TARS responses ("Thought: ...\\nAction: click(point='<point>x y</point>')") into typed actions.

The text after `Action:` is one call, or several separated by blank lines, each
`name(key='value', ...)`.  It is read by a small scanner, never evaluated.
Strings take the escapes \\n \\t \\r \\\\ \\' \\"; any other backslash stays as
written (so 'C:\\Users' survives).  If the text does not scan, it is scanned
again with a `content` or `command` string allowed to hold unescaped quotes of
its own kind: it then ends at the quote that closes its call, as in
ui-tars's own `type(content='It's')` handling.

Points may be '<point>x y</point>', '<point>x1 y1 x2 y2</point>',
'<bbox>x1 y1 x2 y2</bbox>', '(x,y)', '(x1,y1,x2,y2)', '[x1, y1, x2, y2]' or
'<|box_start|>(x,y)<|box_end|>'; a box means its centre.
"""

from __future__ import annotations

import re

from .coords import CoordMode, CoordSpace
from .schemas import Schema, register_schema
from .keys import normalize_key, split_hotkey
from .model import (
    Action, ActionError, CallUser, Click, DoubleClick, Drag, Finished, Hotkey, KeyDown, KeyUp,
    LongPress, MiddleClick, MouseDown, MouseUp, MoveTo, OpenApp, PressBack, PressHome, ReadFile,
    RightClick, Scroll, Swipe, Tap, Terminal, TypeText, Wait, WriteFile,
    MAX_ACTIONS, MOUSE_BUTTONS, SCROLL_DIRECTIONS, choice, shown,
)

#: seconds of a `wait()`: the UI-TARS prompts define it as "Sleep for 5s and take a screenshot"
WAIT_SECONDS = 5.0

# Parameters of each call ("[x]" is optional), after the renames in _RENAMED.
_SIGNATURES = {
    "click": "start_box", "left_single": "start_box", "left_double": "start_box",
    "right_single": "start_box", "middle_single": "start_box", "hover": "start_box", "move_to": "start_box",
    "mouse_down": "[start_box] [button]", "mouse_up": "[start_box] [button]",
    "drag": "start_box end_box", "select": "start_box end_box", "swipe": "start_box end_box",
    "scroll": "[start_box] direction",
    "type": "content", "hotkey": "key", "press": "key", "keydown": "key", "keyup": "key", "release": "key",
    "wait": "", "finished": "[content]", "call_user": "[content]",
    "long_press": "start_box", "open_app": "app_name", "press_home": "", "press_back": "",
    "terminal": "command", "read_file": "path", "write_file": "path content",
}
_RENAMED = {"point": "start_box", "start_point": "start_box", "end_point": "end_box", "hotkey": "key"}
_EXAMPLES = {"start_box": "point='<point>x y</point>'", "end_box": "end_point='<point>x y</point>'",
             "direction": "direction='down'", "key": "key='ctrl c'", "button": "button='left'"}
_FREE_TEXT = ("content", "command")
_FINGER = {"up": (0, 1), "down": (0, -1), "left": (1, 0), "right": (-1, 0)}  # finger motion per scroll

_ACTION_LINE = re.compile(r"^[ \t]*Action:[ \t]*", re.M)
_ACTION_WORD = re.compile(r"(?:^|(?<=\s))Action:[ \t]*")
_PREFIX = re.compile(r"\s*(?:Thought|Reflection|Action_Summary):")
_CALL_OPEN = re.compile(r"\s*([A-Za-z_]\w*)\s*\(")
_KEY = re.compile(r"\s*([A-Za-z_]\w*)\s*=\s*")
_BARE = re.compile(r"<(\w+)>[^<]*</\1>|\([^()]*\)|\[[^\[\]]*\]|[^\s,()]+")
_AFTER_VALUE = re.compile(r"\s*(?:,|(?=\)))")
_CLOSE = re.compile(r"\s*\)")
_SPACE = re.compile(r"\s*")
_STRING_BODY = {q: re.compile(rf"(?:[^\\{q}]+|\\.)*", re.S) for q in "'\""}
_LENIENT_END = re.compile(r"\s*(?:,\s*[A-Za-z_]\w*\s*=|\)\s*(?:$|\n\s*\n))")
_ESCAPE = re.compile(r"\\(.)", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"'}
_POINT_TAGS = re.compile(r"</?(?:point|bbox)>|<\|box_(?:start|end)\|>|[()\[\]]")
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)")   # (no nested repeats: linear on a long digit run)


def parse_uitars(text: str, space: CoordSpace, platform: str = "computer") -> list[Action]:
    """Typed actions of a UI-TARS response; coordinates are read in `space`.  On the
    "mobile" platform click is a Tap, drag a Swipe and scroll a Swipe of the finger."""
    calls = _scan_calls(_action_part(text))
    if not calls:
        raise ActionError("UI-TARS text has no call after 'Action:'; expected e.g. "
                          "Action: click(point='<point>100 200</point>')")
    return [_to_action(name, args, space, platform) for name, args in calls]


def looks_like_uitars(text: str) -> bool:
    """Whether `text` reads as a UI-TARS response rather than pyautogui code."""
    call = _CALL_OPEN.match(text)
    return bool(_ACTION_LINE.search(text) or (call and call.group(1) in _SIGNATURES) or _PREFIX.match(text)
                or (_ACTION_WORD.search(text) and "pyautogui." not in text))


def _action_part(text: str) -> str:
    match = _ACTION_LINE.search(text) or _ACTION_WORD.search(text)
    if match:
        return text[match.end():]
    if _CALL_OPEN.match(text):
        return text
    raise ActionError(f"UI-TARS text needs 'Action: <call>', e.g. Action: click(point='<point>100 200</point>'); "
                      f"got {_excerpt(text, 0)}")


def _scan_calls(text: str) -> list[tuple[str, dict[str, str]]]:
    try:
        return _scan(text, lenient=False)
    except ActionError as strict_error:
        try:
            return _scan(text, lenient=True)
        except ActionError:
            raise strict_error from None


def _scan(text: str, lenient: bool) -> list[tuple[str, dict[str, str]]]:
    calls, pos = [], _SPACE.match(text).end()
    while pos < len(text):
        match = _CALL_OPEN.match(text, pos) or _fail(text, pos, "expected a call like click(...)")
        name, pos, args = match.group(1), match.end(), {}
        while not (close := _CLOSE.match(text, pos)):
            match = _KEY.match(text, pos) or _fail(text, pos, f"expected key='value' or ')' in {_word(name)}()")
            key, pos = match.group(1), match.end()
            if key in args:
                _fail(text, match.start(1), f"{_word(name)}() has {_word(key)}= twice")
            if text[pos:pos + 1] in ("'", '"'):
                args[key], pos = _string(text, pos, lenient and key in _FREE_TEXT)
            else:
                match = _BARE.match(text, pos) or _fail(text, pos, f"expected a value for {_word(key)}=")
                args[key], pos = match.group(), match.end()
            match = _AFTER_VALUE.match(text, pos) or _fail(text, pos, f"expected ',' or ')' after {_word(key)}=...")
            pos = match.end()
        pos = _SPACE.match(text, close.end()).end()
        calls.append((name, args))
        if len(calls) > MAX_ACTIONS:
            raise ActionError(f"UI-TARS text has more than {MAX_ACTIONS} calls; at most {MAX_ACTIONS} actions are "
                              f"performed per step; send the rest in later steps")
    return calls


def _string(text: str, start: int, lenient: bool) -> tuple[str, int]:
    """The string literal at `start` and the position after it."""
    quote, pos = text[start], start + 1
    while True:
        end = _STRING_BODY[quote].match(text, pos).end()
        if end == len(text) or text[end] != quote:     # ran out, or a lone backslash at the very end
            _fail(text, start, "unterminated string")
        if not lenient or _LENIENT_END.match(text, end + 1):
            body = text[start + 1:end]
            return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group()), body), end + 1
        pos = end + 1


def _fail(text: str, pos: int, message: str):
    raise ActionError(f"cannot read UI-TARS action at {_excerpt(text, pos)}: {message}")


def _word(name: str) -> str:
    """A name from the agent's text (a call, a key), cut short for an error message."""
    return name if len(name) <= 40 else name[:40] + "..."


def _excerpt(text: str, pos: int) -> str:
    if pos >= len(text):
        return "the end of the text"
    part = text[pos:pos + 60]
    return repr(part + "..." if len(text) > pos + 60 else part)


def _usage(name: str) -> str:
    params = []
    for param in _SIGNATURES[name].split():
        key = param.strip("[]")
        example = _EXAMPLES.get(key, f"{key}='...'")
        params.append(f"[{example}]" if param.startswith("[") else example)
    return f"{name}({', '.join(params)})"


def _to_action(name: str, raw_args: dict[str, str], space: CoordSpace, platform: str) -> Action:
    if name not in _SIGNATURES:
        raise ActionError(f"unknown UI-TARS action {_word(name)}(); accepted: {', '.join(_SIGNATURES)}")
    args = {_RENAMED.get(k, k): v for k, v in raw_args.items()}
    params = _SIGNATURES[name].split()
    required = {p for p in params if not p.startswith("[")}
    allowed = {p.strip("[]") for p in params}
    if len(args) != len(raw_args) or not required <= args.keys() <= allowed:
        given = [_word(k) for k in list(raw_args)[:6]] + (["..."] if len(raw_args) > 6 else [])
        raise ActionError(f"{name}() takes {_usage(name)}, got {name}({', '.join(given)})")
    mobile = platform == "mobile"

    def point(key: str = "start_box") -> tuple[int, int]:
        return space.point(_numbers(args[key], name), f"{name}()")

    if name in ("click", "left_single"):
        return Tap(*point()) if mobile else Click(*point())
    if name in ("drag", "select", "swipe"):
        return (Swipe if mobile or name == "swipe" else Drag)(*point(), *point("end_box"))
    if name == "scroll":
        direction = choice(args["direction"], SCROLL_DIRECTIONS, "scroll() needs direction")
        at = point() if "start_box" in args else None
        if mobile:
            return scroll_swipe(direction, at, space.screen)
        return Scroll(direction, *(at or (None, None)))
    if name in ("mouse_down", "mouse_up"):
        button = choice(args.get("button", "left"), MOUSE_BUTTONS, f"{name}() needs button")
        at = point() if "start_box" in args else (None, None)
        return (MouseDown if name == "mouse_down" else MouseUp)(*at, button=button)
    if name in ("hotkey", "press"):     # press is a whole key press: down and up
        return Hotkey(split_hotkey(args["key"]))
    if name in ("keydown", "keyup", "release"):
        return (KeyDown if name == "keydown" else KeyUp)(normalize_key(args["key"]))
    pointer = {"left_double": DoubleClick, "right_single": RightClick, "middle_single": MiddleClick,
               "hover": MoveTo, "move_to": MoveTo, "long_press": LongPress}
    if name in pointer:
        return pointer[name](*point())
    if name == "type":
        return TypeText(args["content"])
    if name == "wait":
        return Wait(WAIT_SECONDS)
    if name in ("finished", "call_user"):
        return (Finished if name == "finished" else CallUser)(args.get("content", ""))
    if name == "open_app":
        return OpenApp(args["app_name"])
    if name == "terminal":
        return Terminal(args["command"])
    if name == "read_file":
        return ReadFile(args["path"])
    if name == "write_file":
        return WriteFile(args["path"], args["content"])
    return PressHome() if name == "press_home" else PressBack()


def _numbers(value: str, name: str) -> list[float]:
    tokens = [t for t in re.split(r"[\s,]+", _POINT_TAGS.sub(" ", value)) if t]
    if len(tokens) not in (2, 4) or not all(_NUMBER.fullmatch(t) for t in tokens):
        raise ActionError(f"{name}() point must be '<point>x y</point>', '<bbox>x1 y1 x2 y2</bbox>', "
                          f"'(x,y)' or '(x1,y1,x2,y2)', got {shown(value)}")
    return [float(t) for t in tokens]


def scroll_swipe(direction: str, at: tuple[int, int] | None, screen: tuple[int, int]) -> Swipe:
    """The finger stroke that scrolls content `direction` (scroll down: the finger moves up):
    half a screen long, centred at `at` or the screen centre, its ends kept out of the
    outer tenth of the screen, where a stroke would be a system gesture (home, notifications)."""
    w, h = screen
    cx, cy = at or (w // 2, h // 2)
    dx, dy = _FINGER[direction]
    half_x, half_y = dx * w // 4, dy * h // 4

    def inside(v: int, size: int) -> int:
        return max(size // 10, min(size - 1 - size // 10, v))

    return Swipe(inside(cx - half_x, w), inside(cy - half_y, h), inside(cx + half_x, w), inside(cy + half_y, h))


def format_uitars(actions, space: CoordSpace, platform: str = "computer") -> str:
    """Typed actions as UI-TARS text ("Action: call\\n\\ncall"), read back by parse_uitars."""
    raise NotImplementedError   # (written by the formatter work of issue 16)


def _parse_schema(output: object, space: CoordSpace, platform: str) -> list[Action]:
    if not isinstance(output, str):
        raise ActionError(f"UI-TARS text: expected the model's text, got {type(output).__name__} {shown(output)}")
    return parse_uitars(output, space, platform)


SCHEMA = register_schema(Schema(
    "uitars", "UI-TARS text", CoordMode.RELATIVE,
    "0..1000 on both axes (UI-TARS-1.0 and 1.5 as served with relative points); UI-TARS-1.5 trained on "
    "pixels of the smart-resized image wants coords='smart_resize'",
    lambda output: isinstance(output, str) and looks_like_uitars(output), _parse_schema, format_uitars))
