"""Reader and formatter of OpenAI computer use: the Responses API's `computer_call` items.

Read: a `computer_call` item `{"type": "computer_call", "call_id": ..., "action": {...}}` (or with a
batched `"actions": [...]`, performed in order), a bare action `{"type": "click", "x": 10, "y": 20}`,
a Responses-API response `{"output": [items]}`, a list of output items, or their JSON text.  In a
response, `reasoning` items are skipped, and a `message` item is the model's final answer
(`Finished`, its output_text) only when the response holds no call; next to a call it is commentary.
`function_call` items `{"type": "function_call", "name": ..., "arguments": "<JSON text>"}` call the
functions hybridgym adds to the computer (the SDK's execute_bash / str_replace_editor, call_user,
finished, the phone's long_press, swipe, open_app, press_home, press_back; `functions.FUNCTIONS`),
their points [x, y] in the same pixels.  A `local_shell_call` `{"action": {"type": "exec",
"command": [argv...], "working_directory": ..., "env": {...}}}` runs its argv (shell-quoted) in the
terminal, after a `cd` to its working_directory and with its env set; its timeout_ms and user are
not used.  (`Codec` hands a list of output items to this reader whole, so a message item beside a
call is commentary there too.)

Coordinates are pixels of the screenshot as the model was sent it (scaled to the screen when the
image was resized).  The actions:

- click(x, y, button): left -> Click, right -> RightClick, wheel -> MiddleClick; back / forward are
  the browser's back / forward keys (alt+left / alt+right), as an X server gives no back button to
  a page.  `keys` (on any pointer action) are held: KeyDown each, the action, KeyUp in reverse.
- double_click(x, y), move(x, y), type(text) (a "\\n" presses Enter), keypress(keys): the keys
  pressed together (one Hotkey; names such as "CTRL", "ENTER", "ArrowLeft" are read by normalize_key).
- drag(path [{x, y}, ...]): two points are a Drag; more are MouseDown at the first, MoveTo each
  point between, MouseUp at the last.
- scroll(x, y, scroll_x, scroll_y): pixels; one wheel notch is PIXELS_PER_NOTCH pixels, so a scroll
  is round(|pixels| / PIXELS_PER_NOTCH) notches, at least one (scroll_y > 0 down, scroll_x > 0 right;
  both axes: the vertical Scroll, then the horizontal; an axis of 0 scrolls nothing on it, and a
  scroll of 0 on both is Wait(0)).
- wait: Wait(WAIT_SECONDS), or `ms` milliseconds (or `duration` seconds) when given; screenshot:
  Wait(0) (the next observation is the screenshot).

The formatter writes the computer's actions as one `computer_call` dict (`action`, or `actions` when
several) and returns it; with anything else it returns a list of items: the computer's actions in
`computer_call` items, the others as `function_call` items, and a `Finished` with an answer that is the
only action as a `message` item (the final answer; empty or next to other actions it is a `finished`
function_call).
"""

from __future__ import annotations

import json
import math
import shlex
from typing import Sequence

from .coords import CoordMode, CoordSpace
from .functions import call_function, function_of
from .keys import NAMED_KEYS, split_hotkey
from .model import (
    MAX_ACTIONS, MAX_HOTKEY_KEYS, MAX_REPEAT, MAX_TEXT_CHARS, Action, ActionError, Click, DoubleClick, Drag,
    Finished, Hotkey, KeyDown, KeyUp, MiddleClick, MouseDown, MouseUp, MoveTo, RightClick, Scroll, Terminal,
    TypeText, Wait, seconds, shown, too_many_keys,
)
from .schemas import Schema, register_schema

TITLE = "OpenAI computer_call"
#: pixels one wheel notch scrolls (a browser's line step of 100 px)
PIXELS_PER_NOTCH = 100
#: seconds of a `wait` without `ms`: what OpenAI's sample computers sleep
WAIT_SECONDS = 1.0

