"""The prompts `ChatAgent` sends a model: one per action schema, for a computer or a phone, with the
SDK's functions described only when the task offers them.

A prompt tells the model three things: what it operates (a desktop computer, or a phone, whose
vocabulary is taps, swipes and the phone's buttons), how to write its actions (the schema's own
form, with the coordinate space in use and the numbers of this screen), and the task.

- "uitars": the ui-tars package's own templates (`ui_tars.prompt.COMPUTER_USE_DOUBAO`,
  `MOBILE_USE_DOUBAO`), filled with the language and the instruction, and sent as the first user
  message as UI-TARS was trained; for an SDK task the SDK calls the UI-TARS reader knows
  (terminal, read_file, write_file) are added to its action space.
- "seed": the functions of `hybridgym.actions.functions.FUNCTIONS` as Seed XML tool calls.
- "qwen": the `computer_use` (or `mobile_use`) function in Qwen's tool-calling system prompt (the
  `<tools>` block its chat template writes), the SDK tools beside it.
- "openai" / "anthropic": the computer-use actions of each vendor's tool, written as its JSON
  (a `computer_call` item; `tool_use` blocks), the SDK and hybridgym's extra functions as that
  vendor's function calls.
- "pyautogui": pyautogui calls with literal arguments.

`tools(...)` gives, for the families that call functions through the API ("qwen", "anthropic"), the
OpenAI-style function tools to send with the request to a server that parses tool calls (vLLM with
`--enable-auto-tool-choice`); the text prompt alone is enough otherwise.

The coordinate sentence is written from the mode in use and the size of the image sent (the
schema's `coords_note` describes its default mode in general words, for the docs).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .actions import CoordMode, smart_resize
from .actions.functions import FUNCTIONS

PLATFORMS = ("computer", "mobile")
PROMPT_SCHEMAS = ("seed", "uitars", "qwen", "openai", "anthropic", "pyautogui")


@dataclass(frozen=True)
class Prompt:
    """What opens a conversation: the system message (None: none is sent) and the text of the first user
    message, which holds the task."""
    system: str | None
    task: str


def build_prompt(schema: str, coords: str, *, platform: str, sdk: bool, instruction: str,
                 image_size: tuple[int, int], language: str = "English", tools_sent: bool = False) -> Prompt:
    """The prompt of `schema`'s family for one task.

    coords: the coordinate mode the env reads ("relative", "absolute", "smart_resize");
    platform: "computer" or "mobile" (the phone); sdk: whether the task offers the SDK;
    image_size: (width, height) of the screenshot as sent; tools_sent: the request carries
    `tools(...)`, so the server's chat template describes them (Qwen's tools block is then left out).
    """
    if platform not in PLATFORMS:
        raise ValueError(f"platform must be one of {PLATFORMS}, got {platform!r}")
    if schema not in PROMPT_SCHEMAS:
        raise ValueError(f"no prompt for schema {schema!r}; prompts exist for {', '.join(PROMPT_SCHEMAS)}")
    where = coordinate_note(coords, image_size)
    if schema == "uitars":
        return Prompt(None, _uitars(platform, sdk, instruction, language))
    system = _BUILDERS[schema](platform=platform, sdk=sdk, where=where, image_size=image_size, coords=coords,
                               tools_sent=tools_sent)
    return Prompt(system, f"Task: {instruction}")


def tools(schema: str, coords: str, *, platform: str, sdk: bool,
          image_size: tuple[int, int]) -> list[dict] | None:
    """The OpenAI-style function tools of `schema`'s family, for a server that parses tool calls; None
    for the families that answer in text only."""
    if schema == "qwen":
        return [{"type": "function", "function": f} for f in _qwen_functions(platform, sdk, coords, image_size)]
    if schema == "anthropic":
        return [{"type": "function", "function": f} for f in _anthropic_functions(platform, sdk)]
    return None


def coordinate_note(coords: str, image_size: tuple[int, int]) -> str:
    """One sentence: what a point's two numbers mean in mode `coords` for an image of `image_size`."""
    w, h = image_size
    mode = CoordMode(coords)
    if mode is CoordMode.RELATIVE:
        return ("Coordinates are x y from 0 to 1000 across the screenshot, whatever its size in pixels: "
                "0 0 is its top-left corner, 1000 1000 its bottom-right, 500 500 its centre.")
    if mode is CoordMode.ABSOLUTE:
        return (f"Coordinates are pixels of the {w}x{h} screenshot: x from the left edge (0..{w - 1}), "
                f"y from the top edge (0..{h - 1}).")
    rh, rw = smart_resize(h, w)
    return (f"Coordinates are pixels of the screenshot resized to {rw}x{rh}: x from the left edge (0..{rw}), "
            f"y from the top edge (0..{rh}).")


