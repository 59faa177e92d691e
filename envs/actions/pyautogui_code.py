"""Reader of pyautogui code ("pyautogui.click(100, 200)") into typed actions, through an `ast` whitelist.

Allowed: `import pyautogui`, `import time`, string-literal lines (comments), and
calls `pyautogui.<f>(...)` of the functions in `_SIGNATURES` or `time.sleep(...)`
whose arguments are literals (numbers, strings, lists, tuples, True/False/None).
Anything else raises ActionError naming the construct.  Nothing is executed.

`dragTo` and `drag` start where the pointer is: the last position the same
code string moved it to.  Code inside ``` fences is read without the fences.
"""

from __future__ import annotations

import ast
import re
import warnings

from .coords import CoordMode, CoordSpace
from .schemas import Schema, register_schema
from .keys import normalize_key, split_hotkey
from .model import (
    MAX_ACTIONS, MAX_REPEAT, MOUSE_BUTTONS, Action, ActionError, Click, DoubleClick, Drag, Hotkey, KeyDown, KeyUp,
    MiddleClick, MouseDown, MouseUp, MoveTo, RightClick, Scroll, TypeText, Wait, choice, seconds, shown,
    CallUser, Finished,
)

# pyautogui's positional parameters of each function ("*keys": any number of keys)
_SIGNATURES = {
    "click": ("x", "y", "clicks", "interval", "button", "duration", "tween"),
    "doubleClick": ("x", "y", "interval", "button", "duration", "tween"),
    "rightClick": ("x", "y", "duration", "tween"),
    "middleClick": ("x", "y", "duration", "tween"),
    "moveTo": ("x", "y", "duration", "tween"),
    "dragTo": ("x", "y", "duration", "tween", "button"),
    "drag": ("xOffset", "yOffset", "duration", "tween", "button"),
    "mouseDown": ("x", "y", "button", "duration", "tween"),
    "mouseUp": ("x", "y", "button", "duration", "tween"),
    "scroll": ("clicks", "x", "y"),
    "vscroll": ("clicks", "x", "y"),
    "hscroll": ("clicks", "x", "y"),
    "write": ("message", "interval"),
    "typewrite": ("message", "interval"),
    "press": ("keys", "presses", "interval"),
    "hotkey": ("*keys",),
    "keyDown": ("key",),
    "keyUp": ("key",),
    "sleep": ("seconds",),
}
# keywords pyautogui takes that change nothing here (timing, logging); the timing ones must
# still be sensible numbers of seconds
_IGNORED = frozenset({"interval", "duration", "tween", "logScreenshot", "_pause", "mouseDownUp"})
_TIMING = ("interval", "duration")
_ACCEPTED = ("accepted: import pyautogui/time and calls of "
             + ", ".join(f"pyautogui.{f}" for f in _SIGNATURES) + ", time.sleep with literal arguments")