ACTIONS = {
    "click": ("x", "y", "button", "keys"), "double_click": ("x", "y", "button", "keys"),
    "drag": ("path", "keys"), "keypress": ("keys",), "move": ("x", "y", "keys"),
    "scroll": ("x", "y", "scroll_x", "scroll_y", "keys"), "type": ("text",), "wait": ("ms", "duration"),
    "screenshot": (),
}
_ITEMS = ("computer_call", "function_call", "local_shell_call", "message", "reasoning")
_CALLS = ("computer_call", "function_call", "local_shell_call")
#: fields of an item that carry no action (ids, status, safety checks)
_ITEM_INFO = ("id", "call_id", "status", "pending_safety_checks", "role")
#: message content part type -> its text field (a refusal, too, ends the episode with its text)
_PARTS = {"output_text": "text", "text": "text", "refusal": "refusal"}
_BUTTONS = {"left": Click, "right": RightClick, "wheel": MiddleClick, "middle": MiddleClick}
_BROWSER_KEYS = {"back": ("alt", "left"), "forward": ("alt", "right")}
#: canonical key -> how OpenAI's model writes it
_KEY_NAMES = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
_SIGNATURES = ("click(x, y, [button left|right|wheel|back|forward], [keys]), double_click(x, y), "
               "drag(path [{x, y}, ...]), keypress(keys [...]), move(x, y), scroll(x, y, scroll_x, scroll_y), "
               "type(text), wait, screenshot")


def _fail(message: str) -> ActionError:
    return SCHEMA.fail(message)


def _type(item: dict) -> str | None:
    """An item's or action's "type" where it is text (so it can be looked up), else None."""
    kind = item.get("type")
    return kind if isinstance(kind, str) else None


# --- reading -------------------------------------------------------------------------------------------
def looks_like_openai(output: object) -> bool:
    """An output item, a bare computer action, or a response {"output": [...]}."""
    if isinstance(output, list):
        return bool(output) and all(isinstance(i, dict) and i.get("type") in _ITEMS for i in output[:MAX_ACTIONS]) \
            and any(i.get("type") != "message" or _openai_message(i) for i in output[:MAX_ACTIONS])
    if not isinstance(output, dict):
        return False
    kind = _type(output)
    if kind == "message":
        return _openai_message(output)
    if kind in _ITEMS or (kind in ACTIONS and "action_type" not in output):
        return True
    return isinstance(output.get("output"), list) and "type" not in output


def _openai_message(item: dict) -> bool:
    content = item.get("content")
    return isinstance(content, list) and any(isinstance(p, dict) and p.get("type") in ("output_text", "refusal")
                                             for p in content[:MAX_ACTIONS])


def parse_openai(output: object, space: CoordSpace, platform: str) -> list[Action]:
    """The actions of one item, one response, or a list of items."""
    if isinstance(output, dict) and "type" not in output and "output" in output:
        output = output["output"]
        if not isinstance(output, list):
            raise _fail(f"a response's 'output' must be a list of items, got {shown(output)}")
    if isinstance(output, list):
        return _response(output, space, platform)
    if not isinstance(output, dict):
        raise _fail(f"expected an output item (a dict), got {type(output).__name__} {shown(output)}")
    if output.get("type") in ("message", "reasoning"):
        return _response([output], space, platform)
    return _item(output, space, platform)


def _response(items: list, space: CoordSpace, platform: str) -> list[Action]:
    if len(items) > MAX_ACTIONS:
        raise _fail(f"the response has {len(items)} items; at most {MAX_ACTIONS} are read per step")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise _fail(f"item {i} must be an output item (a dict), got {shown(item)}")
    if not any(_type(item) in _CALLS or _type(item) in ACTIONS for item in items):
        answers = [_message_text(item) for item in items if item.get("type") == "message"]
        return [Finished("\n\n".join(answers))] if answers else []
    actions = []
    for i, item in enumerate(items):
        if item.get("type") not in ("message", "reasoning"):
            try:
                actions.extend(_item(item, space, platform))
            except ActionError as e:
                raise _fail(f"item {i}: {str(e).removeprefix(TITLE + ': ')}") from None
    return actions


