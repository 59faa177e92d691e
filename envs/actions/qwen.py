"""Reader and writer of Qwen tool calls: `<tool_call>{"name": "computer_use", "arguments": {...}}</tool_call>`.

Qwen2.5-VL and Qwen3-VL act through two functions (the Qwen cookbook's computer_use and
mobile_agent): `computer_use(action, ...)` on a computer and `mobile_use(action, ...)` on a
phone.  A reply holds one or more `<tool_call>` blocks, each one JSON object; thinking and
text around them are ignored, and a reply cut off before its final `</tool_call>` is read as
if it were there.  The JSON is read with `json.loads`, never evaluated.  The same call as a
dict `{"name": ..., "arguments": {...}}` is read too, also in the OpenAI tool_calls form vLLM
returns (`{"type": "function", "function": {"name": ..., "arguments": "<JSON text>"}}`).

computer_use actions (coordinate = [x, y]):
  key(keys: list)              -> Hotkey (the keys pressed together)
  type(text)                   -> TypeText (the text as it is; a newline presses Enter)
  mouse_move(coordinate)       -> MoveTo
  left_click / right_click / middle_click / double_click(coordinate)
                               -> Click / RightClick / MiddleClick / DoubleClick
  triple_click(coordinate)     -> three Clicks
  (a click without a coordinate, as the Qwen2.5-VL tool allows, is where the pointer is: a
  MouseDown and MouseUp of its button at the pointer, once per press)
  left_click_drag(coordinate[, start_coordinate])
                               -> Drag from start_coordinate; without it the drag starts where the
                                  pointer is: MouseDown there, MoveTo coordinate, MouseUp
  scroll(pixels[, coordinate]) -> Scroll up (pixels > 0, Qwen's convention) or down (< 0)
  hscroll(pixels[, coordinate])-> Scroll right (pixels > 0) or left (< 0)
  wait(time)                   -> Wait(time seconds)
  terminate(status)            -> Finished("") for "success", CallUser("") for "failure"
  answer(text)                 -> Finished(text)
Scroll `pixels`: Qwen's own executor passes them to `pyautogui.scroll`, so they are wheel
notches: the amount is |pixels| rounded, at least 1 and at most MAX_REPEAT (larger is capped).

mobile_use actions: click(coordinate) -> Tap on the phone (Click on a computer);
long_press(coordinate[, time]) -> LongPress; swipe(coordinate, coordinate2) -> Swipe;
type(text); key(text) -> Hotkey; system_button(button: Back/Home/Menu/Enter) -> PressBack /
PressHome / Hotkey menu / Hotkey enter; open(text) -> OpenApp; wait(time); terminate(status);
answer(text).

Any other function name is one of the functions the env adds (execute_bash,
str_replace_editor, mouse_down, ...: `functions.FUNCTIONS`), read by `functions.call_function`.
The formatter writes the actions these two functions cannot express (MouseDown, KeyDown,
SDK actions, a CallUser with text, ...) the same way, through `functions.function_of`.

Coordinates: Qwen2.5-VL writes pixels of its smart-resized image (the default,
coords="smart_resize"); Qwen3-VL writes 0..1000: give it coords="relative".
"""

from __future__ import annotations

import json
import math
import re
from typing import Sequence

from .coords import CoordMode, CoordSpace
from .functions import call_function, function_of
from .keys import normalize_key, split_hotkey
from .model import (
    MAX_ACTIONS, MAX_REPEAT, Action, ActionError, CallUser, Click, DoubleClick, Drag, Finished, Hotkey,
    LongPress, MiddleClick, MouseDown, MouseUp, MoveTo, OpenApp, PressBack, PressHome, RightClick, Scroll,
    Swipe, Tap, TypeText, Wait, seconds, shown,
)
from .schemas import Schema, register_schema

TITLE = "Qwen tool_call"
_EXAMPLE = '<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [500, 300]}}' \
           '</tool_call>'
_OPEN, _CLOSE = "<tool_call>", "</tool_call>"
#: special tokens a served model may leave in its text
_SPECIAL = re.compile(r"<\|[a-z_]{1,30}\|>|\[EOS\]")