# --- what each function does, in a few words -------------------------------------------------------
_WHAT = {
    "click": "left-click the point", "left_double": "double-click the point", "right_single": "right-click the point",
    "middle_single": "middle-click the point", "move_to": "move the pointer to the point (hover)",
    "drag": "press at start_point, move to end_point, release",
    "mouse_down": "press a mouse button (left, right or middle; at the point if given)",
    "mouse_up": "release a mouse button (at the point if given)",
    "scroll": "scroll the wheel at the point: direction up, down, left or right; amount in notches (default 5)",
    "type": "type the text; \\n in it presses Enter (end with \\n to submit)",
    "hotkey": "press keys together, lowercase, split by spaces: 'ctrl c', 'enter', 'alt tab'",
    "press": "press one key: 'enter', 'tab', 'esc'", "keydown": "hold a key down", "keyup": "release a held key",
    "wait": "wait (default 5 seconds) and take a new screenshot",
    "finished": "the task is done; content: the answer, if the task asks for one",
    "call_user": "hand back to the user: the task cannot be done",
    "tap": "tap the point", "long_press": "touch and hold the point (duration in seconds)",
    "swipe": "slide a finger from start_point to end_point",
    "open_app": "open an app by its name", "press_home": "the phone's Home button",
    "press_back": "the phone's Back button",
    "execute_bash": "run a shell command in the task's workspace; its output comes back with the next screenshot",
    "str_replace_editor": ("view, create or edit a file of the workspace: command view (path; view_range "
                           "[first, last] lines, -1 to the end), create (path, file_text), str_replace (path, "
                           "old_str found exactly once, new_str), insert (path, insert_line, new_str: after that "
                           "line, 0 at the top), undo_edit (path)"),
}
_SEED_COMPUTER = ("click", "left_double", "right_single", "middle_single", "move_to", "drag", "mouse_down", "mouse_up",
                  "scroll", "type", "hotkey", "press", "keydown", "keyup", "wait", "finished", "call_user")
_SEED_MOBILE = ("click", "long_press", "swipe", "scroll", "type", "open_app", "press_home", "press_back", "wait",
                "finished", "call_user")
_SDK_FUNCTIONS = ("execute_bash", "str_replace_editor")
_DEVICE = {"computer": "a Linux desktop computer (mouse and keyboard)",
           "mobile": "a phone (touch screen: taps, swipes and its Home and Back buttons)"}


#: what the shared functions mean on the phone
_WHAT_MOBILE = {"click": "tap the point",
                "scroll": "scroll the screen at the point (a swipe): direction up, down, left or right"}


def _lines(names, platform: str = "computer") -> str:
    what = {**_WHAT, **_WHAT_MOBILE} if platform == "mobile" else _WHAT
    return "\n".join(f"- {FUNCTIONS[n]}: {what[n]}" for n in names)


def _loop(sdk: bool) -> str:
    feedback = "the output of your last SDK call or the error" if sdk else "the error"
    return (f"You get a screenshot of the screen each turn, with {feedback} your last action caused, if any, and "
            "you answer with the next action(s) until the task is done.")


def _seed(*, platform, sdk, where, **_) -> str:
    names = _SEED_MOBILE if platform == "mobile" else _SEED_COMPUTER
    sdk_part = (f"\n\n## SDK functions (this task offers them)\n{_lines(_SDK_FUNCTIONS)}" if sdk else "")
    return (f"You are a GUI agent operating {_DEVICE[platform]}. {_loop(sdk)}\n\n"
            "## Output format\nThink briefly, then write the call; several <function> blocks in one call run in "
            "order:\n"
            "<seed:tool_call>\n<function=click>\n<parameter=point><point>500 300</point></parameter>\n</function>\n"
            "</seed:tool_call>\n"
            f"Points are written <point>x y</point>. {where}\n\n"
            f"## Functions\n{_lines(names, platform)}{sdk_part}")


