"""Reader and formatter of Seed / UI-TARS-2 XML tool calls:
`<seed:tool_call><function=click><parameter=point><point>500 300</point></parameter></function></seed:tool_call>`.

A reply may hold several calls, each several functions; text outside the functions (thinking,
`<seed:think>...</seed:think>`, "Thought: ...") is ignored.  Also read: the variant the ui-tars
package writes (`<function name="click"><parameter name="point" string="true">...`), functions
without the `<seed:tool_call>` wrapper, and the parsed form vLLM / SGLang tool parsers return, a dict
{"name": fn, "arguments": {...}} or {"function": fn, "parameters": {...}}.  The functions and their
parameters are those of `functions.FUNCTIONS`; points are `<point>x y</point>` in 0..1000 (a box,
`<bbox>x1 y1 x2 y2</bbox>`, is its centre).

A parameter's value is text until its parameter's type converts it ("5" and 5 are the same amount).
In the text the XML entities &lt; &gt; &amp; &quot; &apos; and character references (&#60;) stand
for their characters; a value wrapped in `<text>...</text>` (as ui-tars writes text holding tags) is
taken as it is.  One newline just inside the tags is layout and is dropped
(`<parameter=file_text>\\nline\\n</parameter>` is "line"), as the Qwen3-Coder / Seed-OSS parsers do.
A raw value holding `<parameter=` or `<function=` is refused: its own `</parameter>` is missing.
The formatter writes text raw where the reader takes it back unchanged, else with `&` and `<`
escaped (text holding `</parameter>`, an opening tag or an entity), so any text round-trips.

Faults of the reference parser (`ui_tars.action_parser.parse_xml_action_v5`) fixed here: a call
whose closing tags are missing is read when the reply just stops (a truncated reply), and refused
with an ActionError naming the missing tag when more follows, never silently dropped; numbers stay
text until converted, so no int crashes; a `\\n` in `type` content is typed as Enter, never pasted as
backslash-n and pressed as well.
"""

from __future__ import annotations

import json
import re
from typing import Sequence

from .coords import CoordMode, CoordSpace
from .functions import FUNCTIONS, call_function, function_of, xml_text
from .model import MAX_ACTIONS, Action, ActionError, shown
from .schemas import Schema, register_schema
from .uitars import _excerpt, _word   # (the same cut of agent text in error messages)

TITLE = "Seed XML tool call"
_EXAMPLE = ("<seed:tool_call><function=click><parameter=point><point>500 300</point></parameter></function>"
            "</seed:tool_call>")

# What the scanner looks for outside a function: a function's opening, or thinking to skip whole.
_OUTSIDE = re.compile(r'<function(?:=([^>\s]*)|\s+name="([^"]*)"[^>]*)>|<(seed:think|think|gui_think)>')
_PARAMETER = re.compile(r'<parameter(?:=([^>\s]*)|\s+name="([^"]*)"[^>]*)>')
_FUNCTION_END = re.compile(r"</function>")
_SPACE = re.compile(r"\s*")
_TEXT_OPEN = re.compile(r"\s*<text>")
_TEXT_CLOSE = re.compile(r"</text>\s*</parameter>")
_PARAMETER_END = "</parameter>"
#: most parameters a function may have (the editor's 7 are the most of the table)
_MOST_PARAMETERS = 16
#: tags after which a value without its </parameter> is not the end of a truncated reply (the tag
#: missing is not at the very end)
_LATER_TAG = re.compile(r"<parameter[=\s]|<function[=\s]|</function>|</seed:tool_call>")
_ENTITY = re.compile(r"&(lt|gt|amp|quot|apos|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")
_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}
#: an opening tag in a raw value: the value's </parameter> is missing
_OPENING = re.compile(r"<parameter[=\s]|<function[=\s]")
#: raw text a reader would misread: a parameter's end or opening, a function's, a <text> wrapper, an entity
_AMBIGUOUS = re.compile(r"</parameter|^\s*<text>|" + _OPENING.pattern + "|" + _ENTITY.pattern)


