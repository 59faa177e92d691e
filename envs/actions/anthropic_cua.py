"""Reader and formatter of Anthropic computer use: `tool_use` blocks of the computer, bash and text editor tools.

Read: a tool_use block `{"type": "tool_use", "id": ..., "name": "computer", "input": {...}}`, a list of
content blocks (text, thinking and redacted_thinking blocks are skipped next to a tool_use), an
assistant message `{"role": "assistant", "content": [...]}`, a tool call as OpenAI-compatible servers
return it (`{"name": ..., "arguments": {...}}` or `{"name": ..., "input": {...}}`), or their JSON text.
A reply of text blocks only is the model's final answer: `Finished` with their text.

Tools: "computer" (`computer_20250124`, `computer_20251124`) below; "bash" `{command}` -> Terminal
(`{restart: true}` -> Terminal(RESTART_COMMAND): each hybridgym command runs in a fresh shell, so there
is no session to restart and the command only says so); the text editor, "str_replace_editor"
(text_editor_20250124) or "str_replace_based_edit_tool" (text_editor_20250728) `{command, path,
file_text, old_str, new_str, insert_line, view_range}` -> EditFile; any other name is a function of
`functions.FUNCTIONS` (call_user, finished, the phone's long_press, swipe, open_app, press_home,
press_back ...) with its input as the arguments.

Coordinates are pixels of the screenshot as the model was sent it (scaled to the screen when the image
was resized).  The computer's actions (input `action` and its fields):

- key (text: keys xdotool style, "ctrl+s", "Return", "KP_Enter", "super") -> Hotkey;
  hold_key (text, duration) -> KeyDown each key, Wait(duration), KeyUp in reverse; type (text; "\\n"
  presses Enter) -> TypeText.
- mouse_move (coordinate) -> MoveTo; left_click, right_click, middle_click, double_click (coordinate)
  -> Click, RightClick, MiddleClick, DoubleClick; triple_click -> three Clicks.  A left, right or middle
  click without a coordinate is where the pointer is: MouseDown and MouseUp of that button (the typed
  clicks all have a point); a double or triple click needs its coordinate.  `text` on a click, a move,
  a drag or a scroll names modifier keys held ("shift", "ctrl+alt"): KeyDown each, the action, KeyUp in
  reverse.
- left_click_drag (start_coordinate, coordinate) -> Drag; left_mouse_down / left_mouse_up (a coordinate
  too, where given) -> MouseDown / MouseUp.
- scroll (coordinate or none, scroll_direction, scroll_amount notches, 3 if not given; text = modifiers)
  -> Scroll.
- wait (duration seconds, 1 if not given; hold_key's too) -> Wait; screenshot, cursor_position and zoom
  (region [x1, y1, x2, y2], checked to be on the screen) -> Wait(0): the next observation is the
  screenshot they ask for (the pointer is not reported apart, and the screen is not zoomed).

The formatter writes a list of tool_use blocks (ids "toolu_hg_<n>"); a `Finished` with an answer that is
the only action is a text block (the final answer; empty or next to other actions it is a "finished"
tool_use, as an empty reply is no reply).
"""

from __future__ import annotations

from typing import Sequence

from .coords import CoordMode, CoordSpace
from .functions import FUNCTIONS, call_function, function_of
from .keys import NAMED_KEYS, split_hotkey
from .model import (
    MAX_ACTIONS, MAX_HOTKEY_KEYS, MAX_REPEAT, SCROLL_DIRECTIONS, Action, ActionError, Click, DoubleClick, Drag,
    EditFile, Finished, Hotkey, KeyDown, KeyUp, MiddleClick, MouseDown, MouseUp, MoveTo, RightClick, Scroll,
    Terminal, TypeText, Wait, choice, seconds, shown,
)
from .openai_cua import held, json_arguments
from .schemas import Schema, register_schema

TITLE = "Anthropic tool_use"
#: what bash {restart: true} runs: there is no shell session to restart (every command gets a fresh one)
RESTART_COMMAND = "echo 'tool has been restarted.'"

