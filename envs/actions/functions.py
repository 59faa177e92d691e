"""The function vocabulary of tool-calling models: a function name and its arguments -> typed actions.

Seed / UI-TARS-2 XML tool calls name these functions (`<function=click><parameter=point>...`), and
the JSON schemas use them for the tools they add to the computer (an OpenAI `function_call`, an
Anthropic custom `tool_use`).  One table serves them all: `call_function` reads a call,
`function_of` writes one (the reverse: `call_function(*function_of(a, ...), ...) == [a]`), and
`FUNCTIONS` lists the signatures for the docs and the prompts.

Argument values may be text (as XML carries them: "<point>500 300</point>", "500 300", "5") or
JSON-typed (a list [500, 300], an int, a float): each parameter's type converts its value, and
refuses what it cannot read with an ActionError naming the schema, the function and its signature.

Typing: in `type(content)` the two characters backslash-n mean Enter (the UI-TARS convention
"use \\n at the end to submit") and are typed as a real newline, which presses Enter; a backslash
before them (backslash-backslash-n) types a literal backslash-n.  A real newline is Enter too.

Platforms: click, drag and scroll are the same functions on the phone (it performs a Click as a
tap, a Drag and a Scroll as swipes); the mobile-only functions (tap, long_press, swipe, open_app,
press_home, press_back) make the phone's own actions, which the codec refuses on a computer.
"""

from __future__ import annotations

import math
import re
from typing import Callable

from .coords import CoordSpace
from .keys import normalize_key, split_hotkey
from .model import (
    MOUSE_BUTTONS, SCROLL_DIRECTIONS, Action, ActionError, CallUser, Click, DoubleClick, Drag, EditFile, Finished,
    Hotkey, KeyDown, KeyUp, LongPress, MiddleClick, MouseDown, MouseUp, MoveTo, OpenApp, PressBack, PressHome,
    ReadFile, RightClick, Scroll, Swipe, Tap, Terminal, TypeText, Wait, WriteFile, choice, seconds, shown,
)

#: seconds of a `wait()` without `seconds`: the UI-TARS prompts' "Sleep for 5s and take a screenshot"
WAIT_SECONDS = 5.0

# Each function's parameters: (name, type, required).  Types: point, text, key, keys, direction,
# button, int, seconds, range.
_P = tuple[tuple[str, str, bool], ...]
_POINT: _P = (("point", "point", True),)
_TWO_POINTS: _P = (("start_point", "point", True), ("end_point", "point", True))
_PRESS: _P = (("point", "point", False), ("button", "button", False))
_EDITOR: _P = (("command", "text", True), ("path", "text", True), ("file_text", "text", False),
               ("old_str", "text", False), ("new_str", "text", False), ("insert_line", "int", False),
               ("view_range", "range", False))

_PARAMS: dict[str, _P] = {
    "click": _POINT, "left_double": _POINT, "right_single": _POINT, "middle_single": _POINT,
    "move_to": _POINT, "drag": _TWO_POINTS, "mouse_down": _PRESS, "mouse_up": _PRESS,
    "scroll": (("point", "point", False), ("direction", "direction", True), ("amount", "int", False)),
    "type": (("content", "text", True),), "hotkey": (("key", "keys", True),), "press": (("key", "keys", True),),
    "keydown": (("key", "key", True),), "keyup": (("key", "key", True),),
    "wait": (("seconds", "seconds", False),),
    "finished": (("content", "text", False),), "call_user": (("content", "text", False),),
    "tap": _POINT, "long_press": (("point", "point", True), ("duration", "seconds", False)),
    "swipe": _TWO_POINTS, "open_app": (("app_name", "text", True),), "press_home": (), "press_back": (),
    "execute_bash": (("command", "text", True),), "str_replace_editor": _EDITOR,
    "read_file": (("path", "text", True),), "write_file": (("path", "text", True), ("content", "text", True)),
}
#: other names models use for the same functions
ALIASES = {"left_single": "click", "hover": "move_to", "release": "keyup", "bash": "execute_bash",
           "terminal": "execute_bash", "str_replace_based_edit_tool": "str_replace_editor"}