# parameters of each action: required, optional
_COMPUTER = {
    "key": ({"keys"}, set()), "type": ({"text"}, set()),
    "mouse_move": ({"coordinate"}, set()), "left_click": (set(), {"coordinate"}),
    "right_click": (set(), {"coordinate"}), "middle_click": (set(), {"coordinate"}),
    "double_click": (set(), {"coordinate"}), "triple_click": (set(), {"coordinate"}),
    "left_click_drag": ({"coordinate"}, {"start_coordinate"}),
    "scroll": ({"pixels"}, {"coordinate"}), "hscroll": ({"pixels"}, {"coordinate"}),
    "wait": ({"time"}, set()), "terminate": ({"status"}, set()), "answer": ({"text"}, set()),
}
_MOBILE = {
    "click": ({"coordinate"}, set()), "long_press": ({"coordinate"}, {"time"}),
    "swipe": ({"coordinate", "coordinate2"}, set()), "type": ({"text"}, set()), "key": ({"text"}, set()),
    "system_button": ({"button"}, set()), "open": ({"text"}, set()), "wait": ({"time"}, set()),
    "terminate": ({"status"}, set()), "answer": ({"text"}, set()),
}
_TOOLS = {"computer_use": _COMPUTER, "mobile_use": _MOBILE}
_BUTTONS = {"back": PressBack(), "home": PressHome(), "menu": Hotkey(("menu",)), "enter": Hotkey(("enter",))}
#: clicks: their button and number of presses, when they come without a coordinate
_PRESSES = {"left_click": ("left", 1), "right_click": ("right", 1), "middle_click": ("middle", 1),
            "double_click": ("left", 2), "triple_click": ("left", 3)}
_POINTER = {"left_click": Click, "right_click": RightClick, "middle_click": MiddleClick,
            "double_click": DoubleClick, "mouse_move": MoveTo}


def parse_qwen(output: object, space: CoordSpace, platform: str = "computer") -> list[Action]:
    """Typed actions of a Qwen reply (text with <tool_call> blocks) or of one call as a dict."""
    if isinstance(output, dict):
        return _call(output, space, platform)
    if not isinstance(output, str):
        raise ActionError(f"{TITLE}: expected the model's text or a call dict, got {type(output).__name__} "
                          f"{shown(output)}")
    actions: list[Action] = []
    for block in _blocks(output):
        actions.extend(_call(_json(block), space, platform))
        if len(actions) > MAX_ACTIONS:
            raise ActionError(f"{TITLE}: the reply makes more than {MAX_ACTIONS} actions; at most {MAX_ACTIONS} "
                              f"are performed per step; send the rest in later steps")
    return actions


def looks_like_qwen(output: object) -> bool:
    """Whether `output` is Qwen's: text with a <tool_call>, or a computer_use / mobile_use call dict."""
    if isinstance(output, str):
        return _OPEN in output
    if isinstance(output, dict):
        inner = output.get("function") if isinstance(output.get("function"), dict) else output
        name = inner.get("name")
        return isinstance(name, str) and name in _TOOLS
    return False


def _blocks(text: str) -> list[str]:
    """The JSON text of each <tool_call> block (a bare JSON object when there is none)."""
    start = text.find(_OPEN)
    if start < 0:
        if text.strip().startswith("{"):
            return [_SPECIAL.sub("", text)]
        raise ActionError(f"{TITLE}: the reply has no <tool_call>; write each action as {_EXAMPLE}")
    blocks = []
    while start >= 0:
        body = start + len(_OPEN)
        end = text.find(_CLOSE, body)
        following = text.find(_OPEN, body)
        if end < 0 or (0 <= following < end):
            if following >= 0:
                raise ActionError(f"{TITLE}: a <tool_call> has no </tool_call> before the next <tool_call>; "
                                  f"close each call: {_EXAMPLE}")
            blocks.append(_SPECIAL.sub("", text[body:]))       # the reply stops inside its last call
            break
        blocks.append(text[body:end])
        start = text.find(_OPEN, end + len(_CLOSE))
        if len(blocks) > MAX_ACTIONS:
            raise ActionError(f"{TITLE}: the reply has more than {MAX_ACTIONS} tool calls; at most "
                              f"{MAX_ACTIONS} actions are performed per step")
    return blocks


def _json(text: str, what: str = "a <tool_call>") -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:   # (ValueError: also ints beyond Python's digit limit)
        reason = "it is nested too deeply" if isinstance(e, RecursionError) else str(e)[:200]
        raise ActionError(f"{TITLE}: {what} does not hold valid JSON ({reason}); write {_EXAMPLE}") from None