_BUTTONS = {"primary": "left", "secondary": "right"}
#: beyond any screen: a drag() offset past it is refused before it is added to the pointer
_FAR_OFFSET = 10**9
#: code longer than this is first read in a head of about this many characters (see `actions`)
_HEAD_CHARS = 8000
_CODE_START = re.compile(r"\s*(?:import\s|from\s|```|[\w.]+\s*\()")
_LINE_END = re.compile(r"\r\n|\r|\n")      # the line ends of Python's tokenizer
_FENCE = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)```", re.S)


#: OSWorld's special answers beside pyautogui code: the task is done, cannot be done, or wait a moment
SPECIAL_CODES = {"DONE": Finished(""), "FAIL": CallUser(""), "WAIT": Wait(1.0)}


def looks_like_pyautogui(text: str) -> bool:
    """Whether `text` reads as pyautogui code, or Python meant as such (checked after `looks_like_uitars`)."""
    return "pyautogui." in text or bool(_CODE_START.match(text)) or text.strip() in SPECIAL_CODES


def parse_pyautogui(code: str, space: CoordSpace) -> list[Action]:
    """Typed actions of a pyautogui code string; coordinates are read in `space`."""
    return _Reader(code, space).actions()


class _Reader:
    def __init__(self, code: str, space: CoordSpace) -> None:
        fenced = _FENCE.findall(code)
        self.code = ("\n".join(fenced) if fenced else code).strip()
        self.space = space
        self.pointer: tuple[float, float] | None = None   # in the agent's coordinates
        self.lines: list[str] | None = None                 # of the code, once an error shows a part of it

    def actions(self) -> list[Action]:
        if len(self.code) > _HEAD_CHARS:
            # A flood of small statements is refused for their number, after reading a head of
            # the code, not all of it (ast.parse of 100k characters of calls takes most of a
            # second). The statements of a head that parses, but its last, are those of the whole
            # code; an error in them is one of the whole code (which may hold others further on).
            cut = max(self.code.rfind("\n", 0, _HEAD_CHARS), self.code.rfind(";", 0, _HEAD_CHARS))
            head = self._tree(self.code[:cut], quiet=True) if cut > 0 else None
            if head is not None and len(head.body) > 1:
                self._read(head.body[:-1])
                self.pointer = None
        return self._read(self._tree(self.code).body)

    def _tree(self, code: str, quiet: bool = False) -> ast.Module | None:
        """The syntax tree of `code`, or ActionError saying why there is none (None if `quiet`)."""
        try:
            with warnings.catch_warnings():        # e.g. SyntaxWarning for '\d' in the agent's strings
                warnings.simplefilter("ignore")
                return ast.parse(code, mode="exec")
        except SyntaxError as e:
            msg = "a number is too long (more than 4300 digits)" if "integer string conversion" in e.msg else e.msg
            error = ActionError(f"pyautogui code does not parse: {msg}"
                                + (f" (line {e.lineno})" if e.lineno is not None else ""))
        except ValueError as e:                   # e.g. null bytes
            error = ActionError(f"pyautogui code cannot be read: {e}")
        except (RecursionError, MemoryError, OverflowError):
            error = ActionError("pyautogui code is nested too deeply (or is too large) to read")
        if quiet:
            return None
        raise error

    def _read(self, statements: list[ast.stmt]) -> list[Action]:
        actions = []
        for stmt in statements:
            if isinstance(stmt, ast.Import) and all(
                    a.name in ("pyautogui", "time") and a.asname is None for a in stmt.names):
                continue
            if isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                                              and isinstance(stmt.value.value, str)):
                continue
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Name) and stmt.value.id in SPECIAL_CODES:
                actions.append(SPECIAL_CODES[stmt.value.id])      # DONE / FAIL / WAIT, as OSWorld's agents write
                continue
            if not isinstance(stmt, ast.Expr):
                raise ActionError(f"line {stmt.lineno}: {self._show(stmt)} ({type(stmt).__name__}) is not allowed; "
                                  f"{_ACCEPTED}")
            if not isinstance(stmt.value, ast.Call):
                raise ActionError(f"line {stmt.lineno}: {self._show(stmt)} is not a call; {_ACCEPTED}")
            actions.extend(self._call(stmt.value))
            if len(actions) > MAX_ACTIONS:
                raise ActionError(f"line {stmt.lineno}: the code makes more than {MAX_ACTIONS} actions; at most "
                                  f"{MAX_ACTIONS} are performed per step; send the rest in later steps")
        return actions

    def _show(self, node: ast.AST) -> str:
        """The start of `node`'s source, for an error (ast.get_source_segment is slow on long code)."""
        if self.lines is None:
            self.lines = _LINE_END.split(self.code)
        line = self.lines[node.lineno - 1].encode("utf-8", "surrogatepass")   # offsets are of UTF-8 bytes
        end = node.end_col_offset if node.end_lineno == node.lineno else len(line)
        text = line[node.col_offset:min(end, node.col_offset + 244)].decode("utf-8", "ignore")
        more = node.end_lineno != node.lineno or end > node.col_offset + 244 or len(text) > 60
        return f"`{text[:60]}{'...' if more else ''}`"

    def _call(self, call: ast.Call) -> list[Action]:
        func = call.func
        module = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None
        name = func.attr if module else None
        if not ((module == "pyautogui" and name in _SIGNATURES) or (module == "time" and name == "sleep")):
            raise ActionError(f"line {call.lineno}: {self._show(func)} is not an allowed call; {_ACCEPTED}")
        return _HANDLERS[name](self, name, self._bind(name, call))

    def _bind(self, name: str, call: ast.Call) -> dict:
        params = _SIGNATURES[name]
        positional = [self._literal(a) for a in call.args]
        if params == ("*keys",):
            args = {"keys": positional}
        elif len(positional) > len(params):
            raise ActionError(f"{name}() takes at most {len(params)} positional arguments "
                              f"({', '.join(params)}), got {len(positional)}")
        else:
            args = dict(zip(params, positional))
        for kw in call.keywords:
            if kw.arg is None:
                raise ActionError(f"line {call.lineno}: {self._show(kw)} (**kwargs) is not allowed; "
                                  f"pass arguments by name")
            if kw.arg == "mark" and "x" in params and "mark" not in args:   # click(mark=3): a set-of-marks mark
                args["mark"] = self._literal(kw.value)
                continue
            if kw.arg in args or (kw.arg not in params and kw.arg not in _IGNORED):
                accepted = [p for p in params if p != "*keys"] + sorted(_IGNORED - set(params))
                word = kw.arg if len(kw.arg) <= 40 else kw.arg[:40] + "..."
                raise ActionError(f"{name}() got {'a repeated' if kw.arg in args else 'an unknown'} argument "
                                  f"{word}=; accepted: {', '.join(accepted)}")
            args[kw.arg] = self._literal(kw.value)
        for key in _TIMING:
            if args.get(key) is not None:
                seconds(args[key], f"{name}() {key}= (ignored here: actions take their own time) must be")
        return args

    def _literal(self, node: ast.AST):
        if isinstance(node, ast.Constant) and (node.value is None or type(node.value) in (bool, int, float, str)):
            return node.value
        if (isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd))
                and isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float)):
            return -node.operand.value if isinstance(node.op, ast.USub) else node.operand.value
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self._literal(e) for e in node.elts]
        raise ActionError(f"line {node.lineno}: argument {self._show(node)} ({type(node).__name__}) is not a literal; "
                          f"pyautogui arguments must be numbers, strings, lists, tuples, True/False/None")

    # --- pointer ---------------------------------------------------------
    def _target(self, name: str, args: dict) -> tuple[int, int] | None:
        """Pixel of the call's x, y (or one (x, y) pair); None when both are left out."""
        px, py = args.get("x"), args.get("y")
        if args.get("mark") is not None:
            if px is not None or py is not None:
                raise ActionError(f"{name}() takes a mark= or x, y, not both")
            at = self.space.mark(args["mark"], f"{name}()")
            self.pointer = self.space.coordinate(at)
            return at
        if isinstance(px, list) and py is None:      # pyautogui.click((100, 200))
            if len(px) != 2:
                raise ActionError(f"{name}() takes a point as x, y or (x, y), got {shown(px)}")
            px, py = px
        if px is None and py is None:
            return None
        if px is None or py is None:
            raise ActionError(f"{name}() needs both x and y, got x={shown(px)}, y={shown(py)}")
        at = self.space.point((px, py), f"{name}()")
        self.pointer = (px, py)
        return at

    def _required_target(self, name: str, args: dict) -> tuple[int, int]:
        """Pixel of the call's x, y, or of the pointer when they are left out."""
        at = self._target(name, args)
        if at is None and self.pointer is not None:
            at = self.space.point(self.pointer, f"{name}()")
        if at is None:
            raise ActionError(f"{name}() without x, y acts where the pointer is, which is unknown here; "
                              f"give x and y, or moveTo(x, y) earlier in the same code")
        return at

    def _do_click(self, name: str, args: dict) -> list[Action]:
        at = self._required_target(name, args)
        button = {"rightClick": "right", "middleClick": "middle"}.get(name) or _button(name, args)
        clicks = 2 if name == "doubleClick" else _count(name, args, "clicks")
        if button == "left" and clicks == 2:
            return [DoubleClick(*at)]
        return [{"left": Click, "right": RightClick, "middle": MiddleClick}[button](*at)] * clicks

    def _do_moveTo(self, name: str, args: dict) -> list[Action]:
        return [MoveTo(*self._required_target(name, args))]

    def _do_dragTo(self, name: str, args: dict) -> list[Action]:
        if self.pointer is None:
            raise ActionError(f"{name}() drags from where the pointer is, which is unknown here; "
                              f"moveTo(x, y) first in the same code")
        if _button(name, args) != "left":
            raise ActionError(f"{name}() drags with button='left' only, got {shown(args['button'])}")
        start = self.space.point(self.pointer, f"{name}()")
        if name == "drag":
            dx, dy = args.get("xOffset", 0), args.get("yOffset", 0)
            if not all(type(v) in (int, float) and -_FAR_OFFSET <= v <= _FAR_OFFSET for v in (dx, dy)):  # (not nan)
                raise ActionError(f"drag() needs numbers xOffset, yOffset that keep the pointer on the screen, "
                                  f"got {shown(dx)}, {shown(dy)}")
            args = {"x": self.pointer[0] + dx, "y": self.pointer[1] + dy}
        return [Drag(*start, *self._required_target(name, args))]

    def _do_mouseDown(self, name: str, args: dict) -> list[Action]:
        at = self._target(name, args) or (None, None)
        return [(MouseDown if name == "mouseDown" else MouseUp)(*at, button=_button(name, args))]

    def _do_scroll(self, name: str, args: dict) -> list[Action]:
        clicks = args.get("clicks")
        if type(clicks) is not int or clicks == 0 or abs(clicks) > MAX_REPEAT:
            raise ActionError(f"{name}() needs a non-zero int number of clicks within ±{MAX_REPEAT}, "
                              f"got {shown(clicks)}")
        direction = ("right" if clicks > 0 else "left") if name == "hscroll" else ("up" if clicks > 0 else "down")
        at = self._target(name, args)
        return [Scroll(direction, *(at or (None, None)), amount=abs(clicks))]

    # --- keyboard --------------------------------------------------------
    def _do_write(self, name: str, args: dict) -> list[Action]:
        message = args.get("message")
        if isinstance(message, str):
            return [TypeText(message)]
        if isinstance(message, list) and message:        # typewrite(['a', 'enter']) presses keys
            return [Hotkey((normalize_key(k),)) for k in message]
        raise ActionError(f"{name}() needs a string message (or a list of keys), got {shown(message)}")

    def _do_press(self, name: str, args: dict) -> list[Action]:
        keys = args.get("keys")
        keys = keys if isinstance(keys, list) else [keys]
        presses = _count(name, args, "presses")
        if not keys or len(keys) * presses > MAX_REPEAT:
            raise ActionError(f"press() needs 1 to {MAX_REPEAT} key presses, got {len(keys)} keys x {presses}")
        return [Hotkey((normalize_key(k),)) for _ in range(presses) for k in keys]

    def _do_hotkey(self, name: str, args: dict) -> list[Action]:
        keys = args["keys"][0] if len(args["keys"]) == 1 and isinstance(args["keys"][0], list) else args["keys"]
        if not keys:
            raise ActionError("hotkey() needs keys, e.g. pyautogui.hotkey('ctrl', 'c')")
        return [Hotkey(tuple(k for key in keys for k in split_hotkey(key)))]

    def _do_keyDown(self, name: str, args: dict) -> list[Action]:
        if "key" not in args:
            raise ActionError(f"{name}() needs a key, e.g. pyautogui.{name}('shift')")
        return [(KeyDown if name == "keyDown" else KeyUp)(normalize_key(args["key"]))]

    def _do_sleep(self, name: str, args: dict) -> list[Action]:
        return [Wait(seconds(args.get("seconds"), "sleep() needs"))]


def _button(name: str, args: dict) -> str:
    button = args.get("button", "left")
    button = _BUTTONS.get(button, button) if isinstance(button, str) else button
    return choice(button, MOUSE_BUTTONS, f"{name}() needs button")


def _count(name: str, args: dict, key: str) -> int:
    count = args.get(key, 1)
    if type(count) is not int or not 1 <= count <= MAX_REPEAT:
        raise ActionError(f"{name}() needs {key} to be an int from 1 to {MAX_REPEAT}, got {shown(count)}")
    return count


_HANDLERS = {
    "click": _Reader._do_click, "doubleClick": _Reader._do_click, "rightClick": _Reader._do_click,
    "middleClick": _Reader._do_click, "moveTo": _Reader._do_moveTo,
    "dragTo": _Reader._do_dragTo, "drag": _Reader._do_dragTo,
    "mouseDown": _Reader._do_mouseDown, "mouseUp": _Reader._do_mouseDown,
    "scroll": _Reader._do_scroll, "vscroll": _Reader._do_scroll, "hscroll": _Reader._do_scroll,
    "write": _Reader._do_write, "typewrite": _Reader._do_write,
    "press": _Reader._do_press, "hotkey": _Reader._do_hotkey,
    "keyDown": _Reader._do_keyDown, "keyUp": _Reader._do_keyDown, "sleep": _Reader._do_sleep,
}


def format_pyautogui(actions, space: CoordSpace, platform: str = "computer") -> str:
    """Typed actions as pyautogui code, one call a line, read back by parse_pyautogui: coordinates in
    `space`, strings as Python literals (repr).  pyautogui drags from the pointer: a Drag that starts
    where the actions before it left the pointer is dragTo(end), read back as the same Drag; any other
    is moveTo(start) then dragTo(end), read back as [MoveTo(start), the Drag]: the same motions.  A Scroll
    is scroll(clicks) (> 0 up) or hscroll(clicks) (> 0 right).  What pyautogui cannot do (the SDK,
    finished or call_user with text, the phone's actions) is refused with an ActionError; a Finished or
    CallUser with no text is OSWorld's DONE or FAIL."""
    lines = ["import pyautogui"]
    if any(isinstance(a, Wait) for a in actions):
        lines.append("import time")
    pointer = None      # the pixel the code before has left the pointer at
    for a in actions:
        if isinstance(a, Drag) and pointer != (a.x1, a.y1):
            lines.append(f"pyautogui.moveTo({', '.join(map(repr, space.coordinate((a.x1, a.y1))))})")
        lines.extend(_code(a, space))
        if isinstance(a, Drag):
            pointer = (a.x2, a.y2)
        elif isinstance(a, (Click, DoubleClick, RightClick, MiddleClick, MoveTo, MouseDown, MouseUp, Scroll)) \
                and a.x is not None and a.y is not None:
            pointer = (a.x, a.y)
    return "\n".join(lines)


def _code(a: Action, space: CoordSpace) -> list[str]:
    def xy(x: int, y: int) -> str:
        return ", ".join(map(repr, space.coordinate((x, y))))

    pointer = {Click: "click", DoubleClick: "doubleClick", RightClick: "rightClick", MiddleClick: "middleClick",
               MoveTo: "moveTo"}
    if type(a) in pointer:
        return [f"pyautogui.{pointer[type(a)]}({xy(a.x, a.y)})"]
    if isinstance(a, Drag):
        return [f"pyautogui.dragTo({xy(a.x2, a.y2)})"]
    if isinstance(a, (MouseDown, MouseUp)):
        args = ([xy(a.x, a.y)] if a.x is not None and a.y is not None else []) + \
               ([f"button={a.button!r}"] if a.button != "left" else [])
        return [f"pyautogui.{'mouseDown' if isinstance(a, MouseDown) else 'mouseUp'}({', '.join(args)})"]
    if isinstance(a, Scroll):
        clicks = a.amount if a.direction in ("up", "right") else -a.amount
        at = ""
        if a.x is not None and a.y is not None:
            x, y = space.coordinate((a.x, a.y))
            at = f", x={x!r}, y={y!r}"
        return [f"pyautogui.{'scroll' if a.direction in ('up', 'down') else 'hscroll'}({clicks}{at})"]
    if isinstance(a, TypeText):
        return [f"pyautogui.write({a.text!r})"]
    if isinstance(a, Hotkey):
        return [f"pyautogui.hotkey({', '.join(map(repr, a.keys))})"]
    if isinstance(a, (KeyDown, KeyUp)):
        return [f"pyautogui.{'keyDown' if isinstance(a, KeyDown) else 'keyUp'}({a.key!r})"]
    if isinstance(a, Wait):
        return [f"time.sleep({a.seconds!r})"]
    if isinstance(a, (Finished, CallUser)) and not a.content:
        return ["DONE" if isinstance(a, Finished) else "FAIL"]
    raise ActionError(f"pyautogui code: cannot write {shown(a)}: pyautogui drives the mouse and keyboard only "
                      f"(click, doubleClick, rightClick, middleClick, moveTo, dragTo, mouseDown, mouseUp, scroll, "
                      f"hscroll, write, hotkey, keyDown, keyUp, time.sleep), with OSWorld's DONE and FAIL for a "
                      f"task done or impossible (no answer text)")


def _parse_schema(output: object, space: CoordSpace, platform: str) -> list[Action]:
    if not isinstance(output, str):
        raise ActionError(f"pyautogui code: expected code text, got {type(output).__name__} {shown(output)}")
    return parse_pyautogui(output, space)


SCHEMA = register_schema(Schema(
    "pyautogui", "pyautogui code", CoordMode.ABSOLUTE, "pixels of the screenshot as sent",
    lambda output: isinstance(output, str) and looks_like_pyautogui(output), _parse_schema, format_pyautogui))