# --- UI-TARS: the ui-tars package's templates --------------------------------------------------------
_UITARS_SDK = ("terminal(command='ls -la') # Run a shell command in the task's workspace; its output comes back "
               "with the next screenshot.\n"
               "read_file(path='notes.txt') # Show a file of the workspace.\n"
               "write_file(path='notes.txt', content='xxx') # Write a file of the workspace (escape as in type).\n")
_SLOT = re.compile(r"\{(language|instruction)\}")


def _uitars(platform: str, sdk: bool, instruction: str, language: str) -> str:
    from ui_tars.prompt import COMPUTER_USE_DOUBAO, MOBILE_USE_DOUBAO
    template = MOBILE_USE_DOUBAO if platform == "mobile" else COMPUTER_USE_DOUBAO
    if sdk:     # the SDK calls join the action space, just before the notes
        head, mark, tail = template.partition("\n## Note")
        template = (head.rstrip("\n") + "\n" + _UITARS_SDK + "\n" + mark + tail) if mark else template + _UITARS_SDK
    values = {"language": language, "instruction": instruction}
    return _SLOT.sub(lambda m: values[m.group(1)], template)   # one pass: the instruction's braces stay


# --- Qwen: computer_use / mobile_use in its tool-calling system prompt ------------------------------
def _qwen_screen(coords: str, image_size: tuple[int, int]) -> str:
    w, h = image_size
    mode = CoordMode(coords)
    if mode is CoordMode.RELATIVE:
        return "1000x1000"
    if mode is CoordMode.SMART_RESIZE:
        h, w = smart_resize(h, w)
    return f"{w}x{h}"


def _qwen_functions(platform: str, sdk: bool, coords: str, image_size: tuple[int, int]) -> list[dict]:
    screen = _qwen_screen(coords, image_size)
    point = {"type": "array", "description": "(x, y): pixels from the left edge and from the top edge."}
    if platform == "mobile":
        main = {"name": "mobile_use", "description": (
            "Use a touchscreen to interact with a mobile device, and take screenshots.\n"
            f"* This is an interface to a mobile device with touchscreen. The screen's resolution is {screen}.\n"
            "* Tap buttons, links and fields in their centre."),
            "parameters": {"type": "object", "required": ["action"], "properties": {
                "action": {"type": "string", "enum": ["click", "long_press", "swipe", "type", "system_button",
                                                      "open", "wait", "terminate", "answer"],
                           "description": (
                               "* `click`: tap the point `coordinate`.\n"
                               "* `long_press`: touch and hold `coordinate` for `time` seconds.\n"
                               "* `swipe`: slide from `coordinate` to `coordinate2`.\n"
                               "* `type`: type `text` in the focused field.\n"
                               "* `system_button`: press `button` (Back, Home, Menu, Enter).\n"
                               "* `open`: open the app named `text`.\n"
                               "* `wait`: wait `time` seconds.\n"
                               "* `answer`: give the answer `text` and end the task.\n"
                               "* `terminate`: end the task with `status`.")},
                "coordinate": point, "coordinate2": point,
                "text": {"type": "string"}, "time": {"type": "number"},
                "button": {"type": "string", "enum": ["Back", "Home", "Menu", "Enter"]},
                "status": {"type": "string", "enum": ["success", "failure"]}}}}
    else:
        main = {"name": "computer_use", "description": (
            "Use a mouse and keyboard to interact with a computer, and take screenshots.\n"
            f"* This is an interface to a desktop GUI. The screen's resolution is {screen}.\n"
            "* Some applications take time to start or to respond: wait and look at the next screenshot.\n"
            "* Click buttons, links and icons in their centre."),
            "parameters": {"type": "object", "required": ["action"], "properties": {
                "action": {"type": "string", "enum": ["key", "type", "mouse_move", "left_click", "left_click_drag",
                                                      "right_click", "middle_click", "double_click", "triple_click",
                                                      "scroll", "hscroll", "wait", "terminate", "answer"],
                           "description": (
                               "* `key`: press the `keys` together (e.g. [\"ctrl\", \"c\"]), release them in reverse.\n"
                               "* `type`: type `text`.\n"
                               "* `mouse_move`: move the pointer to `coordinate`.\n"
                               "* `left_click`, `right_click`, `middle_click`, `double_click`, `triple_click`: "
                               "click at `coordinate`.\n"
                               "* `left_click_drag`: press the left button where the pointer is and drag to "
                               "`coordinate`.\n"
                               "* `scroll` / `hscroll`: turn the wheel by `pixels` at `coordinate` (positive: up / "
                               "right, negative: down / left).\n"
                               "* `wait`: wait `time` seconds.\n"
                               "* `answer`: give the answer `text` and end the task.\n"
                               "* `terminate`: end the task with `status`.")},
                "keys": {"type": "array"}, "text": {"type": "string"}, "coordinate": point,
                "pixels": {"type": "number"}, "time": {"type": "number"},
                "status": {"type": "string", "enum": ["success", "failure"]}}}}
    return [main, *(_SDK_TOOLS if sdk else ())]


