"""Tests of the OpenAI computer-use and Anthropic computer-use schemas (hybridgym.actions.openai_cua,
hybridgym.actions.anthropic_cua): round trips, the vendors' own JSON, auto detection, hostile input."""

from __future__ import annotations

import json
import math
import random
import time

import pytest

from hybridgym.actions import (
    ActionError, CallUser, Click, Codec, DoubleClick, Drag, EditFile, Finished, Hotkey, KeyDown, KeyUp, LongPress,
    MiddleClick, MouseDown, MouseUp, MoveTo, OpenApp, PressBack, PressHome, ReadFile, RightClick, Scroll, Swipe, Tap,
    Terminal, TypeText, Wait, WriteFile,
)
from hybridgym.actions.anthropic_cua import RESTART_COMMAND
from hybridgym.actions.coords import CoordMode, CoordSpace
from hybridgym.actions.openai_cua import PIXELS_PER_NOTCH, WAIT_SECONDS
from hybridgym.actions.schemas import detect, get_schema

from .attack_kit import nested_dict, nested_list

SCHEMAS = ("openai", "anthropic")
TITLES = {"openai": "OpenAI computer_call", "anthropic": "Anthropic tool_use"}
#: (screen, platform, image_size) the round trips run on
SETUPS = [((1280, 800), "computer", None), ((1080, 2400), "mobile", None), ((1280, 800), "computer", (1024, 640))]
TEXTS = ["hello", "a\nb\n", 'quote " and \\ backslash', "日本語 ✓", "\n", "  spaces  ", "{\"json\": 1}", "\\n"]


def samples(rng: random.Random, screen: tuple[int, int], platform: str) -> list:
    """Actions of every type the two schemas write, at random pixels, alone and in the groups their
    formatters write as one vendor action (keys held around a click, a drag path, a triple click)."""
    w, h = screen

    def px():
        return rng.randrange(w), rng.randrange(h)

    text = rng.choice(TEXTS)
    p = px()
    acts = [
        Click(*px()), DoubleClick(*px()), RightClick(*px()), MiddleClick(*px()), MoveTo(*px()), Drag(*px(), *px()),
        MouseDown(*px(), button=rng.choice(["left", "right", "middle"])), MouseUp(), MouseUp(*px(), "right"),
        MouseDown(), Scroll(rng.choice(["up", "down", "left", "right"]), *px(), amount=rng.randint(1, 100)),
        Scroll("down"), TypeText(text), Hotkey(("ctrl", "shift", "t")), Hotkey(("ctrl", "+")), Hotkey(("enter",)),
        Hotkey(("space",)), Hotkey(("alt", "left")), Hotkey(("é",)), KeyDown("shift"), KeyUp("shift"),
        Wait(rng.choice([0.0, 0.5, 1.0, 5.0, 1 / 3])), Finished(text), Finished(), CallUser("help me"),
        Terminal("cat <<'EOF' > a\nx\nEOF"), ReadFile("notes/a.txt"), WriteFile("a b.txt", text),
        EditFile("view", "src"), EditFile("view", "a.py", view_range=(rng.randint(1, 9), -1)),
        EditFile("create", "a.py", file_text=text), EditFile("str_replace", "a.py", old_str=text, new_str="y"),
        EditFile("insert", "a.py", new_str=text, insert_line=0), EditFile("undo_edit", "a.py"),
        KeyDown("ctrl"), KeyDown("shift"), Click(*p), KeyUp("shift"), KeyUp("ctrl"),       # held keys
        Click(*p), Click(*p), Click(*p),                                                    # a triple click
        MouseDown(*px()), MoveTo(*px()), MoveTo(*px()), MouseUp(*px()),                     # a drag path
        KeyDown("alt"), Wait(0.5), KeyUp("alt"),                                            # a held key
    ]
    if platform == "mobile":
        acts += [Tap(*px()), LongPress(*px()), LongPress(*px(), duration=2.5), Swipe(*px(), *px()), PressHome(),
                 PressBack(), OpenApp("Contacts")]
    return acts


def codec(schema: str, screen=(1280, 800), platform="computer", image_size=None) -> Codec:
    return Codec(screen, platform=platform, schema=schema, image_size=image_size)