def parse_seed(output: object, space: CoordSpace, platform: str = "computer") -> list[Action]:
    """Typed actions of a Seed XML reply (text) or of one parsed tool call (a dict)."""
    if isinstance(output, dict):
        return _parse_dict(output, space, platform)
    if not isinstance(output, str):
        raise ActionError(f"{TITLE}: expected the model's text or a parsed call {{\"name\": ..., \"arguments\": "
                          f"{{...}}}}, got {type(output).__name__} {shown(output)}")
    actions: list[Action] = []
    for name, args in _scan(output):
        actions.extend(call_function(name, args, space, platform, TITLE))
    return actions


def looks_like_seed(output: object) -> bool:
    """Whether `output` is Seed XML text, or a parsed call naming a function of the table."""
    if isinstance(output, str):
        return "<seed:tool_call" in output or "<function=" in output or "<function name=" in output
    if isinstance(output, dict) and len(output) == 2:
        for name_key, args_key in (("name", "arguments"), ("function", "parameters")):
            if args_key in output and isinstance(output.get(name_key), str):
                return output[name_key] in FUNCTIONS
    return False


def format_seed(actions: Sequence[Action], space: CoordSpace, platform: str = "computer") -> str:
    """`actions` as one `<seed:tool_call>` holding one function per action, read back by `parse_seed`."""
    functions = []
    for action in actions:
        name, args = function_of(action, space, platform)
        params = "".join(f"<parameter={key}>{_value_xml(key, value)}</parameter>\n" for key, value in args.items())
        functions.append(f"<function={name}>\n{params}</function>\n")
    return f"<seed:tool_call>\n{''.join(functions)}</seed:tool_call>"


def _value_xml(key: str, value: object) -> str:
    """A parameter's value as XML text: a point or a number as it is; text raw where a reader takes it
    back unchanged, else with & and < escaped; text holding a newline between newlines (layout)."""
    text = xml_text(key, value)
    if not isinstance(value, str):
        return text
    if _AMBIGUOUS.search(text):
        text = text.replace("&", "&amp;").replace("<", "&lt;")
    return f"\n{text}\n" if "\n" in text else text


def _parse_dict(output: dict, space: CoordSpace, platform: str) -> list[Action]:
    for name_key, args_key in (("name", "arguments"), ("function", "parameters")):
        if name_key in output and args_key in output and len(output) == 2:
            args = output[args_key]
            if isinstance(args, str):       # OpenAI-style tool calls carry the arguments as JSON text
                try:
                    args = json.loads(args)
                except ValueError as e:
                    raise ActionError(f"{TITLE}: the arguments of {shown(output[name_key])} are not valid JSON: "
                                      f"{e}") from None
            return call_function(output[name_key], args, space, platform, TITLE)
    raise ActionError(f"{TITLE}: a parsed call is {{\"name\": function, \"arguments\": {{...}}}} or "
                      f"{{\"function\": function, \"parameters\": {{...}}}}, got {shown(output)}")


def _scan(text: str) -> list[tuple[str, dict[str, str]]]:
    """(function name, raw parameter values) of each function in `text`, in order."""
    calls, pos, closes = [], 0, {}
    while (match := _OUTSIDE.search(text, pos)) is not None:
        if match.group(3):                    # thinking: skip to its end (none: the rest is thinking)
            end = text.find(f"</{match.group(3)}>", match.end())
            if end < 0:
                break
            pos = end + len(match.group(3)) + 3
            continue
        name = match.group(1) if match.group(1) is not None else match.group(2)
        args, pos = _function_body(text, match.end(), name, closes)
        calls.append((name, args))
        if len(calls) > MAX_ACTIONS:
            raise ActionError(f"{TITLE}: more than {MAX_ACTIONS} functions; at most {MAX_ACTIONS} actions are "
                              f"performed per step; send the rest in later steps")
    if not calls:
        raise ActionError(f"{TITLE}: no <function=NAME> in the reply; expected e.g. {_EXAMPLE}; "
                          f"functions: {', '.join(FUNCTIONS)}")
    return calls