_SDK_TOOLS = (
    {"name": "execute_bash", "description": _WHAT["execute_bash"],
     "parameters": {"type": "object", "required": ["command"], "properties": {"command": {"type": "string"}}}},
    {"name": "str_replace_editor", "description": _WHAT["str_replace_editor"],
     "parameters": {"type": "object", "required": ["command", "path"], "properties": {
         "command": {"type": "string", "enum": ["view", "create", "str_replace", "insert", "undo_edit"]},
         "path": {"type": "string"}, "file_text": {"type": "string"}, "old_str": {"type": "string"},
         "new_str": {"type": "string"}, "insert_line": {"type": "integer"},
         "view_range": {"type": "array", "items": {"type": "integer"}}}}},
)


def _qwen(*, platform, sdk, where, image_size, coords, tools_sent) -> str:
    device = f"You are operating {_DEVICE[platform]}. {_loop(sdk)}"
    if tools_sent:
        return device
    block = "\n".join(json.dumps({"type": "function", "function": f}, ensure_ascii=False)
                      for f in _qwen_functions(platform, sdk, coords, image_size))
    return (f"{device}\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
            "You are provided with function signatures within <tools></tools> XML tags:\n"
            f"<tools>\n{block}\n</tools>\n\n"
            "For each function call, return a json object with function name and arguments within "
            "<tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": "
            "<args-json-object>}\n</tool_call>")


# --- OpenAI computer use --------------------------------------------------------------------------------
_OPENAI_ACTIONS = (
    '{"type": "click", "x": X, "y": Y, "button": "left"} (button left, right, wheel, back or forward; "keys": '
    '["SHIFT"] held while clicking)',
    '{"type": "double_click", "x": X, "y": Y}',
    '{"type": "drag", "path": [{"x": X1, "y": Y1}, {"x": X2, "y": Y2}]}',
    '{"type": "move", "x": X, "y": Y}',
    '{"type": "scroll", "x": X, "y": Y, "scroll_x": 0, "scroll_y": 300} (in pixels; scroll_y > 0 scrolls down)',
    '{"type": "keypress", "keys": ["CTRL", "C"]} (pressed together)',
    '{"type": "type", "text": "hello"}',
    '{"type": "wait"}', '{"type": "screenshot"}',
)
_EXTRA_MOBILE = ("long_press", "swipe", "open_app", "press_home", "press_back")


def _openai(*, platform, sdk, where, **_) -> str:
    extra = ("call_user", *(_EXTRA_MOBILE if platform == "mobile" else ()), *(_SDK_FUNCTIONS if sdk else ()))
    return (f"You are operating {_DEVICE[platform]} with OpenAI's computer-use tool. {_loop(sdk)}\n\n"
            "Answer with JSON only: a computer_call item\n"
            '{"type": "computer_call", "action": {"type": "click", "x": 100, "y": 200, "button": "left"}}\n'
            'or, for several actions in order, {"type": "computer_call", "actions": [...]}.\n'
            f"{where}\n\nActions:\n" + "\n".join(f"- {a}" for a in _OPENAI_ACTIONS) + "\n\n"
            "Other functions are function_call items, the arguments a JSON text (points as [x, y]); "
            "several items form a JSON list:\n"
            '{"type": "function_call", "name": "call_user", "arguments": "{\\"content\\": \\"why\\"}"}\n'
            + _lines(extra, platform) + "\n\n"
            "When the task is done, answer with a message item holding the answer, if the task asks for one:\n"
            '{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "the answer"}]}')