def _message_text(item: dict) -> str:
    content = item.get("content")
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise _fail(f"a message's content must be a list of output_text parts, got {shown(content)}")
    texts = []
    for part in content:
        field = _PARTS.get(_type(part)) if isinstance(part, dict) else None
        if field is None or not isinstance(part.get(field), str):
            raise _fail(f"a message's content parts are {{\"type\": \"output_text\", \"text\": ...}} or "
                        f"{{\"type\": \"refusal\", \"refusal\": ...}}, got {shown(part)}")
        texts.append(part[field])
    return "".join(texts)


def _item(item: dict, space: CoordSpace, platform: str) -> list[Action]:
    kind = _type(item)
    if kind == "computer_call":
        extra = [k for k in item if k not in (*_ITEM_INFO, "type", "action", "actions")]
        if extra:
            raise _fail(f"computer_call has unknown field {shown(extra[0])}; it takes action or actions")
        if ("action" in item) == ("actions" in item):
            raise _fail("a computer_call needs 'action' (one) or 'actions' (a list), exactly one of them")
        batch = [item["action"]] if "action" in item else item["actions"]
        if not isinstance(batch, list) or len(batch) > MAX_ACTIONS:
            raise _fail(f"'actions' must be a list of at most {MAX_ACTIONS} actions, got {shown(batch)}")
        actions = []
        for action in batch:
            actions.extend(_action(action, space))
        return actions
    if kind == "function_call" or (kind is None and "name" in item and "arguments" in item):
        extra = [k for k in item if k not in (*_ITEM_INFO, "type", "name", "arguments")]
        if extra:
            raise _fail(f"function_call has unknown field {shown(extra[0])}; it takes name and arguments")
        return call_function(item.get("name"), json_arguments(item.get("arguments"), SCHEMA),
                             space, platform, TITLE)
    if kind == "local_shell_call":
        return [_shell(item.get("action"))]
    if kind in ACTIONS:
        return _action(item, space)
    raise _fail(f"unknown item type {shown(kind)}; read: {', '.join(_ITEMS)} items and bare actions "
                f"({_SIGNATURES})")


def json_arguments(arguments: object, schema: Schema) -> dict:
    """A function call's arguments: a dict, or the JSON text of one (as the APIs send them)."""
    if isinstance(arguments, str):
        if len(arguments) > MAX_TEXT_CHARS:
            raise schema.fail(f"a call's arguments are {len(arguments)} characters; at most {MAX_TEXT_CHARS}")
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except (ValueError, RecursionError):
            raise schema.fail(f"a call's arguments must be a JSON object, got {shown(arguments)}") from None
    if not isinstance(arguments, dict):
        raise schema.fail(f"a call's arguments must be an object of parameter names and values, "
                          f"got {shown(arguments)}")
    return arguments


def _shell(action: object) -> Terminal:
    if not (isinstance(action, dict) and action.get("type") == "exec"):
        raise _fail(f"a local_shell_call needs action {{\"type\": \"exec\", \"command\": [argv...]}}, got "
                    f"{shown(action)}")
    argv, cwd = action.get("command"), action.get("working_directory")
    if not (isinstance(argv, list) and argv and len(argv) <= 10_000 and all(isinstance(a, str) for a in argv)):
        raise _fail(f"local_shell_call command must be a non-empty list of strings (argv), got {shown(argv)}")
    env = action.get("env") or {}
    if not (isinstance(env, dict) and len(env) <= 100 and all(isinstance(k, str) and isinstance(v, str)
                                                             for k, v in env.items())):
        raise _fail(f"local_shell_call env must be an object of strings, got {shown(env)}")
    command = shlex.join([*(["env", *(f"{k}={v}" for k, v in env.items())] if env else []), *argv])
    if cwd is not None:
        if not isinstance(cwd, str):
            raise _fail(f"local_shell_call working_directory must be a path, got {shown(cwd)}")
        command = f"cd {shlex.quote(cwd)} && {command}"
    return Terminal(command)