def error_of(output, schema: str, screen=(1280, 800), platform="computer") -> str:
    with pytest.raises(ActionError) as info:
        codec(schema, screen, platform).parse(output)
    return str(info.value)


# --- round trips ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("schema", SCHEMAS)
@pytest.mark.parametrize("screen,platform,image_size", SETUPS)
def test_format_then_parse_is_identity_for_every_action(schema, screen, platform, image_size):
    forced = codec(schema, screen, platform, image_size)
    auto = Codec(screen, platform=platform, image_size=image_size)
    rng = random.Random(f"{schema}{screen}{platform}{image_size}")
    for _ in range(20):
        acts = samples(rng, screen, platform)
        for act in acts:
            written = forced.format([act])
            assert forced.parse(written) == [act], written
            assert forced.parse(json.dumps(written)) == [act], written      # the same as JSON text
            assert auto.parse(written) == [act], written
        written = forced.format(acts)
        assert forced.parse(written) == acts and auto.parse(json.dumps(written)) == acts


@pytest.mark.parametrize("schema", SCHEMAS)
def test_coordinates_are_pixels_of_the_image_as_sent(schema):
    resized = codec(schema, image_size=(1024, 640))
    assert resized.space(schema) == CoordSpace((1280, 800), CoordMode.ABSOLUTE, image=(1024, 640))
    written = json.dumps(resized.format([Click(640, 400)]))
    assert "512" in written and "320" in written
    assert Codec((1280, 800), coords="relative", schema=schema).space(schema).mode is CoordMode.ABSOLUTE


def test_openai_formatter_writes_one_computer_call_or_a_list_of_items():
    c = codec("openai")
    assert c.format([Click(10, 20)]) == {"type": "computer_call", "call_id": "call_hg_0",
                                         "action": {"type": "click", "x": 10, "y": 20, "button": "left"}}
    batched = c.format([KeyDown("shift"), Click(1, 2), KeyUp("shift"), Hotkey(("ctrl", "c")), Wait(0)])
    assert batched["actions"] == [{"type": "click", "x": 1, "y": 2, "button": "left", "keys": ["SHIFT"]},
                                  {"type": "keypress", "keys": ["CTRL", "c"]}, {"type": "screenshot"}]
    items = c.format([TypeText("42"), Finished("42")])
    assert [i["type"] for i in items] == ["computer_call", "function_call"]
    assert items[1]["name"] == "finished" and json.loads(items[1]["arguments"]) == {"content": "42"}
    assert c.format([Finished("42")]) == {"type": "message", "role": "assistant",
                                          "content": [{"type": "output_text", "text": "42"}]}
    assert c.format([Terminal("ls -la")])[0]["name"] == "execute_bash"
    assert c.format([Wait(WAIT_SECONDS)])["action"] == {"type": "wait"}
    assert c.format([Scroll("up", 5, 6, 3)])["action"] == {"type": "scroll", "x": 5, "y": 6,
                                                           "scroll_y": -3 * PIXELS_PER_NOTCH, "scroll_x": 0}


def test_anthropic_formatter_writes_tool_use_blocks():
    c = codec("anthropic")
    blocks = c.format([Click(5, 6), Click(5, 6), Click(5, 6), Hotkey(("ctrl", "s")), Hotkey(("enter",)),
                       Terminal("ls"), EditFile("view", "a.py")])
    assert [b["id"] for b in blocks] == [f"toolu_hg_{i}" for i in range(5)]
    assert blocks[0]["input"] == {"action": "triple_click", "coordinate": [5, 6]}
    assert [b["input"].get("text") for b in blocks[1:3]] == ["ctrl+s", "Return"]
    assert blocks[3] == {"type": "tool_use", "id": "toolu_hg_3", "name": "bash", "input": {"command": "ls"}}
    assert blocks[4]["name"] == "str_replace_based_edit_tool"
    assert c.format([Finished("done")]) == [{"type": "text", "text": "done"}]


# --- the vendors' own JSON ----------------------------------------------------------------------------
OPENAI_RESPONSE = {
    "id": "resp_67cc", "object": "response", "status": "completed", "model": "computer-use-preview",
    "output": [
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Clicking the field."}]},
        {"type": "computer_call", "id": "cu_1", "call_id": "call_zw3", "status": "completed",
         "pending_safety_checks": [], "action": {"type": "click", "button": "left", "x": 156, "y": 50}},
    ],
}


