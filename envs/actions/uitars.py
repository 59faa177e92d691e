"""Parser of UI-TARS responses ("Thought: ...\\nAction: click(point='<point>x y</point>')") into typed actions.

The text after `Action:` is one call, or several separated by blank lines, each
`name(key='value', ...)`.  It is read by a small scanner, never evaluated.
Strings take the escapes \\n \\t \\r \\\\ \\' \\" and the code escapes \\xXX, \\uXXXX and
\\UXXXXXXXX of Python and JSON (models write type(content='\\u4f60\\u597d')), a surrogate pair
\\ud83d\\ude00 as its one character; any other backslash stays as written (so 'C:\\Users'
survives), as does an escape of no character (a lone surrogate, a code past U+10FFFF).
If the text does not scan, it is scanned again with a `content` or `command` string
allowed to hold unescaped quotes of its own kind: it then ends at the quote that closes
its call, as in ui-tars's own `type(content='It's')` handling.

What served models add is read too: special tokens at the end of the text ([EOS],
<|im_end|>, <|endoftext|>, </s>) are dropped; a text that stops before the final ')' of
its last call is read as if it were there; a key call may name its key after itself
(press(press='tab'), hotkey(hotkey='ctrl c')).

Beyond UI-TARS's own calls (which read as they always did), three take an optional value that
the formatter writes when a typed action needs it: scroll(..., amount='3') notches (default 5),
wait(seconds='2') (default 5, the prompts' "Sleep for 5s"), long_press(..., duration='2') (1 s).

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
    MAX_ACTIONS, MAX_REPEAT, MOUSE_BUTTONS, SCROLL_DIRECTIONS, choice, seconds, shown,
)

#: seconds of a `wait()`: the UI-TARS prompts define it as "Sleep for 5s and take a screenshot"
WAIT_SECONDS = 5.0

# Parameters of each call ("[x]" is optional), after the renames in _RENAMED.
_SIGNATURES = {
    "click": "start_box", "left_single": "start_box", "left_double": "start_box",
    "right_single": "start_box", "middle_single": "start_box", "hover": "start_box", "move_to": "start_box",
    "mouse_down": "[start_box] [button]", "mouse_up": "[start_box] [button]",
    "drag": "start_box end_box", "select": "start_box end_box", "swipe": "start_box end_box",
    "scroll": "[start_box] direction [amount]",
    "type": "content", "hotkey": "key", "press": "key", "keydown": "key", "keyup": "key", "release": "key",
    "wait": "[seconds]", "finished": "[content]", "call_user": "[content]",
    "long_press": "start_box [duration]", "open_app": "app_name", "press_home": "", "press_back": "",
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
_AFTER_VALUE = re.compile(r"\s*(?:,|(?=\))|\Z)")
_CLOSE = re.compile(r"\s*\)")
_SPACE = re.compile(r"\s*")
_STRING_BODY = {q: re.compile(rf"(?:[^\\{q}]+|\\.)*", re.S) for q in "'\""}
_LENIENT_END = re.compile(r"\s*(?:,\s*[A-Za-z_]\w*\s*=|\)\s*(?:$|\n\s*\n)|\Z)")
_ESCAPE = re.compile(r"\\(?:u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|x([0-9a-fA-F]{2})|"
                     r"u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"'}
_POINT_TAGS = re.compile(r"</?(?:point|bbox)>|<\|box_(?:start|end)\|>|[()\[\]]")
#: special tokens a served model leaves at the end of its text (not the point markers <|box_end|>)
_END_TOKEN = re.compile(r"(?:\[EOS\]|</s>|<\|(?!box_)[A-Za-z_]{1,30}\|>)\Z")
#: most special tokens dropped from one text's end (more are left, and refused as unreadable)
_MOST_END_TOKENS = 8
#: key calls whose key may be passed under the call's own name: press(press='tab')
_KEY_CALLS = ("press", "keydown", "keyup", "release")
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)")   # (no nested repeats: linear on a long digit run)


def parse_uitars(text: str, space: CoordSpace, platform: str = "computer") -> list[Action]:
    """Typed actions of a UI-TARS response; coordinates are read in `space`.  On the
    "mobile" platform click is a Tap, drag a Swipe and scroll a Swipe of the finger."""
    calls = _scan_calls(_action_part(_without_end_tokens(text)))
    if not calls:
        raise ActionError("UI-TARS text has no call after 'Action:'; expected e.g. "
                          "Action: click(point='<point>100 200</point>')")
    return [_to_action(name, args, space, platform) for name, args in calls]


def looks_like_uitars(text: str) -> bool:
    """Whether `text` reads as a UI-TARS response rather than pyautogui code."""
    call = _CALL_OPEN.match(text)
    return bool(_ACTION_LINE.search(text) or (call and call.group(1) in _SIGNATURES) or _PREFIX.match(text)
                or (_ACTION_WORD.search(text) and "pyautogui." not in text))


def _without_end_tokens(text: str) -> str:
    """`text` without the special tokens at its end ([EOS], <|im_end|>, ...)."""
    for _ in range(_MOST_END_TOKENS):
        stripped = text.rstrip()
        token = _END_TOKEN.search(stripped, max(0, len(stripped) - 40))
        if token is None:
            break
        text = stripped[:token.start()]
    return text


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
        while True:
            if close := _CLOSE.match(text, pos):
                pos = close.end()
                break
            if _SPACE.match(text, pos).end() == len(text):     # the text stops before its final ')'
                pos = len(text)
                break
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
        pos = _SPACE.match(text, pos).end()
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
            return _ESCAPE.sub(_unescape, body), end + 1
        pos = end + 1


def _unescape(m: re.Match) -> str:
    """The character of one escape; the escape as written if it names none."""
    high, low, byte, short, long, other = m.groups()
    if high:
        return chr(0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00)
    code = int(byte or short or long or "0", 16) if other is None else None
    if code is None:
        return _ESCAPES.get(other, m.group())
    return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else m.group()


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
    args = {("key" if k == name and name in _KEY_CALLS else _RENAMED.get(k, k)): v for k, v in raw_args.items()}
    mark = None
    if "mark" in args and "start_box" in _SIGNATURES[name] and "start_box" not in args:   # click(mark=3)
        mark = space.mark(args.pop("mark").strip(" '\""), f"{name}()")
        args["start_box"] = ""
        raw_args = {k: v for k, v in raw_args.items() if k != "mark"} | {"start_box": ""}
    params = _SIGNATURES[name].split()
    required = {p for p in params if not p.startswith("[")}
    allowed = {p.strip("[]") for p in params}
    if len(args) != len(raw_args) or not required <= args.keys() <= allowed:
        given = [_word(k) for k in list(raw_args)[:6]] + (["..."] if len(raw_args) > 6 else [])
        raise ActionError(f"{name}() takes {_usage(name)}, got {name}({', '.join(given)})")
    mobile = platform == "mobile"

    def point(key: str = "start_box") -> tuple[int, int]:
        if key == "start_box" and mark is not None:
            return mark
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
        amount = {"amount": _whole(args["amount"], name)} if "amount" in args else {}
        return Scroll(direction, *(at or (None, None)), **amount)
    if name in ("mouse_down", "mouse_up"):
        button = choice(args.get("button", "left"), MOUSE_BUTTONS, f"{name}() needs button")
        at = point() if "start_box" in args else (None, None)
        return (MouseDown if name == "mouse_down" else MouseUp)(*at, button=button)
    if name in ("hotkey", "press"):     # press is a whole key press: down and up
        return Hotkey(split_hotkey(args["key"]))
    if name in ("keydown", "keyup", "release"):
        return (KeyDown if name == "keydown" else KeyUp)(normalize_key(args["key"]))
    if name == "long_press" and "duration" in args:
        return LongPress(*point(), duration=_seconds(args["duration"], "long_press() duration"))
    pointer = {"left_double": DoubleClick, "right_single": RightClick, "middle_single": MiddleClick,
               "hover": MoveTo, "move_to": MoveTo, "long_press": LongPress}
    if name in pointer:
        return pointer[name](*point())
    if name == "type":
        return TypeText(args["content"])
    if name == "wait":
        return Wait(_seconds(args["seconds"], "wait() seconds") if "seconds" in args else WAIT_SECONDS)
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


def _whole(value: str, name: str) -> int:
    if not re.fullmatch(r"\s*\d{1,6}\s*", value):
        raise ActionError(f"{name}() amount must be a whole number of notches from 1 to {MAX_REPEAT}, "
                          f"got {shown(value)}")
    return int(value)


def _seconds(value: str, what: str) -> float:
    number = value.strip()
    if not _NUMBER.fullmatch(number):
        raise ActionError(f"{what} must be a number of seconds, got {shown(value)}")
    return seconds(float(number), f"{what} must be")


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
    """Typed actions as UI-TARS text ("Action: call\\n\\ncall"), read back by parse_uitars: points as
    '<point>x y</point>' in `space`, strings in single quotes with \\\\, \\', \\n, \\t, \\r and \\xXX
    (other control characters) escaped.  On the phone a Click, Drag or Scroll is written as the call
    the phone performs it as (click, drag, scroll), which reads back as that: a Tap, a Swipe, the
    scroll's finger Swipe.  A scroll of other than 5 notches, a wait of other than 5 s and a long
    press of other than 1 s get the optional amount=, seconds= and duration=.  What the calls cannot
    say is refused with an ActionError: a Tap on a computer, a file edit."""
    return "Action: " + "\n\n".join(_call_text(a, space, platform) for a in actions)


def _call_text(a: Action, space: CoordSpace, platform: str) -> str:
    mobile = platform == "mobile"

    def point(x: int, y: int) -> str:
        return "'<point>" + " ".join(map(_number_text, space.coordinate((x, y)))) + "</point>'"

    def cannot(why: str):
        raise ActionError(f"UI-TARS text: cannot write {shown(a)}: {why}")

    pointer = {Click: "click", DoubleClick: "left_double", RightClick: "right_single", MiddleClick: "middle_single",
               MoveTo: "hover", Tap: "click"}
    if type(a) in pointer:
        if type(a) is Tap and not mobile:
            cannot("a tap is the phone's; on a computer write a Click")
        return f"{pointer[type(a)]}(point={point(a.x, a.y)})"
    if isinstance(a, (Drag, Swipe)):
        name = "drag" if isinstance(a, Drag) else "swipe"
        return f"{name}(start_point={point(a.x1, a.y1)}, end_point={point(a.x2, a.y2)})"
    if isinstance(a, (MouseDown, MouseUp)):
        args = ([f"point={point(a.x, a.y)}"] if a.x is not None and a.y is not None else []) + \
               ([f"button='{a.button}'"] if a.button != "left" else [])
        return f"{'mouse_down' if isinstance(a, MouseDown) else 'mouse_up'}({', '.join(args)})"
    if isinstance(a, Scroll):
        at = f"point={point(a.x, a.y)}, " if a.x is not None and a.y is not None else ""
        amount = f", amount='{a.amount}'" if a.amount != Scroll.amount and not mobile else ""
        return f"scroll({at}direction='{a.direction}'{amount})"
    if isinstance(a, TypeText):
        return f"type(content={_quoted(a.text)})"
    if isinstance(a, Hotkey):
        return f"hotkey(key={_quoted(' '.join('plus' if k == '+' else k for k in a.keys))})"
    if isinstance(a, (KeyDown, KeyUp)):
        return f"{'keydown' if isinstance(a, KeyDown) else 'keyup'}(key={_quoted(a.key)})"
    if isinstance(a, Wait):
        return "wait()" if a.seconds == WAIT_SECONDS else f"wait(seconds='{_number_text(a.seconds)}')"
    if isinstance(a, (Finished, CallUser)):
        name = "finished" if isinstance(a, Finished) else "call_user"
        return f"{name}(content={_quoted(a.content)})" if a.content else f"{name}()"
    if isinstance(a, LongPress):
        duration = f", duration='{_number_text(a.duration)}'" if a.duration != LongPress.duration else ""
        return f"long_press(point={point(a.x, a.y)}{duration})"
    if isinstance(a, OpenApp):
        return f"open_app(app_name={_quoted(a.app_name)})"
    if isinstance(a, (PressHome, PressBack)):
        return "press_home()" if isinstance(a, PressHome) else "press_back()"
    if isinstance(a, Terminal):
        return f"terminal(command={_quoted(a.command)})"
    if isinstance(a, ReadFile):
        return f"read_file(path={_quoted(a.path)})"
    if isinstance(a, WriteFile):
        return f"write_file(path={_quoted(a.path)}, content={_quoted(a.content)})"
    cannot(f"UI-TARS text has no call for {a.action_type}; calls: {', '.join(_SIGNATURES)}")


_QUOTED = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _quoted(text: str) -> str:
    """`text` as a single-quoted string the scanner reads back as exactly `text`."""
    return "'" + "".join(_QUOTED.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x20 or ord(c) == 0x7f else c)
                         for c in text) + "'"


def _number_text(value: int | float) -> str:
    """A coordinate as the point reader reads it: never in exponent notation."""
    text = repr(value)
    return f"{value:.7f}".rstrip("0") if "e" in text else text


def _parse_schema(output: object, space: CoordSpace, platform: str) -> list[Action]:
    if not isinstance(output, str):
        raise ActionError(f"UI-TARS text: expected the model's text, got {type(output).__name__} {shown(output)}")
    return parse_uitars(output, space, platform)


SCHEMA = register_schema(Schema(
    "uitars", "UI-TARS text", CoordMode.RELATIVE,
    "0..1000 on both axes (UI-TARS-1.0 and 1.5 as served with relative points); UI-TARS-1.5 trained on "
    "pixels of the smart-resized image wants coords='smart_resize'",
    lambda output: isinstance(output, str) and looks_like_uitars(output), _parse_schema, format_uitars))