def _action(action: object, space: CoordSpace) -> list[Action]:
    """The typed actions of one computer action."""
    if not isinstance(action, dict):
        raise _fail(f"an action must be an object like {{\"type\": \"click\", \"x\": 10, \"y\": 20}}, got "
                    f"{shown(action)}; actions: {_SIGNATURES}")
    kind = _type(action)
    if kind not in ACTIONS:
        raise _fail(f"unknown action type {shown(kind)}; actions: {_SIGNATURES}")
    extra = [k for k in action if k != "type" and k not in ACTIONS[kind]]
    if extra:
        raise _fail(f"{kind} has unknown field {shown(extra[0])}; {kind} takes {', '.join(ACTIONS[kind]) or 'none'}")
    try:
        actions = _READERS[kind](action, space)
        keys = action.get("keys") if kind != "keypress" else None
        return actions if keys is None else held(_keys(keys, f"{kind} keys"), actions)
    except ActionError as e:
        raise _fail(f"{kind}: {str(e).removeprefix(TITLE + ': ')}") from None


def held(keys: Sequence[str], actions: list[Action]) -> list[Action]:
    """`actions` with `keys` held: KeyDown each, the actions, KeyUp in reverse order."""
    return [*map(KeyDown, keys), *actions, *map(KeyUp, reversed(keys))]


def _point(action: dict, space: CoordSpace, what: str) -> tuple[int, int]:
    x, y = action.get("x"), action.get("y")
    if x is None or y is None:
        raise ActionError(f"{what} needs x and y (pixels), got {shown(action)}")
    return space.point([x, y], what)


def _keys(keys: object, what: str) -> tuple[str, ...]:
    if not isinstance(keys, list) or not keys:
        raise ActionError(f"{what} must be a non-empty list of key names like [\"CTRL\", \"C\"], got {shown(keys)}")
    if len(keys) > MAX_HOTKEY_KEYS:
        raise too_many_keys(len(keys))
    names = tuple(k for key in keys for k in split_hotkey(key))
    if len(names) > MAX_HOTKEY_KEYS:
        raise too_many_keys(len(names))
    return names


def _click(action: dict, space: CoordSpace) -> list[Action]:
    button = action.get("button", "left")
    button = button if isinstance(button, str) else repr(button)
    if button in _BROWSER_KEYS:
        return [Hotkey(_BROWSER_KEYS[button])]
    if button not in _BUTTONS:
        raise ActionError(f"button must be left, right, wheel, back or forward, got {shown(button)}")
    return [_BUTTONS[button](*_point(action, space, "click"))]


def _double_click(action: dict, space: CoordSpace) -> list[Action]:
    if action.get("button", "left") != "left":
        raise ActionError(f"a double_click is of the left button, got button {shown(action.get('button'))}")
    return [DoubleClick(*_point(action, space, "double_click"))]


def _drag(action: dict, space: CoordSpace) -> list[Action]:
    path = action.get("path")
    if not isinstance(path, list) or not 2 <= len(path) <= MAX_ACTIONS:
        raise ActionError(f"path must be a list of 2 to {MAX_ACTIONS} points [{{\"x\": 1, \"y\": 2}}, ...], "
                          f"got {shown(path)}")
    points = []
    for p in path:
        if isinstance(p, (list, tuple)) and len(p) == 2:
            p = {"x": p[0], "y": p[1]}
        if not isinstance(p, dict) or set(p) != {"x", "y"}:
            raise ActionError(f"each point of a path is {{\"x\": X, \"y\": Y}}, got {shown(p)}")
        points.append(_point(p, space, "drag path"))
    if len(points) == 2:
        return [Drag(*points[0], *points[1])]
    return [MouseDown(*points[0]), *(MoveTo(*p) for p in points[1:-1]), MouseUp(*points[-1])]