def test_openai_responses_read_as_dicts_and_as_text():
    c = codec("openai")
    assert c.parse(OPENAI_RESPONSE) == [Click(156, 50)]
    assert c.parse(json.dumps(OPENAI_RESPONSE)) == [Click(156, 50)]
    assert c.parse(OPENAI_RESPONSE["output"]) == [Click(156, 50)]      # the list of output items
    assert Codec((1280, 800)).parse(json.dumps(OPENAI_RESPONSE)) == [Click(156, 50)]


@pytest.mark.parametrize("action,expected", [
    ({"type": "click", "x": 10, "y": 20}, [Click(10, 20)]),
    ({"type": "click", "x": 10, "y": 20, "button": "right"}, [RightClick(10, 20)]),
    ({"type": "click", "x": 10, "y": 20, "button": "wheel"}, [MiddleClick(10, 20)]),
    ({"type": "click", "x": 10, "y": 20, "button": "back"}, [Hotkey(("alt", "left"))]),
    ({"type": "click", "x": 10, "y": 20, "button": "forward"}, [Hotkey(("alt", "right"))]),
    ({"type": "click", "x": 10, "y": 20, "keys": ["CTRL", "SHIFT"]},
     [KeyDown("ctrl"), KeyDown("shift"), Click(10, 20), KeyUp("shift"), KeyUp("ctrl")]),
    ({"type": "double_click", "x": 3.4, "y": 4.6}, [DoubleClick(3, 5)]),
    ({"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 30, "y": 40}]}, [Drag(1, 2, 30, 40)]),
    ({"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 5, "y": 5}, {"x": 30, "y": 40}]},
     [MouseDown(1, 2), MoveTo(5, 5), MouseUp(30, 40)]),
    ({"type": "keypress", "keys": ["CTRL", "ALT", "Delete"]}, [Hotkey(("ctrl", "alt", "delete"))]),
    ({"type": "keypress", "keys": ["ENTER"]}, [Hotkey(("enter",))]),
    ({"type": "keypress", "keys": ["ArrowLeft"]}, [Hotkey(("left",))]),
    ({"type": "keypress", "keys": ["ctrl+c"]}, [Hotkey(("ctrl", "c"))]),
    ({"type": "move", "x": 7, "y": 8}, [MoveTo(7, 8)]),
    ({"type": "scroll", "x": 5, "y": 6, "scroll_x": 0, "scroll_y": 300}, [Scroll("down", 5, 6, 3)]),
    ({"type": "scroll", "x": 5, "y": 6, "scroll_x": -150, "scroll_y": -20},
     [Scroll("up", 5, 6, 1), Scroll("left", 5, 6, 2)]),
    ({"type": "scroll", "x": 5, "y": 6, "scroll_x": 0, "scroll_y": 0}, [Wait(0)]),
    ({"type": "type", "text": "hello\n"}, [TypeText("hello\n")]),
    ({"type": "wait"}, [Wait(WAIT_SECONDS)]),
    ({"type": "wait", "ms": 250}, [Wait(0.25)]),
    ({"type": "screenshot"}, [Wait(0)]),
])
def test_openai_actions_make_the_typed_actions(action, expected):
    c = codec("openai")
    assert c.parse({"type": "computer_call", "call_id": "c", "action": action}) == expected
    assert c.parse(action) == expected        # a bare action


def test_openai_batched_actions_function_calls_and_shell_calls():
    c = codec("openai", (1080, 2400), "mobile")
    batch = {"type": "computer_call", "call_id": "c1", "actions": [
        {"type": "click", "x": 100, "y": 200}, {"type": "type", "text": "milk"},
        {"type": "keypress", "keys": ["ENTER"]}]}
    assert c.parse(batch) == [Click(100, 200), TypeText("milk"), Hotkey(("enter",))]
    calls = [{"type": "function_call", "call_id": "f1", "name": "long_press",
              "arguments": '{"point": [10, 20], "duration": 2}'},
             {"type": "function_call", "call_id": "f2", "name": "open_app", "arguments": '{"app_name": "Clock"}'},
             {"type": "function_call", "call_id": "f3", "name": "press_home", "arguments": ""}]
    assert c.parse(calls) == [LongPress(10, 20, 2.0), OpenApp("Clock"), PressHome()]
    shell = {"type": "local_shell_call", "call_id": "s1", "status": "completed",
             "action": {"type": "exec", "command": ["grep", "-r", "a b", "."], "working_directory": "/tmp/w",
                        "timeout_ms": 1000}}
    assert c.parse(shell) == [Terminal("cd /tmp/w && grep -r 'a b' .")]
    assert c.parse({"type": "function_call", "name": "str_replace_editor",
                    "arguments": json.dumps({"command": "view", "path": "a.py", "view_range": [1, 5]})}) == \
        [EditFile("view", "a.py", view_range=(1, 5))]


def test_an_openai_message_is_the_final_answer_only_without_a_call():
    schema = get_schema("openai")
    space = codec("openai").space("openai")
    message = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "The total is 42."}]}
    assert codec("openai").parse(message) == [Finished("The total is 42.")]
    assert codec("openai").parse({"output": [{"type": "reasoning", "summary": []}, message]}) == \
        [Finished("The total is 42.")]
    assert codec("openai").parse({"output": [message, OPENAI_RESPONSE["output"][1]]}) == [Click(156, 50)]
    assert schema.parse([message, OPENAI_RESPONSE["output"][1]], space, "computer") == [Click(156, 50)]
    refusal = {"type": "message", "content": [{"type": "refusal", "refusal": "I can't help with that."}]}
    assert codec("openai").parse(refusal) == [Finished("I can't help with that.")]