def _signature(name: str) -> str:
    params = _PARAMS[ALIASES.get(name, name)]
    return f"{name}({', '.join(p if required else f'[{p}]' for p, _, required in params)})"


#: every function name (aliases too) -> its signature, "[x]" for an optional parameter
FUNCTIONS: dict[str, str] = {name: _signature(name) for name in (*_PARAMS, *ALIASES)}

_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,3})?")
_INT = re.compile(r"[-+]?\d{1,18}")
_LARGEST = 10**18
_POINT_MARKS = re.compile(r"</?(?:point|bbox)>|<\|box_(?:start|end)\|>|[()\[\]]")
_SPLIT = re.compile(r"[\s,]+")
_TYPED_NEWLINE = re.compile(r"\\(\\?)n")


def call_function(name: str, args: dict[str, object], space: CoordSpace, platform: str,
                  title: str) -> list[Action]:
    """The actions of one call of function `name` with `args`; points read in `space`.  Every
    refusal is an ActionError starting with `title` (the schema's), naming the function and its
    signature.  `platform` is the env's: the table is the same on both (the codec then refuses the
    phone's own actions on a computer)."""
    if not isinstance(name, str) or (ALIASES.get(name, name) not in _PARAMS):
        raise ActionError(f"{title}: unknown function {shown(name)}; functions: {', '.join(FUNCTIONS.values())}")
    if not isinstance(args, dict):
        raise ActionError(f"{title}: {name}() arguments must be an object of parameter names and values, "
                          f"got {shown(args)}; {name} takes {FUNCTIONS[name]}")
    base = ALIASES.get(name, name)
    params = _PARAMS[base]
    marked = None
    if "mark" in args and params and params[0] == ("point", "point", params[0][2]) and args.get("point") is None:
        try:                                   # <parameter=mark>3</parameter>: a set-of-marks mark's centre
            marked = space.mark(args["mark"], f"{name}()")
        except ActionError as e:
            raise ActionError(f"{title}: {e}") from None
        args = {k: v for k, v in args.items() if k != "mark"}
    known = {p for p, _, _ in params}
    extra = [k for k in args if k not in known]
    missing = [p for p, _, required in params if required and args.get(p) is None and not (p == "point" and marked)]
    if extra or missing:
        what = (f"unknown parameter {shown(extra[0])}" if extra else f"no {missing[0]}")
        raise ActionError(f"{title}: {name}() has {what}; it takes {FUNCTIONS[name]}")
    values = {"point": marked} if marked is not None else {}
    for param, kind, _ in params:
        if args.get(param) is not None:
            try:
                values[param] = _CONVERT[kind](args[param], space, f"{name}() {param}")
            except ActionError as e:
                raise ActionError(f"{title}: {e}; {name} takes {FUNCTIONS[name]}") from None
    return [_BUILD[base](values)]


def function_of(action: Action, space: CoordSpace, platform: str) -> tuple[str, dict[str, object]]:
    """(function name, JSON-typed arguments) that `call_function` reads back as exactly `action`:
    points as [x, y] in `space`, numbers as numbers.  ActionError if no function writes it."""
    if type(action) in _WRITERS:
        name, write = _WRITERS[type(action)]
        return name, write(action, space)
    raise ActionError(f"cannot write {shown(action)} as a function call; functions: {', '.join(FUNCTIONS)}")


def xml_text(param: str, value: object) -> str:
    """A JSON-typed argument of `function_of` as the text of an XML parameter (not yet escaped):
    a point as "<point>x y</point>", a range as "[first, last]", numbers as Python writes them."""
    if isinstance(value, list):
        if param.endswith("point"):
            return f"<point>{' '.join(map(_number_text, value))}</point>"
        return f"[{', '.join(map(_number_text, value))}]"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _number_text(value)
    return value if isinstance(value, str) else str(value)


def _number_text(value: int | float) -> str:
    """A number as written: an integral float as an int ("5", not "5.0"), any other the shortest repr."""
    return repr(value) if isinstance(value, float) and (abs(value) >= _LARGEST or value != int(value)) \
        else str(int(value))