#: the computer's actions -> the input fields each takes besides `action`
ACTIONS = {
    "key": ("text",), "hold_key": ("text", "duration"), "type": ("text",),
    "cursor_position": (), "mouse_move": ("coordinate", "text"),
    "left_click": ("coordinate", "text"), "right_click": ("coordinate", "text"),
    "middle_click": ("coordinate", "text"), "double_click": ("coordinate", "text"),
    "triple_click": ("coordinate", "text"), "left_click_drag": ("start_coordinate", "coordinate", "text"),
    "left_mouse_down": ("coordinate",), "left_mouse_up": ("coordinate",),
    "scroll": ("coordinate", "scroll_direction", "scroll_amount", "text"), "wait": ("duration",),
    "screenshot": (), "zoom": ("region",),
}
#: tool names claimed in auto mode in the {"name", "arguments"} form (other names there are Seed's or Qwen's)
_TOOLS = ("computer", "bash", "str_replace_based_edit_tool")
_BLOCKS = ("tool_use", "text", "thinking", "redacted_thinking")
_CLICKS = {"left_click": Click, "right_click": RightClick, "middle_click": MiddleClick, "double_click": DoubleClick}
_BUTTON = {"left_click": "left", "right_click": "right", "middle_click": "middle"}
#: canonical key -> its xdotool name, as the model writes it
_XDOTOOL = {"enter": "Return", "esc": "Escape", "backspace": "BackSpace", "pageup": "Page_Up",
            "pagedown": "Page_Down", "capslock": "Caps_Lock", "printscreen": "Print", "space": "space", "+": "plus"}


def _fail(message: str) -> ActionError:
    return SCHEMA.fail(message)


# --- reading -------------------------------------------------------------------------------------------
def looks_like_anthropic(output: object) -> bool:
    """A content block, a list of them, an assistant message of them, or a tool call of an Anthropic tool."""
    if isinstance(output, list):
        return bool(output) and all(_block(b) for b in output[:MAX_ACTIONS])
    if not isinstance(output, dict):
        return False
    if _block(output):
        return True
    if output.get("role") == "assistant":
        content = output.get("content")
        return isinstance(content, list) and bool(content) and all(_block(b) for b in content[:MAX_ACTIONS])
    name = output.get("name")
    return isinstance(name, str) and "type" not in output and (
        "input" in output or ("arguments" in output and name in _TOOLS))


def _block(block: object) -> bool:
    return isinstance(block, dict) and block.get("type") in _BLOCKS


def parse_anthropic(output: object, space: CoordSpace, platform: str) -> list[Action]:
    """The actions of one block, tool call, message, or list of blocks."""
    if isinstance(output, dict) and (output.get("type") == "message" or ("role" in output and "type" not in output)):
        output = output.get("content")
        if not isinstance(output, list):
            raise _fail(f"a message's content must be a list of content blocks, got {shown(output)}")
    if isinstance(output, dict) and output.get("type") in ("text", "thinking", "redacted_thinking"):
        output = [output]
    if isinstance(output, list):
        return _blocks(output, space, platform)
    if not isinstance(output, dict):
        raise _fail(f"expected a tool_use block (a dict), got {type(output).__name__} {shown(output)}")
    return _tool_use(output, space, platform)


def _blocks(blocks: list, space: CoordSpace, platform: str) -> list[Action]:
    if len(blocks) > MAX_ACTIONS:
        raise _fail(f"the reply has {len(blocks)} content blocks; at most {MAX_ACTIONS} are read per step")
    for i, block in enumerate(blocks):
        if not _block(block) and not (isinstance(block, dict) and "name" in block):
            raise _fail(f"block {i} must be a content block (tool_use, text, thinking), got {shown(block)}")
    calls = [b for b in blocks if b.get("type") not in ("text", "thinking", "redacted_thinking")]
    if not calls:
        texts = [b.get("text") for b in blocks if b.get("type") == "text"]
        if not all(isinstance(t, str) for t in texts):
            raise _fail(f"a text block needs 'text', a string, got {shown(blocks)}")
        return [Finished("".join(texts))] if texts else []
    actions = []
    for i, block in enumerate(calls):
        try:
            actions.extend(_tool_use(block, space, platform))
        except ActionError as e:
            raise _fail(f"tool_use {i}: {str(e).removeprefix(TITLE + ': ')}") from None
    return actions


def _tool_use(block: dict, space: CoordSpace, platform: str) -> list[Action]:
    name = block.get("name")
    if block.get("type") not in (None, "tool_use"):
        raise _fail(f"unknown block type {shown(block.get('type'))}; read: tool_use, text, thinking blocks")
    extra = [k for k in block if k not in ("type", "id", "name", "input", "arguments", "cache_control")]
    if extra or ("input" in block) == ("arguments" in block):
        raise _fail(f"a tool_use block has name and input (or a tool call name and arguments), got {shown(block)}")
    args = json_arguments(block["input"] if "input" in block else block["arguments"], SCHEMA)
    if name == "computer":
        return _computer(args, space)
    if name == "bash":
        return [_bash(args)]
    if isinstance(name, str) and name in FUNCTIONS:     # the editors too: they are its aliases
        return call_function(name, args, space, platform, TITLE)
    raise _fail(f"unknown tool {shown(name)}; tools: computer, bash, str_replace_based_edit_tool, and the "
                f"functions {', '.join(FUNCTIONS.values())}")