ANTHROPIC_MESSAGE = {
    "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "stop_reason": "tool_use",
    "content": [
        {"type": "thinking", "thinking": "The search box is at the top.", "signature": "EqQB"},
        {"type": "text", "text": "I'll click on the search box."},
        {"type": "tool_use", "id": "toolu_01A", "name": "computer",
         "input": {"action": "left_click", "coordinate": [640, 80]}},
    ],
}


def test_anthropic_messages_read_as_dicts_and_as_text():
    c = codec("anthropic")
    assert c.parse(ANTHROPIC_MESSAGE) == [Click(640, 80)]
    assert c.parse(json.dumps(ANTHROPIC_MESSAGE)) == [Click(640, 80)]
    assert c.parse({"role": "assistant", "content": ANTHROPIC_MESSAGE["content"]}) == [Click(640, 80)]
    assert Codec((1280, 800)).parse(json.dumps(ANTHROPIC_MESSAGE)) == [Click(640, 80)]
    space = c.space("anthropic")
    assert get_schema("anthropic").parse(ANTHROPIC_MESSAGE["content"], space, "computer") == [Click(640, 80)]


def test_anthropic_text_only_is_the_final_answer():
    c = codec("anthropic")
    assert c.parse([{"type": "text", "text": "The total is 42."}]) == [Finished("The total is 42.")]
    assert c.parse({"role": "assistant", "content": [{"type": "thinking", "thinking": "done"},
                                                     {"type": "text", "text": "42"}]}) == [Finished("42")]


def computer(**fields):
    return {"type": "tool_use", "id": "toolu_x", "name": "computer", "input": fields}