def _scroll(action: dict, space: CoordSpace) -> list[Action]:
    x, y = action.get("x"), action.get("y")
    at = (None, None) if x is None and y is None else _point(action, space, "scroll")
    scrolls = []
    for field, directions in (("scroll_y", ("up", "down")), ("scroll_x", ("left", "right"))):
        pixels = action.get(field, 0)
        if type(pixels) not in (int, float) or not -1e15 <= pixels <= 1e15:     # also refuses nan
            raise ActionError(f"{field} must be a number of pixels, got {shown(pixels)}")
        if pixels:
            notches = max(1, math.floor(abs(pixels) / PIXELS_PER_NOTCH + 0.5)) if abs(pixels) < 1e9 else None
            if notches is None or notches > MAX_REPEAT:
                raise ActionError(f"{field}={shown(pixels)} is more than {MAX_REPEAT} notches of "
                                  f"{PIXELS_PER_NOTCH} px; scroll at most {MAX_REPEAT * PIXELS_PER_NOTCH} px at once")
            scrolls.append(Scroll(directions[pixels > 0], *at, amount=notches))
    return scrolls or [Wait(0.0)]


def _wait(action: dict, space: CoordSpace) -> list[Action]:
    ms, duration = action.get("ms"), action.get("duration")
    if ms is not None and duration is not None:
        raise ActionError("wait takes ms or duration (seconds), not both")
    if ms is not None:
        if type(ms) not in (int, float) or not 0 <= ms <= 1e9:
            raise ActionError(f"wait ms must be a number of milliseconds, got {shown(ms)}")
        return [Wait(seconds(ms / 1000, "wait needs"))]
    return [Wait(WAIT_SECONDS if duration is None else seconds(duration, "wait duration must be"))]


def _text(action: dict, space: CoordSpace) -> list[Action]:
    text = action.get("text")
    if not isinstance(text, str):
        raise ActionError(f"type needs text, a string, got {shown(text)}")
    return [TypeText(text)]


_READERS = {
    "click": _click, "double_click": _double_click, "drag": _drag, "scroll": _scroll, "wait": _wait,
    "keypress": lambda a, s: [Hotkey(_keys(a.get("keys"), "keypress keys"))],
    "move": lambda a, s: [MoveTo(*_point(a, s, "move"))], "type": _text,
    "screenshot": lambda a, s: [Wait(0.0)],
}


# --- writing -------------------------------------------------------------------------------------------
def format_openai(actions: Sequence[Action], space: CoordSpace, platform: str = "computer") -> dict | list[dict]:
    """`actions` as one computer_call dict, or a list of items (see the module docstring)."""
    actions = list(actions)
    if len(actions) == 1 and isinstance(actions[0], Finished) and actions[0].content:
        return {"type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": actions[0].content}]}
    items: list[dict] = []
    batch: list[dict] = []
    i = 0
    while i < len(actions):
        written = _computer(actions, i, space)
        if written is not None:
            batch.append(written[0])
            i = written[1]
            continue
        if batch:
            items.append(_call(batch, len(items)))
            batch = []
        name, args = function_of(actions[i], space, platform)
        items.append({"type": "function_call", "call_id": f"call_hg_{len(items)}", "name": name,
                      "arguments": json.dumps(args)})
        i += 1
    if batch:
        items.append(_call(batch, len(items)))
    return items[0] if len(items) == 1 and items[0]["type"] == "computer_call" else items


def _call(batch: list[dict], n: int) -> dict:
    body = {"action": batch[0]} if len(batch) == 1 else {"actions": batch}
    return {"type": "computer_call", "call_id": f"call_hg_{n}", **body}