def _bash(args: dict) -> Terminal:
    extra = [k for k in args if k not in ("command", "restart")]
    command, restart = args.get("command"), args.get("restart")
    if extra or (command is None) == (not restart) or restart not in (None, True, False):
        raise _fail(f"bash takes {{\"command\": \"...\"}} or {{\"restart\": true}}, got {shown(args)}")
    if restart:
        return Terminal(RESTART_COMMAND)
    if not isinstance(command, str):
        raise _fail(f"bash command must be a string, got {shown(command)}")
    return Terminal(command)


def _computer(args: dict, space: CoordSpace) -> list[Action]:
    kind = args.get("action")
    if not isinstance(kind, str) or kind not in ACTIONS:
        raise _fail(f"computer needs action, one of {', '.join(ACTIONS)}; got {shown(kind)}")
    given = {k: v for k, v in args.items() if k != "action" and v is not None}
    extra = [k for k in given if k not in ACTIONS[kind]]
    if extra:
        raise _fail(f"computer {kind} does not take {shown(extra[0])}; it takes "
                    f"{', '.join(ACTIONS[kind]) or 'no other field'}")
    try:
        return _READERS[kind](given, space)
    except ActionError as e:
        raise _fail(f"computer {kind}: {e}") from None


def _at(given: dict, space: CoordSpace, field: str = "coordinate") -> tuple[int | None, int | None]:
    value = given.get(field)
    if value is None:
        return None, None
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ActionError(f"{field} must be [x, y] in pixels, got {shown(value)}")
    return space.point(list(value), field)


def _needs(given: dict, space: CoordSpace, field: str = "coordinate") -> tuple[int, int]:
    x, y = _at(given, space, field)
    if x is None:
        raise ActionError(f"needs {field} [x, y]")
    return x, y


def _text(given: dict) -> str:
    text = given.get("text")
    if not isinstance(text, str):
        raise ActionError(f"needs text, a string, got {shown(text)}")
    return text


def _modifiers(given: dict, actions: list[Action]) -> list[Action]:
    return actions if given.get("text") is None else held(split_hotkey(_text(given)), actions)


def _click(kind: str):
    def read(given: dict, space: CoordSpace) -> list[Action]:
        x, y = _at(given, space)
        if x is not None:
            clicks = [Click(x, y)] * 3 if kind == "triple_click" else [_CLICKS[kind](x, y)]
        elif kind in _BUTTON:
            clicks = [MouseDown(button=_BUTTON[kind]), MouseUp(button=_BUTTON[kind])]
        else:
            raise ActionError(f"a {kind} needs coordinate [x, y]")
        return _modifiers(given, clicks)
    return read


def _scroll(given: dict, space: CoordSpace) -> list[Action]:
    direction = choice(given.get("scroll_direction"), SCROLL_DIRECTIONS, "needs scroll_direction")
    amount = given.get("scroll_amount", 3)
    if type(amount) is float and amount.is_integer():
        amount = int(amount)
    if type(amount) is not int or not 1 <= amount <= MAX_REPEAT:
        raise ActionError(f"scroll_amount must be a whole number of notches from 1 to {MAX_REPEAT}, "
                          f"got {shown(amount)}")
    return _modifiers(given, [Scroll(direction, *_at(given, space), amount=amount)])


def _hold(given: dict, space: CoordSpace) -> list[Action]:
    keys = split_hotkey(_text(given))
    return held(keys, [Wait(seconds(given.get("duration", 1.0), "duration must be"))])


def _zoom(given: dict, space: CoordSpace) -> list[Action]:
    region = given.get("region")
    if not (isinstance(region, (list, tuple)) and len(region) == 4):
        raise ActionError(f"needs region [x1, y1, x2, y2] in pixels, got {shown(region)}")
    space.point(list(region[:2]), "region"), space.point(list(region[2:]), "region")
    return [Wait(0.0)]


_READERS = {
    "key": lambda g, s: [Hotkey(split_hotkey(_text(g)))], "hold_key": _hold,
    "type": lambda g, s: [TypeText(_text(g))], "cursor_position": lambda g, s: [Wait(0.0)],
    "mouse_move": lambda g, s: _modifiers(g, [MoveTo(*_needs(g, s))]),
    **{kind: _click(kind) for kind in (*_CLICKS, "triple_click")},
    "left_click_drag": lambda g, s: _modifiers(g, [Drag(*_needs(g, s, "start_coordinate"), *_needs(g, s))]),
    "left_mouse_down": lambda g, s: [MouseDown(*_at(g, s))], "left_mouse_up": lambda g, s: [MouseUp(*_at(g, s))],
    "scroll": _scroll, "wait": lambda g, s: [Wait(seconds(g.get("duration", 1.0), "duration must be"))],
    "screenshot": lambda g, s: [Wait(0.0)], "zoom": _zoom,
}