@pytest.mark.parametrize("fields,expected", [
    ({"action": "key", "text": "ctrl+s"}, [Hotkey(("ctrl", "s"))]),
    ({"action": "key", "text": "Return"}, [Hotkey(("enter",))]),
    ({"action": "key", "text": "KP_Enter"}, [Hotkey(("enter",))]),
    ({"action": "key", "text": "super"}, [Hotkey(("super",))]),
    ({"action": "hold_key", "text": "shift", "duration": 2}, [KeyDown("shift"), Wait(2.0), KeyUp("shift")]),
    ({"action": "type", "text": "hi\nthere"}, [TypeText("hi\nthere")]),
    ({"action": "cursor_position"}, [Wait(0)]),
    ({"action": "mouse_move", "coordinate": [10, 20]}, [MoveTo(10, 20)]),
    ({"action": "left_click", "coordinate": [10, 20]}, [Click(10, 20)]),
    ({"action": "left_click"}, [MouseDown(), MouseUp()]),
    ({"action": "right_click", "coordinate": [10, 20]}, [RightClick(10, 20)]),
    ({"action": "middle_click", "coordinate": [10, 20]}, [MiddleClick(10, 20)]),
    ({"action": "double_click", "coordinate": [10, 20]}, [DoubleClick(10, 20)]),
    ({"action": "triple_click", "coordinate": [10, 20]}, [Click(10, 20)] * 3),
    ({"action": "left_click", "coordinate": [10, 20], "text": "ctrl+alt"},
     [KeyDown("ctrl"), KeyDown("alt"), Click(10, 20), KeyUp("alt"), KeyUp("ctrl")]),
    ({"action": "left_click_drag", "start_coordinate": [1, 2], "coordinate": [30, 40]}, [Drag(1, 2, 30, 40)]),
    ({"action": "left_mouse_down"}, [MouseDown()]), ({"action": "left_mouse_up"}, [MouseUp()]),
    ({"action": "scroll", "coordinate": [5, 6], "scroll_direction": "down", "scroll_amount": 3},
     [Scroll("down", 5, 6, 3)]),
    ({"action": "scroll", "coordinate": [5, 6], "scroll_direction": "left", "scroll_amount": 2, "text": "shift"},
     [KeyDown("shift"), Scroll("left", 5, 6, 2), KeyUp("shift")]),
    ({"action": "wait", "duration": 1.5}, [Wait(1.5)]),
    ({"action": "screenshot"}, [Wait(0)]),
    ({"action": "zoom", "region": [0, 0, 640, 400]}, [Wait(0)]),
])
def test_anthropic_computer_actions_make_the_typed_actions(fields, expected):
    c = codec("anthropic")
    assert c.parse(computer(**fields)) == expected
    assert c.parse({"name": "computer", "arguments": fields}) == expected               # a vLLM tool call
    assert c.parse({"name": "computer", "arguments": json.dumps(fields)}) == expected   # arguments as text


def test_anthropic_bash_and_text_editor_tools():
    c = codec("anthropic")
    assert c.parse({"type": "tool_use", "id": "t", "name": "bash", "input": {"command": "ls -la"}}) == \
        [Terminal("ls -la")]
    assert c.parse({"type": "tool_use", "id": "t", "name": "bash", "input": {"restart": True}}) == \
        [Terminal(RESTART_COMMAND)]
    for name in ("str_replace_editor", "str_replace_based_edit_tool"):
        block = {"type": "tool_use", "id": "t", "name": name,
                 "input": {"command": "str_replace", "path": "/repo/a.py", "old_str": "x = 1", "new_str": "x = 2"}}
        assert c.parse(block) == [EditFile("str_replace", "/repo/a.py", old_str="x = 1", new_str="x = 2")]
    mobile = codec("anthropic", (1080, 2400), "mobile")
    assert mobile.parse([{"name": "swipe", "input": {"start_point": [1, 2], "end_point": [3, 4]}},
                         {"name": "call_user", "arguments": {"content": "which one?"}}]) == \
        [Swipe(1, 2, 3, 4), CallUser("which one?")]


def test_on_the_phone_click_drag_and_scroll_stay_themselves():
    for schema in SCHEMAS:
        c = codec(schema, (1080, 2400), "mobile")
        acts = [Click(10, 2000), Drag(1, 2, 1000, 2300), Scroll("up", 500, 1200, 4)]
        assert c.parse(c.format(acts)) == acts