def _computer(actions: list[Action], i: int, space: CoordSpace) -> tuple[dict, int] | None:
    """The computer action written for actions[i:] (with keys held around a pointer action, a drag path from
    a press, moves and a release), and the index after the actions it covers; None if there is none."""
    downs = 0
    while i + downs < len(actions) and isinstance(actions[i + downs], KeyDown):
        downs += 1
    if downs:
        inner = _pointer(actions, i + downs, space)
        if inner is not None:
            keys = [a.key for a in actions[i:i + downs]]
            end = inner[1] + downs
            if [a for a in actions[inner[1]:end]] == [KeyUp(k) for k in reversed(keys)] and downs <= MAX_HOTKEY_KEYS:
                return {**inner[0], "keys": [_key_name(k) for k in keys]}, end
        return None
    written = _pointer(actions, i, space)
    if written is None and (other := _other(actions[i])) is not None:
        written = other, i + 1
    return written


def _pointer(actions: list[Action], i: int, space: CoordSpace) -> tuple[dict, int] | None:
    if i >= len(actions):
        return None
    a = actions[i]
    kind = {Click: ("click", "left"), RightClick: ("click", "right"), MiddleClick: ("click", "wheel"),
            DoubleClick: ("double_click", None), MoveTo: ("move", None)}.get(type(a))
    if kind is not None:
        x, y = space.coordinate((a.x, a.y))
        return {"type": kind[0], "x": x, "y": y, **({"button": kind[1]} if kind[1] else {})}, i + 1
    if isinstance(a, Drag):
        return {"type": "drag", "path": [_xy(space, a.x1, a.y1), _xy(space, a.x2, a.y2)]}, i + 1
    if isinstance(a, Scroll):
        sign = 1 if a.direction in ("down", "right") else -1
        axis = "scroll_y" if a.direction in ("up", "down") else "scroll_x"
        at = {} if a.x is None else dict(zip("xy", space.coordinate((a.x, a.y))))
        other = "scroll_x" if axis == "scroll_y" else "scroll_y"
        return {"type": "scroll", **at, axis: sign * a.amount * PIXELS_PER_NOTCH, other: 0}, i + 1
    if isinstance(a, MouseDown) and a.button == "left" and a.x is not None:
        end = i + 1
        while end < len(actions) and isinstance(actions[end], MoveTo):
            end += 1
        last = actions[end] if end < len(actions) else None
        if end > i + 1 and isinstance(last, MouseUp) and last.button == "left" and last.x is not None:
            path = [(a.x, a.y), *((m.x, m.y) for m in actions[i + 1:end]), (last.x, last.y)]
            if len(path) <= MAX_ACTIONS:
                return {"type": "drag", "path": [_xy(space, *p) for p in path]}, end + 1
    return None


def _other(a: Action) -> dict | None:
    """A keyboard or control action as a computer action; None if it is none."""
    if isinstance(a, TypeText):
        return {"type": "type", "text": a.text}
    if isinstance(a, Hotkey):
        return {"type": "keypress", "keys": [_key_name(k) for k in a.keys]}
    if isinstance(a, Wait):
        if a.seconds == 0:
            return {"type": "screenshot"}
        return {"type": "wait"} if a.seconds == WAIT_SECONDS else {"type": "wait", "ms": _ms(a.seconds)}
    return None


def _ms(s: float) -> int | float:
    """Milliseconds that the reader divides back to exactly `s` seconds."""
    for digits in range(0, 7):
        ms = round(s * 1000, digits) if digits else round(s * 1000)
        if ms / 1000 == s:
            return ms
    return s * 1000


def _xy(space: CoordSpace, x: int, y: int) -> dict:
    return dict(zip("xy", space.coordinate((x, y))))


def _key_name(key: str) -> str:
    """A canonical key as OpenAI's model writes it ("CTRL", "ENTER", "ArrowLeft", a character as it is)."""
    if key == "+":
        return "plus"      # a lone '+' would not split from the keys around it
    return _KEY_NAMES.get(key, key.upper() if key in NAMED_KEYS else key)


SCHEMA = register_schema(Schema(
    "openai", TITLE, CoordMode.ABSOLUTE,
    "pixels of the screenshot as it was sent (x from the left edge, y from the top)",
    looks_like_openai, parse_openai, format_openai, coords_override=False, image_pixels=True))