def _function_body(text: str, pos: int, name: str, closes: dict) -> tuple[dict[str, str], int]:
    """The parameters of the function whose body starts at `pos`, and the position after it
    (`closes`: the scan's cache of where the next `</text></parameter>` is)."""
    fn, args = _word(name), {}
    while True:
        pos = _SPACE.match(text, pos).end()
        if pos == len(text):                  # truncated after a parameter: the reply just stops
            return args, pos
        if end := _FUNCTION_END.match(text, pos):
            return args, end.end()
        param = _PARAMETER.match(text, pos)
        if param is None:
            missing = "</function>" if _OUTSIDE.match(text, pos) or text.startswith("</seed:tool_call>", pos) \
                else "<parameter=KEY> or </function>"
            raise ActionError(f"{TITLE}: <function={fn}> needs {missing} at {_excerpt(text, pos)}; "
                              f"write {_EXAMPLE}")
        key = param.group(1) if param.group(1) is not None else param.group(2)
        if key in args:
            raise ActionError(f"{TITLE}: <function={fn}> has <parameter={_word(key)}> twice")
        if len(args) >= _MOST_PARAMETERS:
            raise ActionError(f"{TITLE}: <function={fn}> has more than {_MOST_PARAMETERS} parameters; "
                              f"functions: {', '.join(FUNCTIONS.values())}")
        args[key], pos = _value(text, param.end(), fn, key, closes)


def _value(text: str, pos: int, fn: str, key: str, closes: dict) -> tuple[str, int]:
    """The value of the parameter whose text starts at `pos`, and the position after its </parameter>."""
    wrapped = _TEXT_OPEN.match(text, pos)
    if wrapped:
        close = closes.get("text", False)
        if close is False or (close is not None and close.start() < wrapped.end()):   # (searched once per place)
            close = closes["text"] = _TEXT_CLOSE.search(text, wrapped.end())
        if close is not None:
            return text[wrapped.end():close.start()], close.end()
    end = text.find(_PARAMETER_END, pos)
    if end < 0:                               # no </parameter>: read it only if the reply just stops
        later = _LATER_TAG.search(text, pos)
        if later is not None:
            raise ActionError(f"{TITLE}: <parameter={_word(key)}> of <function={fn}> has no </parameter> "
                              f"before {_excerpt(text, later.start())}; close each parameter: {_EXAMPLE}")
        return _unescape(_layout(text[pos:])), len(text)
    opening = _OPENING.search(text, pos, end)
    if opening is not None:
        raise ActionError(f"{TITLE}: <parameter={_word(key)}> of <function={fn}> has no </parameter> before "
                          f"{_excerpt(text, opening.start())}; close each parameter (text holding such tags: "
                          f"escape its < as &lt;): {_EXAMPLE}")
    return _unescape(_layout(text[pos:end])), end + len(_PARAMETER_END)


def _layout(value: str) -> str:
    """`value` without the one newline just inside each of its tags."""
    if value.startswith("\n"):
        value = value[1:]
    return value[:-1] if value.endswith("\n") else value


def _unescape(value: str) -> str:
    def char(m: re.Match) -> str:
        ref = m.group(1)
        if ref in _ENTITIES:
            return _ENTITIES[ref]
        code = int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:])
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else m.group()

    return _ENTITY.sub(char, value) if "&" in value else value


SCHEMA = register_schema(Schema(
    "seed", TITLE, CoordMode.RELATIVE,
    "0..1000 on both axes (<point>x y</point>, x from the left edge, y from the top), as UI-TARS-2 "
    "and Seed models write them",
    looks_like_seed, parse_seed, format_seed))