# --- auto mode ----------------------------------------------------------------------------------------
def test_auto_tells_the_schemas_apart():
    openai_items = [OPENAI_RESPONSE, OPENAI_RESPONSE["output"][1], {"type": "click", "x": 1, "y": 2},
                    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "x"}]},
                    {"type": "function_call", "name": "call_user", "arguments": "{}"},
                    {"type": "local_shell_call", "action": {"type": "exec", "command": ["ls"]}}]
    anthropic_items = [ANTHROPIC_MESSAGE, ANTHROPIC_MESSAGE["content"][2], {"type": "text", "text": "x"},
                       {"name": "computer", "arguments": {"action": "screenshot"}},
                       {"name": "call_user", "input": {}},
                       {"role": "assistant", "content": [{"type": "text", "text": "x"}]}]
    for item in openai_items:
        assert detect(item).name == "openai", item
    for item in anthropic_items:
        assert detect(item).name == "anthropic", item
    assert detect({"action_type": "click", "x": 1, "y": 2}).name == "dict"
    assert detect({"action_type": "type", "type": "type", "text": "x"}).name == "dict"
    assert detect({"name": "click", "arguments": {"point": "<point>1 2</point>"}}).name == "seed"
    assert detect({"type": "image", "source": {}}) is None
    assert Codec((1280, 800)).parse({"action_type": "click", "x": 3, "y": 4}) == [Click(3, 4)]


# --- errors -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("schema,output,words", [
    ("openai", {"type": "computer_call", "action": {"type": "tap", "x": 1, "y": 2}}, "unknown action type 'tap'"),
    ("openai", {"type": "click", "x": 1}, "needs x and y"),
    ("openai", {"type": "click", "x": 1, "y": 2, "button": "side"}, "button must be left, right, wheel"),
    ("openai", {"type": "click", "x": 5000, "y": 2}, "outside the screen"),
    ("openai", {"type": "scroll", "x": 1, "y": 2, "scroll_y": 10**9}, "notches"),
    ("openai", {"type": "drag", "path": [{"x": 1, "y": 2}]}, "path must be a list of 2"),
    ("openai", {"type": "keypress", "keys": []}, "non-empty list of key names"),
    ("openai", {"type": "keypress", "keys": ["HYPERSPACE"]}, "unknown key"),
    ("openai", {"type": "computer_call", "action": {"type": "wait"}, "actions": []}, "exactly one of them"),
    ("openai", {"type": "function_call", "name": "fly", "arguments": "{}"}, "unknown function 'fly'"),
    ("openai", {"type": "function_call", "name": "call_user", "arguments": "{oops"}, "must be a JSON object"),
    ("openai", {"type": "type", "text": 5}, "type needs text"),
    ("openai", {"type": "move", "x": 1, "y": 2, "z": 3}, "unknown field 'z'"),
    ("openai", {"output": "nope"}, "must be a list of items"),
    ("anthropic", computer(action="fly"), "computer needs action, one of key"),
    ("anthropic", computer(action="key", coordinate=[1, 2], text="a"), "does not take 'coordinate'"),
    ("anthropic", computer(action="left_click", coordinate=[1]), "coordinate must be [x, y]"),
    ("anthropic", computer(action="double_click"), "needs coordinate"),
    ("anthropic", computer(action="scroll", scroll_direction="sideways"), "scroll_direction up/down/left/right"),
    ("anthropic", computer(action="scroll", scroll_direction="up", scroll_amount=0), "scroll_amount"),
    ("anthropic", computer(action="wait", duration=1e9), "seconds"),
    ("anthropic", computer(action="zoom", region=[0, 0, 99999, 5]), "outside the screen"),
    ("anthropic", {"type": "tool_use", "id": "t", "name": "bash", "input": {"command": "ls", "restart": True}},
     "bash takes"),
    ("anthropic", {"type": "tool_use", "id": "t", "name": "teleport", "input": {}}, "unknown tool 'teleport'"),
    ("anthropic", {"type": "tool_use", "id": "t", "name": "str_replace_based_edit_tool",
                   "input": {"command": "view"}}, "no path"),
])
def test_errors_name_the_schema_and_what_is_accepted(schema, output, words):
    message = error_of(output, schema)
    assert message.startswith(TITLES[schema]), message
    assert words in message, message
    if not isinstance(output, list):
        assert error_of(json.dumps(output), schema) == message


def test_formatters_refuse_what_they_cannot_write_only_through_the_codec_checks():
    for schema in SCHEMAS:
        with pytest.raises(ActionError):
            codec(schema).format([Click(5000, 1)])       # off the screen: refused before writing


def test_the_mobile_functions_are_refused_on_a_computer():
    message = error_of({"type": "function_call", "name": "press_home", "arguments": "{}"}, "openai")
    assert "mobile action" in message