def _call(call: object, space: CoordSpace, platform: str) -> list[Action]:
    if not isinstance(call, dict):
        raise ActionError(f"{TITLE}: a tool call must be an object {{\"name\": ..., \"arguments\": {{...}}}}, "
                          f"got {shown(call)}")
    if isinstance(call.get("function"), dict):          # OpenAI tool_calls item
        call = call["function"]
    name, args = call.get("name"), call.get("arguments", {})
    if isinstance(args, str):
        args = _json(args, "the call's \"arguments\" text")
    if not isinstance(name, str):
        raise ActionError(f"{TITLE}: a tool call needs a \"name\" (computer_use, mobile_use or an env function), "
                          f"got {shown(name)}")
    if not isinstance(args, dict):
        raise ActionError(f"{TITLE}: {shown(name)} \"arguments\" must be an object, got {shown(args)}")
    if name not in _TOOLS:
        return call_function(name, args, space, platform, TITLE)
    table = _TOOLS[name]
    action = args.get("action")
    if not isinstance(action, str) or action not in table:
        raise ActionError(f"{TITLE}: {name} action must be one of {', '.join(table)}, got {shown(action)}")
    required, optional = table[action]
    given = set(args) - {"action"}
    if not required <= given <= required | optional:
        wanted = sorted(required) + [f"[{p}]" for p in sorted(optional)]
        raise ActionError(f"{TITLE}: {name} {action} takes {', '.join(wanted) or 'nothing'}, got "
                          f"{', '.join(shown(k) for k in sorted(given, key=str)[:6]) or 'nothing'}")
    return _action(name, action, args, space, platform)


def _action(tool: str, action: str, args: dict, space: CoordSpace, platform: str) -> list[Action]:
    what = f"{TITLE}: {tool} {action}"

    def point(key: str = "coordinate") -> tuple[int, int]:
        value = args[key]
        if not isinstance(value, (list, tuple)):
            raise ActionError(f"{what} {key} must be [x, y], got {shown(value)}")
        try:
            return space.point(list(value), f"{action} {key}")
        except ActionError as e:
            raise ActionError(f"{TITLE}: {e}") from None

    if action in _PRESSES and "coordinate" not in args:     # a click where the pointer is
        button, presses = _PRESSES[action]
        return [MouseDown(button=button), MouseUp(button=button)] * presses
    if action in _POINTER:
        return [_POINTER[action](*point())]
    if action == "click":
        return [(Tap if platform == "mobile" else Click)(*point())]
    if action == "triple_click":
        return [Click(*point())] * 3
    if action == "left_click_drag":
        end = point()
        if "start_coordinate" in args:
            return [Drag(*point("start_coordinate"), *end)]
        return [MouseDown(), MoveTo(*end), MouseUp()]
    if action in ("scroll", "hscroll"):
        return [_scroll(action, args["pixels"], point() if "coordinate" in args else None, what)]
    if action == "type":
        return [TypeText(_text(args["text"], what, "text"))]
    if action == "key":
        return [Hotkey(_keys(args.get("keys", args.get("text")), what))]
    if action == "wait":
        return [Wait(_seconds(args["time"], what))]
    if action == "terminate":
        status = args["status"]
        if status not in ("success", "failure"):
            raise ActionError(f"{what} status must be \"success\" or \"failure\", got {shown(status)}")
        return [Finished("") if status == "success" else CallUser("")]
    if action == "answer":
        return [Finished(_text(args["text"], what, "text"))]
    if action == "long_press":
        at = point()
        return [LongPress(*at, duration=_seconds(args["time"], what)) if "time" in args else LongPress(*at)]
    if action == "swipe":
        return [Swipe(*point(), *point("coordinate2"))]
    if action == "open":
        return [OpenApp(_text(args["text"], what, "text"))]
    button = args["button"]                             # system_button
    if not isinstance(button, str) or button.strip().lower() not in _BUTTONS:
        raise ActionError(f"{what} button must be Back, Home, Menu or Enter, got {shown(button)}")
    return [_BUTTONS[button.strip().lower()]]


def _scroll(action: str, pixels: object, at: tuple[int, int] | None, what: str) -> Scroll:
    if type(pixels) not in (int, float) or not math.isfinite(pixels) or round(pixels) == 0:
        raise ActionError(f"{what} pixels must be a non-zero number (wheel notches; > 0 scrolls "
                          f"{'up' if action == 'scroll' else 'right'}), got {shown(pixels)}")
    direction = ("up" if pixels > 0 else "down") if action == "scroll" else ("right" if pixels > 0 else "left")
    return Scroll(direction, *(at or (None, None)), amount=min(MAX_REPEAT, abs(round(pixels))))


def _text(value: object, what: str, key: str) -> str:
    if not isinstance(value, str):
        raise ActionError(f"{what} {key} must be a string, got {shown(value)}")
    return value