# --- writing -------------------------------------------------------------------------------------------
def format_anthropic(actions: Sequence[Action], space: CoordSpace, platform: str = "computer") -> list[dict]:
    """`actions` as a list of tool_use blocks (or the final answer's text block), read back by the reader."""
    actions = list(actions)
    if len(actions) == 1 and isinstance(actions[0], Finished) and actions[0].content:
        return [{"type": "text", "text": actions[0].content}]
    blocks: list[dict] = []
    i = 0
    while i < len(actions):
        written = _held_input(actions, i, space) or _input(actions, i, space)
        if written is not None:
            name, args, i = ("computer", *written)
        else:
            name, args = _tool(actions[i], space, platform)
            i += 1
        blocks.append({"type": "tool_use", "id": f"toolu_hg_{len(blocks)}", "name": name, "input": args})
    return blocks


def _tool(a: Action, space: CoordSpace, platform: str) -> tuple[str, dict]:
    if isinstance(a, Terminal):
        return "bash", {"command": a.command}
    name, args = function_of(a, space, platform)
    if isinstance(a, EditFile):
        name = "str_replace_editor" if a.command == "undo_edit" else "str_replace_based_edit_tool"
    return name, args


def _held_input(actions: list[Action], i: int, space: CoordSpace) -> tuple[dict, int] | None:
    """KeyDown k1..kn, a pointer action or a Wait, KeyUp kn..k1: the action with `text` the keys held
    (hold_key for a Wait)."""
    n = 0
    while i + n < len(actions) and isinstance(actions[i + n], KeyDown) and n < MAX_HOTKEY_KEYS:
        n += 1
    if not n or i + n >= len(actions):
        return None
    keys = [a.key for a in actions[i:i + n]]
    middle = actions[i + n]
    if isinstance(middle, Wait):
        inner, end = {"action": "hold_key", "duration": middle.seconds}, i + n + 1
    else:
        written = _input(actions, i + n, space)
        if written is None or written[0]["action"] not in ACTIONS or "text" not in ACTIONS[written[0]["action"]] \
                or "text" in written[0]:
            return None
        inner, end = written
    if actions[end:end + n] != [KeyUp(k) for k in reversed(keys)]:
        return None
    return {**inner, "text": "+".join(map(_xdotool, keys))}, end + n


def _input(actions: list[Action], i: int, space: CoordSpace) -> tuple[dict, int] | None:
    """The computer tool's input for actions[i:] and the index after the actions it covers; None if the
    computer has no action for actions[i]."""
    a = actions[i]
    pointed = isinstance(a, (Click, RightClick, MiddleClick, DoubleClick, MoveTo, MouseDown, MouseUp, Scroll))
    at = {"coordinate": list(space.coordinate((a.x, a.y)))} if pointed and a.x is not None else {}
    if isinstance(a, Click) and actions[i:i + 3] == [a] * 3:
        return {"action": "triple_click", **at}, i + 3
    simple = {Click: "left_click", RightClick: "right_click", MiddleClick: "middle_click",
              DoubleClick: "double_click", MoveTo: "mouse_move"}.get(type(a))
    if simple:
        return {"action": simple, **at}, i + 1
    if isinstance(a, Drag):
        return {"action": "left_click_drag", "start_coordinate": list(space.coordinate((a.x1, a.y1))),
                "coordinate": list(space.coordinate((a.x2, a.y2)))}, i + 1
    if isinstance(a, (MouseDown, MouseUp)) and a.button == "left" and (a.x is None) == (a.y is None):
        return {"action": "left_mouse_down" if isinstance(a, MouseDown) else "left_mouse_up", **at}, i + 1
    if isinstance(a, Scroll):
        return {"action": "scroll", **at, "scroll_direction": a.direction, "scroll_amount": a.amount}, i + 1
    if isinstance(a, TypeText):
        return {"action": "type", "text": a.text}, i + 1
    if isinstance(a, Hotkey):
        return {"action": "key", "text": "+".join(map(_xdotool, a.keys))}, i + 1
    if isinstance(a, Wait):
        return ({"action": "screenshot"} if a.seconds == 0 else {"action": "wait", "duration": a.seconds}), i + 1
    return None


def _xdotool(key: str) -> str:
    """A canonical key as xdotool names it ("Return", "Page_Up", "ctrl", a character as it is)."""
    return _XDOTOOL.get(key) or (key.capitalize() if key in NAMED_KEYS and key not in ("ctrl", "alt", "shift",
                                                                                         "super") else key)


SCHEMA = register_schema(Schema(
    "anthropic", TITLE, CoordMode.ABSOLUTE,
    "pixels of the screenshot as it was sent (coordinate [x, y], x from the left edge, y from the top)",
    looks_like_anthropic, parse_anthropic, format_anthropic, coords_override=False, image_pixels=True))