# --- conversion of argument values, per parameter type --------------------------------------------
def _point(value: object, space: CoordSpace, what: str) -> tuple[int, int]:
    if isinstance(value, str):
        if len(value) > 200:
            raise ActionError(f"{what} must be a point like '<point>500 300</point>', got {shown(value)}")
        tokens = [t for t in _SPLIT.split(_POINT_MARKS.sub(" ", value)) if t]
        if len(tokens) not in (2, 4) or not all(_NUMBER.fullmatch(t) for t in tokens):
            raise ActionError(f"{what} must be a point '<point>x y</point>' (or a box '<bbox>x1 y1 x2 y2</bbox>', "
                              f"'x y', [x, y]), got {shown(value)}")
        value = [float(t) for t in tokens]
    if not isinstance(value, (list, tuple)):
        raise ActionError(f"{what} must be a point [x, y] or '<point>x y</point>', got {shown(value)}")
    return space.point(list(value), what)


def _text(value: object, space: CoordSpace, what: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return _number_text(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < _LARGEST:
        return str(value)
    raise ActionError(f"{what} must be text, got {shown(value)}")


def _int(value: object, space: CoordSpace, what: str) -> int:
    if isinstance(value, str) and _INT.fullmatch(value.strip()):
        return int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < _LARGEST:
        return value
    if isinstance(value, float) and math.isfinite(value) and value == int(value) and abs(value) < _LARGEST:
        return int(value)
    raise ActionError(f"{what} must be a whole number (of at most 18 digits), got {shown(value)}")


def _seconds(value: object, space: CoordSpace, what: str) -> float:
    if isinstance(value, str):
        if not _NUMBER.fullmatch(value.strip()):
            raise ActionError(f"{what} must be a number of seconds, got {shown(value)}")
        value = float(value.strip())
    return seconds(value, f"{what} must be")


def _range(value: object, space: CoordSpace, what: str) -> tuple[int, int]:
    if isinstance(value, str):
        value = [t for t in _SPLIT.split(value.strip().strip("[]()")) if t]
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ActionError(f"{what} must be two line numbers [first, last] (last -1: to the end), got {shown(value)}")
    return _int(value[0], space, what), _int(value[1], space, what)


_CONVERT: dict[str, Callable[[object, CoordSpace, str], object]] = {
    "point": _point, "text": _text, "int": _int, "seconds": _seconds, "range": _range,
    "key": lambda v, space, what: normalize_key(_text(v, space, what)),
    "keys": lambda v, space, what: split_hotkey(_text(v, space, what)),
    "direction": lambda v, space, what: choice(v, SCROLL_DIRECTIONS, f"{what} must be"),
    "button": lambda v, space, what: choice(v, MOUSE_BUTTONS, f"{what} must be"),
}


def _typed(content: str) -> str:
    """The text `type(content)` types: backslash-n is Enter, backslash-backslash-n a literal backslash-n."""
    return _TYPED_NEWLINE.sub(lambda m: "\\n" if m.group(1) else "\n", content)


def _untyped(text: str) -> str:
    """The reverse of `_typed`: content that types `text` (a literal backslash-n gets a backslash before it)."""
    return text.replace("\\n", "\\\\n")


_BUILD: dict[str, Callable[[dict], Action]] = {
    "click": lambda v: Click(*v["point"]), "left_double": lambda v: DoubleClick(*v["point"]),
    "right_single": lambda v: RightClick(*v["point"]), "middle_single": lambda v: MiddleClick(*v["point"]),
    "move_to": lambda v: MoveTo(*v["point"]), "tap": lambda v: Tap(*v["point"]),
    "drag": lambda v: Drag(*v["start_point"], *v["end_point"]),
    "swipe": lambda v: Swipe(*v["start_point"], *v["end_point"]),
    "mouse_down": lambda v: MouseDown(*v.get("point", (None, None)), button=v.get("button", "left")),
    "mouse_up": lambda v: MouseUp(*v.get("point", (None, None)), button=v.get("button", "left")),
    "scroll": lambda v: Scroll(v["direction"], *v.get("point", (None, None)), amount=v.get("amount", 5)),
    "type": lambda v: TypeText(_typed(v["content"])),
    "hotkey": lambda v: Hotkey(v["key"]), "press": lambda v: Hotkey(v["key"]),
    "keydown": lambda v: KeyDown(v["key"]), "keyup": lambda v: KeyUp(v["key"]),
    "wait": lambda v: Wait(v.get("seconds", WAIT_SECONDS)),
    "finished": lambda v: Finished(v.get("content", "")), "call_user": lambda v: CallUser(v.get("content", "")),
    "long_press": lambda v: LongPress(*v["point"], **({"duration": v["duration"]} if "duration" in v else {})),
    "open_app": lambda v: OpenApp(v["app_name"]), "press_home": lambda v: PressHome(),
    "press_back": lambda v: PressBack(), "execute_bash": lambda v: Terminal(v["command"]),
    "read_file": lambda v: ReadFile(v["path"]), "write_file": lambda v: WriteFile(v["path"], v["content"]),
    "str_replace_editor": lambda v: EditFile(**v),
}


# --- writing actions as calls ---------------------------------------------------------------------
def _at(space: CoordSpace, x: int | None, y: int | None) -> dict[str, object]:
    return {} if x is None or y is None else {"point": list(space.coordinate((x, y)))}


def _key_text(key: str) -> str:
    return "plus" if key == "+" else key     # 'ctrl +' does not split; 'ctrl plus' does


def _editor_args(a: EditFile, space: CoordSpace) -> dict[str, object]:
    args = {k: v for k, v in vars(a).items() if v is not None}
    if a.view_range is not None:
        args["view_range"] = list(a.view_range)
    return args


_WRITERS: dict[type, tuple[str, Callable[[Action, CoordSpace], dict[str, object]]]] = {
    Click: ("click", lambda a, s: _at(s, a.x, a.y)), DoubleClick: ("left_double", lambda a, s: _at(s, a.x, a.y)),
    RightClick: ("right_single", lambda a, s: _at(s, a.x, a.y)),
    MiddleClick: ("middle_single", lambda a, s: _at(s, a.x, a.y)),
    MoveTo: ("move_to", lambda a, s: _at(s, a.x, a.y)), Tap: ("tap", lambda a, s: _at(s, a.x, a.y)),
    Drag: ("drag", lambda a, s: {"start_point": list(s.coordinate((a.x1, a.y1))),
                                 "end_point": list(s.coordinate((a.x2, a.y2)))}),
    Swipe: ("swipe", lambda a, s: {"start_point": list(s.coordinate((a.x1, a.y1))),
                                   "end_point": list(s.coordinate((a.x2, a.y2)))}),
    MouseDown: ("mouse_down", lambda a, s: {**_at(s, a.x, a.y), "button": a.button}),
    MouseUp: ("mouse_up", lambda a, s: {**_at(s, a.x, a.y), "button": a.button}),
    Scroll: ("scroll", lambda a, s: {**_at(s, a.x, a.y), "direction": a.direction, "amount": a.amount}),
    TypeText: ("type", lambda a, s: {"content": _untyped(a.text)}),
    Hotkey: ("hotkey", lambda a, s: {"key": " ".join(map(_key_text, a.keys))}),
    KeyDown: ("keydown", lambda a, s: {"key": a.key}), KeyUp: ("keyup", lambda a, s: {"key": a.key}),
    Wait: ("wait", lambda a, s: {"seconds": a.seconds}),
    Finished: ("finished", lambda a, s: {"content": a.content} if a.content else {}),
    CallUser: ("call_user", lambda a, s: {"content": a.content} if a.content else {}),
    LongPress: ("long_press", lambda a, s: {**_at(s, a.x, a.y), "duration": a.duration}),
    OpenApp: ("open_app", lambda a, s: {"app_name": a.app_name}),
    PressHome: ("press_home", lambda a, s: {}), PressBack: ("press_back", lambda a, s: {}),
    Terminal: ("execute_bash", lambda a, s: {"command": a.command}),
    ReadFile: ("read_file", lambda a, s: {"path": a.path}),
    WriteFile: ("write_file", lambda a, s: {"path": a.path, "content": a.content}),
    EditFile: ("str_replace_editor", _editor_args),
}