# --- Anthropic computer use -------------------------------------------------------------------------------
_ANTHROPIC_ACTIONS = (
    "key: text = the keys, xdotool style (\"ctrl+s\", \"Return\")",
    "hold_key: text = the key, duration in seconds",
    "type: text", "mouse_move: coordinate",
    "left_click, right_click, middle_click, double_click, triple_click: coordinate (else where the pointer is), "
    "text = modifier keys held (\"shift\")",
    "left_click_drag: start_coordinate, coordinate", "left_mouse_down, left_mouse_up",
    "scroll: coordinate, scroll_direction (up, down, left, right), scroll_amount (wheel notches)",
    "wait: duration in seconds", "screenshot",
)


def _anthropic(*, platform, sdk, where, tools_sent, **_) -> str:
    extra = ("call_user", *(_EXTRA_MOBILE if platform == "mobile" else ()))
    sdk_part = ("\n\nThis task offers the SDK: the tool \"bash\" (input {\"command\": ...}) runs a shell command in "
                "the task's workspace, and the tool \"str_replace_based_edit_tool\" (input {\"command\", \"path\", "
                "\"file_text\", \"old_str\", \"new_str\", \"insert_line\", \"view_range\"}) is to "
                + _WHAT["str_replace_editor"] + "." if sdk else "")
    how = ("Call the tools." if tools_sent else
           "Answer with JSON only, a list of tool_use blocks:\n"
           '[{"type": "tool_use", "id": "toolu_1", "name": "computer", "input": {"action": "left_click", '
           '"coordinate": [100, 200]}}]')
    return (f"You are operating {_DEVICE[platform]} with Anthropic's computer-use tools. {_loop(sdk)}\n\n{how}\n"
            f"{where}\n\nThe \"computer\" tool's actions (input: action and its fields):\n"
            + "\n".join(f"- {a}" for a in _ANTHROPIC_ACTIONS)
            + "\n\nOther tools, by name, their input the function's arguments (points as [x, y]):\n"
            + _lines(extra, platform)
            + sdk_part + "\n\nWhen the task is done, answer with text only and no tool call: the answer, if the task "
            "asks for one" + ("." if tools_sent else ' ([{"type": "text", "text": "the answer"}]).'))


def _anthropic_functions(platform: str, sdk: bool) -> list[dict]:
    point = {"type": "array", "items": {"type": "number"}}
    computer = {"name": "computer", "description": "Operate the screen: " + "; ".join(_ANTHROPIC_ACTIONS),
                "parameters": {"type": "object", "required": ["action"], "properties": {
                    "action": {"type": "string", "enum": [
                        "key", "hold_key", "type", "cursor_position", "mouse_move", "left_click", "right_click",
                        "middle_click", "double_click", "triple_click", "left_click_drag", "left_mouse_down",
                        "left_mouse_up", "scroll", "wait", "screenshot"]},
                    "coordinate": point, "start_coordinate": point, "text": {"type": "string"},
                    "scroll_direction": {"type": "string", "enum": ["up", "down", "left", "right"]},
                    "scroll_amount": {"type": "integer"}, "duration": {"type": "number"}}}}
    functions = [computer, {"name": "call_user", "description": _WHAT["call_user"],
                            "parameters": {"type": "object", "properties": {"content": {"type": "string"}}}}]
    if sdk:
        bash, editor = _SDK_TOOLS
        functions += [{**bash, "name": "bash"}, {**editor, "name": "str_replace_based_edit_tool"}]
    return functions


# --- pyautogui code ---------------------------------------------------------------------------------------------
def _pyautogui(*, platform, sdk, where, **_) -> str:
    return (f"You are operating {_DEVICE[platform]}. {_loop(sdk)}\n\n"
            "Answer with Python code in a ```python block: pyautogui calls for the next action(s), e.g.\n"
            "```python\npyautogui.click(100, 200)\npyautogui.write('hello')\npyautogui.press('enter')\n```\n"
            "The code is read, never run: only calls of pyautogui.click, doubleClick, rightClick, middleClick, "
            "moveTo, dragTo, mouseDown, mouseUp, scroll (clicks, positive up), hscroll, write, press, hotkey, "
            "keyDown, keyUp and time.sleep, with literal arguments (no variables, loops or other code).\n"
            f"{where}\nThe episode ends when the task is done.")


#: the system prompt of each schema but "uitars" (whose template is its first user message)
_BUILDERS = {"seed": _seed, "qwen": _qwen, "openai": _openai, "anthropic": _anthropic, "pyautogui": _pyautogui}