def _keys(value: object, what: str) -> tuple[str, ...]:
    """Keys of a `keys` list (["ctrl", "c"]) or text ("ctrl+c")."""
    try:
        if isinstance(value, str):
            return split_hotkey(value)
        if isinstance(value, list) and value and len(value) <= MAX_REPEAT:
            return tuple(k for key in value for k in (split_hotkey(key) if isinstance(key, str) and len(key) > 1
                                                      else (normalize_key(key),)))
    except ActionError as e:
        raise ActionError(f"{what}: {e}") from None
    raise ActionError(f"{what} keys must be a list of key names like [\"ctrl\", \"c\"], got {shown(value)}")


def _seconds(value: object, what: str) -> float:
    return seconds(value, f"{what} time must be")


# --- writing ------------------------------------------------------------------------------------
def format_qwen(actions: Sequence[Action], space: CoordSpace, platform: str = "computer") -> str:
    """Typed actions as <tool_call> blocks, one a line, read back by `parse_qwen`: computer_use for the
    computer's actions, mobile_use on the phone for what it expresses, the env's functions for the rest."""
    return "\n".join(f"{_OPEN}\n{json.dumps(_tool_call(a, space, platform), ensure_ascii=False)}\n{_CLOSE}"
                     for a in actions)


def _tool_call(a: Action, space: CoordSpace, platform: str) -> dict:
    def at(x: int, y: int) -> list:
        return list(space.coordinate((x, y)))

    mobile = _mobile_arguments(a, at) if platform == "mobile" or isinstance(
        a, (Tap, LongPress, Swipe, OpenApp, PressBack, PressHome)) else None
    if mobile is not None:
        return {"name": "mobile_use", "arguments": mobile}
    computer = _computer_arguments(a, at)
    if computer is not None:
        return {"name": "computer_use", "arguments": computer}
    name, params = function_of(a, space, platform)
    return {"name": name, "arguments": params}


def _mobile_arguments(a: Action, at) -> dict | None:
    if isinstance(a, Tap):
        return {"action": "click", "coordinate": at(a.x, a.y)}
    if isinstance(a, LongPress):
        return {"action": "long_press", "coordinate": at(a.x, a.y), "time": a.duration}
    if isinstance(a, Swipe):
        return {"action": "swipe", "coordinate": at(a.x1, a.y1), "coordinate2": at(a.x2, a.y2)}
    if isinstance(a, OpenApp):
        return {"action": "open", "text": a.app_name}
    if isinstance(a, (PressBack, PressHome)):
        return {"action": "system_button", "button": "Back" if isinstance(a, PressBack) else "Home"}
    if isinstance(a, Hotkey) and a.keys in (("menu",), ("enter",)):
        return {"action": "system_button", "button": a.keys[0].capitalize()}
    if isinstance(a, Hotkey):
        return {"action": "key", "text": " ".join("plus" if k == "+" else k for k in a.keys)}
    if isinstance(a, (TypeText, Wait, Finished, CallUser)):
        return _computer_arguments(a, at)
    return None


def _computer_arguments(a: Action, at) -> dict | None:
    for action, cls in _POINTER.items():
        if type(a) is cls:
            return {"action": action, "coordinate": at(a.x, a.y)}
    if isinstance(a, Drag):
        return {"action": "left_click_drag", "start_coordinate": at(a.x1, a.y1), "coordinate": at(a.x2, a.y2)}
    if isinstance(a, Scroll):
        sign = 1 if a.direction in ("up", "right") else -1
        args = {"action": "scroll" if a.direction in ("up", "down") else "hscroll", "pixels": sign * a.amount}
        return {**args, "coordinate": at(a.x, a.y)} if a.x is not None and a.y is not None else args
    if isinstance(a, TypeText):
        return {"action": "type", "text": a.text}
    if isinstance(a, Hotkey):
        return {"action": "key", "keys": list(a.keys)}
    if isinstance(a, Wait):
        return {"action": "wait", "time": a.seconds}
    if isinstance(a, Finished):
        return {"action": "answer", "text": a.content} if a.content else {"action": "terminate", "status": "success"}
    if isinstance(a, CallUser) and not a.content:
        return {"action": "terminate", "status": "failure"}
    return None


SCHEMA = register_schema(Schema(
    "qwen", TITLE, CoordMode.SMART_RESIZE,
    "pixels of the smart-resized image the model sees (Qwen2.5-VL); Qwen3-VL writes 0..1000 on both axes: "
    "give it coords='relative'",
    looks_like_qwen, parse_qwen, format_qwen))