# --- hostile input ------------------------------------------------------------------------------------
def _hostile_values(rng: random.Random) -> list:
    return [None, True, -1, 0, 10**400, 1e308, math.nan, math.inf, -math.inf, "", "x" * 5000, "\ud800", "日本",
            [], {}, [1], [1, 2, 3], [math.nan, 1], ["1", "2"], {"x": 1}, nested_list(30, 1), nested_dict(40),
            rng.random() * 10**rng.randint(0, 30), [{"x": math.nan, "y": 1}, {"x": 1, "y": 1}]]


def test_hostile_input_raises_only_action_errors():
    start = time.monotonic()
    rng = random.Random(16)
    values = _hostile_values(rng)
    openai_fields = ("type", "x", "y", "button", "keys", "path", "scroll_x", "scroll_y", "text", "ms", "action",
                     "actions", "name", "arguments", "command", "output", "content")
    anthropic_fields = ("action", "coordinate", "start_coordinate", "text", "scroll_direction", "scroll_amount",
                        "duration", "key", "region", "command", "restart", "path", "view_range")
    openai_types = ("click", "double_click", "drag", "keypress", "move", "scroll", "type", "wait", "screenshot",
                    "computer_call", "function_call", "local_shell_call", "message", "reasoning", "exec")
    anthropic_actions = ("key", "hold_key", "type", "cursor_position", "mouse_move", "left_click", "triple_click",
                         "left_click_drag", "left_mouse_down", "scroll", "wait", "zoom", "screenshot")
    hostile: list = []
    for _ in range(600):
        action = {k: rng.choice(values) for k in rng.sample(openai_fields, rng.randint(0, 5))}
        action["type"] = rng.choice(openai_types)
        hostile += [action, {"type": "computer_call", "action": action}, {"type": "computer_call", "actions": [action]},
                    {"output": [action, rng.choice(values)]}]
        fields = {k: rng.choice(values) for k in rng.sample(anthropic_fields, rng.randint(0, 5))}
        fields["action"] = rng.choice(anthropic_actions)
        name = rng.choice(["computer", "bash", "str_replace_based_edit_tool", "call_user", "swipe", rng.choice(values)])
        hostile += [{"type": "tool_use", "id": "t", "name": name, "input": fields},
                    {"name": name, "arguments": json.dumps(fields, default=str)},
                    {"role": "assistant", "content": [{"type": "text", "text": rng.choice(values)},
                                                      {"type": "tool_use", "name": name, "input": fields}]}]
    good = json.dumps([OPENAI_RESPONSE, ANTHROPIC_MESSAGE])
    hostile += [good[:i] for i in range(0, len(good), 13)]
    hostile += ["[" * 10_000, "{\"output\": " * 5000, json.dumps({"type": "type", "text": "x" * 99_000}),
                {"type": "computer_call", "actions": [{"type": "wait"}] * 10_000},
                {"type": "drag", "path": [{"x": 1, "y": 1}] * 100_000}, [ANTHROPIC_MESSAGE] * 300,
                {"type": "local_shell_call", "action": {"type": "exec", "command": ["x"] * 100_000}},
                {"type": "function_call", "name": "execute_bash", "arguments": "[" * 50_000},
                {"name": "computer", "arguments": nested_dict(3000)}, nested_list(50, OPENAI_RESPONSE)]
    for output in hostile:
        for schema in ("openai", "anthropic", "auto"):
            for platform in ("computer", "mobile"):
                try:
                    Codec((1280, 800), platform=platform, schema=schema).parse(output)
                except ActionError:
                    pass
    assert time.monotonic() - start < 20


def test_an_empty_final_answer_is_a_finished_call_not_an_empty_reply():
    assert codec("anthropic").format([Finished()])[0]["name"] == "finished"
    assert codec("openai").format([Finished()])[0]["name"] == "finished"


def test_commentary_next_to_a_call_in_a_list_is_not_a_final_answer():
    text = {"type": "text", "text": "I'll click the search box."}
    assert Codec((1280, 800)).parse([text, ANTHROPIC_MESSAGE["content"][2]]) == [Click(640, 80)]
    message = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Clicking."}]}
    assert codec("openai").parse([message, OPENAI_RESPONSE["output"][1]]) == [Click(156, 50)]
