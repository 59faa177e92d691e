"""Tests of the Seed / UI-TARS-2 XML tool-call schema (hybridgym.actions.seed) and the shared function
table (hybridgym.actions.functions): round trips, the reference parser's faults fixed, hostile input."""

from __future__ import annotations

import json
import random
import time

import pytest
from ui_tars import action_parser as ref

from hybridgym.actions import (
    ALL_ACTIONS, ActionError, CallUser, Click, Codec, DoubleClick, Drag, EditFile, Finished, Hotkey, KeyDown, KeyUp, LongPress,
    MiddleClick, MouseDown, MouseUp, MoveTo, OpenApp, PressBack, PressHome, ReadFile, RightClick, Scroll, Swipe, Tap,
    Terminal, TypeText, Wait, WriteFile,
)
from hybridgym.actions.coords import CoordSpace
from hybridgym.actions.functions import FUNCTIONS, call_function, function_of
from hybridgym.actions.schemas import detect

from .attack_kit import nested_dict, nested_list

TITLE = "Seed XML tool call"
#: (screen, platform, image_size) the round trips run on
SETUPS = [((1280, 800), "computer", None), ((1080, 2400), "mobile", None), ((1280, 800), "computer", (1024, 640))]
TEXTS = ["hello", "a\nb\n", "x < y && y > z", "</parameter></function></seed:tool_call>", "&lt; &amp;#60; &#x41;",
         "C:\\new\\n\\\\n", "\n", "  spaces  ", "日本語 ✓", "<text>raw</text>", "end\\n", ""]


def call(fn: str, **params: str) -> str:
    body = "".join(f"<parameter={k}>{v}</parameter>" for k, v in params.items())
    return f"<seed:tool_call><function={fn}>{body}</function></seed:tool_call>"


def parse(output, screen=(1000, 1000), platform="computer", **kw):
    return Codec(screen, platform=platform, **kw).parse(output)


def error_of(output, screen=(1000, 1000), **kw) -> str:
    with pytest.raises(ActionError) as info:
        parse(output, screen, **kw)
    return str(info.value)


def samples(rng: random.Random, screen: tuple[int, int], platform: str) -> list:
    """One action of every type the schema writes, at random pixels and with random texts."""
    w, h = screen

    def px():
        return rng.randrange(w), rng.randrange(h)

    text = rng.choice([t for t in TEXTS if t])
    acts = [
        Click(*px()), DoubleClick(*px()), RightClick(*px()), MiddleClick(*px()), MoveTo(*px()), Drag(*px(), *px()),
        MouseDown(*px(), button=rng.choice(["left", "right", "middle"])), MouseUp(), MouseUp(*px(), "right"),
        MouseDown(), Scroll(rng.choice(["up", "down", "left", "right"]), *px(), amount=rng.randint(1, 100)),
        Scroll("down"), TypeText(text), Hotkey(("ctrl", "shift", "t")), Hotkey(("ctrl", "+")), Hotkey(("enter",)),
        Hotkey(("space",)), KeyDown("shift"), KeyUp("shift"), Wait(rng.choice([0.0, 0.5, 5.0, 1 / 3])),
        Finished(text), Finished(), CallUser("help me"), Terminal("cat <<'EOF' > a\n</parameter>\nEOF"),
        ReadFile("notes/a.txt"), WriteFile("a b.txt", text),
        EditFile("view", "src"), EditFile("view", "a.py", view_range=(rng.randint(1, 9), -1)),
        EditFile("create", "a.py", file_text=text), EditFile("str_replace", "a.py", old_str=text, new_str="y"),
        EditFile("str_replace", "a.py", old_str="x"), EditFile("insert", "a.py", new_str=text, insert_line=0),
        EditFile("undo_edit", "a.py"),
    ]
    if platform == "mobile":
        acts += [Tap(*px()), LongPress(*px()), LongPress(*px(), duration=2.5), Swipe(*px(), *px()), PressHome(),
                 PressBack(), OpenApp("Contacts")]
    return acts


# --- round trips ----------------------------------------------------------------------------
@pytest.mark.parametrize("screen,platform,image_size", SETUPS)
def test_format_then_parse_is_identity_for_every_action(screen, platform, image_size):
    codec = Codec(screen, platform=platform, schema="seed", image_size=image_size)
    auto = Codec(screen, platform=platform, image_size=image_size)
    rng = random.Random(f"{screen}{platform}")
    for _ in range(30):
        acts = samples(rng, screen, platform)
        for act in acts:
            text = codec.format([act])
            assert codec.parse(text) == [act], text
        text = codec.format(acts)
        assert codec.parse(text) == acts and auto.parse(text) == acts


def test_the_samples_cover_every_action_type():
    assert {type(a) for a in samples(random.Random(0), (1080, 2400), "mobile")} == set(ALL_ACTIONS)


@pytest.mark.parametrize("coords", ["relative", "absolute", "smart_resize"])
def test_round_trip_in_every_coordinate_mode(coords):
    codec = Codec((1280, 800), coords=coords, schema="seed", image_size=(1024, 640))
    rng = random.Random(coords)
    for _ in range(200):
        act = Drag(rng.randrange(1280), rng.randrange(800), rng.randrange(1280), rng.randrange(800))
        assert codec.parse(codec.format([act])) == [act]


@pytest.mark.parametrize("platform", ["computer", "mobile"])
def test_function_of_is_the_reverse_of_call_function(platform):
    space = CoordSpace((1080, 2400))
    for act in samples(random.Random(1), (1080, 2400), "mobile"):
        name, params = function_of(act, space, platform)
        assert name in FUNCTIONS
        json.dumps(params)    # JSON-typed
        assert call_function(name, params, space, platform, TITLE) == [act]
        assert call_function(name, json.loads(json.dumps(params)), space, platform, TITLE) == [act]


def test_the_formatter_writes_one_tool_call_with_a_function_per_action():
    text = Codec((1000, 1000), schema="seed").format([Click(500, 300), TypeText("hi")])
    assert text.count("<seed:tool_call>") == 1 and text.count("<function=") == 2
    assert "<parameter=point><point>500 300</point></parameter>" in text
    assert "<parameter=content>hi</parameter>" in text


def test_text_is_written_raw_where_unambiguous_and_escaped_where_not():
    codec = Codec((1000, 1000), schema="seed")
    raw = codec.format([Terminal("echo '<b>' && ls > out")])
    assert "echo '<b>' && ls > out" in raw
    escaped = codec.format([WriteFile("a.xml", "<a></parameter></a>")])
    assert "</parameter></a>" not in escaped and "&lt;/parameter>" in escaped
    assert codec.parse(escaped) == [WriteFile("a.xml", "<a></parameter></a>")]


# --- what models write ------------------------------------------------------------------------
def test_every_function_of_the_table_reads():
    point, two = "<point>500 300</point>", {"start_point": "<point>1 2</point>", "end_point": "<point>3 4</point>"}
    examples = {
        "click": {"point": point}, "left_single": {"point": point}, "left_double": {"point": point},
        "right_single": {"point": point}, "middle_single": {"point": point}, "move_to": {"point": point},
        "hover": {"point": point}, "drag": two, "swipe": two, "mouse_down": {}, "mouse_up": {"button": "right"},
        "scroll": {"direction": "down"}, "type": {"content": "x"}, "hotkey": {"key": "ctrl c"},
        "press": {"key": "enter"}, "keydown": {"key": "shift"}, "keyup": {"key": "shift"},
        "release": {"key": "shift"}, "wait": {}, "finished": {}, "call_user": {"content": "?"},
        "tap": {"point": point}, "long_press": {"point": point}, "open_app": {"app_name": "Clock"},
        "press_home": {}, "press_back": {}, "execute_bash": {"command": "ls"}, "bash": {"command": "ls"},
        "terminal": {"command": "ls"}, "read_file": {"path": "a"}, "write_file": {"path": "a", "content": "b"},
        "str_replace_editor": {"command": "view", "path": "."},
        "str_replace_based_edit_tool": {"command": "view", "path": "."},
    }
    assert set(examples) == set(FUNCTIONS)
    for name, params in examples.items():
        assert len(parse(call(name, **params), platform="mobile")) == 1, name


def test_gui_functions_make_the_typed_actions():
    assert parse(call("click", point="<point>500 300</point>"), (1280, 800)) == [Click(640, 240)]
    assert parse(call("left_double", point="<bbox>0 0 100 100</bbox>")) == [DoubleClick(50, 50)]
    assert parse(call("drag", start_point="<point>0 0</point>", end_point="<point>1000 1000</point>")) == \
        [Drag(0, 0, 999, 999)]
    assert parse(call("scroll", point="<point>500 500</point>", direction="up", amount="3")) == \
        [Scroll("up", 500, 500, 3)]
    assert parse(call("hotkey", key="Ctrl Shift T")) == [Hotkey(("ctrl", "shift", "t"))]
    assert parse(call("press", key="Return")) == [Hotkey(("enter",))]
    assert parse(call("release", key="ctrl")) == [KeyUp("ctrl")]
    assert parse(call("wait")) == [Wait(5.0)] and parse(call("wait", seconds="2")) == [Wait(2.0)]
    assert parse(call("finished", content="42")) == [Finished("42")]
    assert parse(call("mouse_down", button="right")) == [MouseDown(None, None, "right")]


def test_mobile_functions_make_phone_actions_and_click_stays_a_click():
    phone = dict(screen=(1080, 2400), platform="mobile")
    assert parse(call("click", point="<point>500 500</point>"), **phone) == [Click(540, 1200)]
    assert parse(call("long_press", point="<point>500 500</point>", duration="2"), **phone) == \
        [LongPress(540, 1200, 2.0)]
    assert parse(call("open_app", app_name="Contacts"), **phone) == [OpenApp("Contacts")]
    assert parse(call("press_home") + call("press_back"), **phone) == [PressHome(), PressBack()]
    assert "mobile action" in error_of(call("press_home"))     # on a computer


def test_sdk_functions_make_terminal_and_editor_actions():
    assert parse(call("execute_bash", command="ls -la | wc -l")) == [Terminal("ls -la | wc -l")]
    editor = call("str_replace_editor", command="str_replace", path="a.py", old_str="x = 1", new_str="x = 2")
    assert parse(editor) == [EditFile("str_replace", "a.py", old_str="x = 1", new_str="x = 2")]
    assert parse(call("str_replace_editor", command="view", path="a.py", view_range="[3, -1]")) == \
        [EditFile("view", "a.py", view_range=(3, -1))]
    assert parse(call("str_replace_editor", command="insert", path="a.py", insert_line="0", new_str="#!")) == \
        [EditFile("insert", "a.py", new_str="#!", insert_line=0)]
    assert "needs file_text" in error_of(call("str_replace_editor", command="create", path="a.py"))
    assert "view/create/str_replace/insert/undo_edit" in error_of(call("str_replace_editor", command="rm", path="a"))
    assert "insert_line must be an int >= 0" in error_of(
        call("str_replace_editor", command="insert", path="a", new_str="x", insert_line="-1"))
    assert "view_range" in error_of(call("str_replace_editor", command="view", path="a", view_range="[5, 2]"))


def test_several_calls_and_functions_per_reply_with_thinking_ignored():
    reply = ("<seed:think>I should click <function=click> here</seed:think>Thought: first the box\n"
             "<seed:tool_call><function=click><parameter=point><point>100 100</point></parameter></function>"
             "<function=type><parameter=content>hi</parameter></function></seed:tool_call>\nthen\n"
             "<seed:tool_call>\n<function=hotkey>\n<parameter=key>enter</parameter>\n</function>\n</seed:tool_call>")
    assert parse(reply) == [Click(100, 100), TypeText("hi"), Hotkey(("enter",))]


def test_the_ui_tars_package_variant_and_bare_functions_read():
    variant = ('<seed:tool_call><function name="click"><parameter name="point" string="true"><point>100 200'
               '</point></parameter></function></seed:tool_call>')
    assert parse(variant) == [Click(100, 200)]
    assert parse("<function=type><parameter=content>abc</parameter></function>") == [TypeText("abc")]
    wrapped = "<function=type><parameter=content><text>a</parameter>b</text></parameter></function>"
    assert parse(wrapped) == [TypeText("a</parameter>b")]


def test_the_reference_parser_agrees_on_well_formed_calls():
    replies = [call("click", point="<point>100 200</point>"), call("type", content="hello world"),
               call("drag", start_point="<point>1 2</point>", end_point="<point>3 4</point>"),
               call("hotkey", key="ctrl c") + call("scroll", direction="down", point="<point>5 6</point>")]
    for reply in replies:
        theirs = ref.parse_xml_action_v5(reply)
        ours = [call_function(c["function"], c["parameters"], CoordSpace((1000, 1000)), "computer", TITLE)[0]
                for c in theirs]
        assert parse(reply) == ours


def test_parsed_tool_calls_as_dicts_read():
    assert parse({"name": "click", "arguments": {"point": [500, 300]}}) == [Click(500, 300)]
    assert parse({"name": "click", "arguments": '{"point": "<point>500 300</point>"}'}) == [Click(500, 300)]
    assert parse({"function": "scroll", "parameters": {"direction": "down", "amount": 2}}) == [Scroll("down", amount=2)]
    assert detect({"name": "computer_use", "arguments": {}}) is None or detect(
        {"name": "computer_use", "arguments": {}}).name != "seed"
    assert "not valid JSON" in error_of({"name": "click", "arguments": "{"}, schema="seed")


def test_entities_are_unescaped_and_unknown_ones_kept():
    assert parse(call("type", content="a &lt;b&gt; &amp; &#233; &#x41; &copy &bogus; &#xD800;")) == \
        [TypeText("a <b> & é A &copy &bogus; &#xD800;")]


def test_one_newline_inside_the_tags_is_layout():
    reply = "<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nx\ny\n\n</parameter>"
    assert parse(reply) == [WriteFile("a.txt", "x\ny\n")]


# --- the reference parser's faults, fixed -------------------------------------------------------
def test_a_truncated_reply_is_read_not_dropped():
    assert parse("<seed:tool_call><function=type><parameter=content>hello") == [TypeText("hello")]
    assert parse("<seed:tool_call><function=click><parameter=point><point>1 2</point></parameter>") == [Click(1, 2)]
    assert parse("<seed:tool_call><function=press_home></function>", platform="mobile") == [PressHome()]
    assert parse(call("finished", content="x")[:-len("</seed:tool_call>")]) == [Finished("x")]
    assert ref.parse_xml_action_v5("<seed:tool_call><function=type><parameter=content>hello") == []


def test_a_missing_closing_tag_before_more_text_names_the_tag():
    message = error_of("<function=type><parameter=content>hi<parameter=x>y</parameter></function>")
    assert message.startswith(TITLE) and "no </parameter>" in message
    message = error_of("<function=click><parameter=point>1 2</parameter><function=click></function>")
    assert "needs </function>" in message
    message = error_of("<seed:tool_call><function=type><parameter=content>hi</function></seed:tool_call>")
    assert "<parameter=content> of <function=type> has no </parameter> before '</function>" in message
    message = error_of("<seed:tool_call><function=wait></seed:tool_call>")
    assert "<function=wait> needs </function> at '</seed:tool_call>'" in message
    message = error_of("<function=click><parameter=point>1 2</parameter> stray </function>")
    assert "<parameter=KEY> or </function>" in message


def test_numbers_stay_text_until_their_parameter_converts_them():
    assert parse(call("type", content="5")) == [TypeText("5")]
    assert parse({"name": "type", "arguments": {"content": 5}}) == [TypeText("5")]
    assert parse({"name": "scroll", "arguments": {"direction": "up", "amount": "7"}}) == [Scroll("up", amount=7)]
    assert parse({"name": "scroll", "arguments": {"direction": "up", "amount": 7.0}}) == [Scroll("up", amount=7)]
    assert "whole number" in error_of(call("scroll", direction="up", amount="seven"))
    assert "whole number" in error_of({"name": "scroll", "arguments": {"direction": "up", "amount": 1.5}})


def test_a_literal_backslash_n_is_typed_as_enter_once():
    assert parse(call("type", content="hello\\n")) == [TypeText("hello\n")]
    assert parse(call("type", content="a\\\\nb")) == [TypeText("a\\nb")]     # an escaped one stays literal
    assert parse({"name": "type", "arguments": {"content": "go\\n"}}) == [TypeText("go\n")]


# --- refusals -----------------------------------------------------------------------------------
def test_unknown_functions_and_parameters_are_refused_with_the_signature():
    message = error_of(call("teleport", to="mars"))
    assert message.startswith(TITLE) and "unknown function 'teleport'" in message and "click(point)" in message
    message = error_of(call("click", start_box="<point>1 2</point>"))
    assert "unknown parameter 'start_box'" in message and "click(point)" in message
    assert "no point" in error_of(call("click"))
    assert "twice" in error_of("<function=click><parameter=point>1 2</parameter><parameter=point>1 2</parameter>")
    assert "no <function=NAME>" in error_of("<seed:tool_call>nothing</seed:tool_call>", schema="seed")
    assert "outside the screen" in error_of(call("click", point="<point>1001 5</point>"))
    assert "direction must be up/down/left/right" in error_of(call("scroll", direction="sideways"))


def test_json_typed_values_of_the_wrong_type_are_refused():
    space = CoordSpace((1000, 1000))
    for name, args in [("click", {"point": "here"}), ("click", {"point": [1]}), ("click", {"point": {"x": 1}}),
                       ("click", {"point": [True, 2]}), ("click", {"point": [float("nan"), 2]}),
                       ("wait", {"seconds": "forever"}), ("wait", {"seconds": 1e308}), ("type", {"content": None}),
                       ("type", {"content": ["a"]}), ("type", {"content": 10**5000}), ("hotkey", {"key": 5.5}), ("scroll", {"direction": 1}),
                       ("scroll", {"direction": "up", "amount": 10**400}), ("click", [1, 2]), (5, {}),
                       ("str_replace_editor", {"command": "view", "path": "a", "view_range": [1, 2, 3]}),
                       ("str_replace_editor", {"command": "view", "path": "a", "view_range": "1-2"})]:
        with pytest.raises(ActionError) as info:
            call_function(name, args, space, "computer", TITLE)
        assert str(info.value).startswith(TITLE)


def test_looks_like_is_precise():
    assert detect(call("click", point="1 2")).name == "seed"
    assert detect("I will use <function=click> now").name == "seed"
    assert detect({"name": "execute_bash", "arguments": {"command": "ls"}}).name == "seed"
    assert detect("Action: click(point='<point>1 2</point>')").name == "uitars"
    seed = __import__("hybridgym.actions.seed", fromlist=["SCHEMA"]).SCHEMA
    assert not seed.looks_like({"name": "computer_use", "arguments": {}})
    assert not seed.looks_like({"name": "click", "input": {}})
    assert not seed.looks_like("pyautogui.click(1, 2)")


def test_hostile_input_raises_only_action_errors():
    start = time.monotonic()
    rng = random.Random(16)
    base = call("str_replace_editor", command="create", path="a", file_text="x<y>&amp;") + \
        call("click", point="<point>500 300</point>")
    pieces = ["<seed:tool_call>", "</seed:tool_call>", "<function=", "<function=click>", "</function>",
              "<parameter=", "<parameter=point>", "</parameter>", "<point>", "</point>", "<text>", "</text>",
              "&#x110000;", "&#0;", "&#55296;", "1e999", "nan", "-1", "9" * 500, "\x00", "\ud800", "日", "\\n",
              '<function name="', '<parameter name="x" string="true">', "<seed:think>", "</seed:think>"]
    hostile = [base[:i] for i in range(0, len(base), 7)]
    hostile += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 30))) for _ in range(400)]
    hostile += ["<function=click>" * 5000, "<function=type><parameter=content>" + "x" * 99_000,
                "<parameter=" * 10_000, call("type", content="\ud800"), call("click" * 100),
                {"name": "click", "arguments": nested_dict(3000)}, {"function": "click", "parameters": None},
                {"name": "click", "arguments": "[" * 10_000}, [call("wait", seconds="30")] * 3,
                nested_list(50, call("press_home")), call("wait") * 300,
                "".join(f"<function=a><parameter=k{i}><text>x</parameter>" for i in range(3000))]
    for _ in range(300):
        chars = list(base)
        for _ in range(rng.randint(1, 8)):
            chars.insert(rng.randrange(len(chars) + 1), rng.choice(pieces))
        hostile.append("".join(chars))
    for output in hostile:
        for schema in ("seed", "auto"):
            try:
                Codec((1280, 800), schema=schema).parse(output)
            except ActionError:
                pass
    assert time.monotonic() - start < 10


def test_errors_of_the_reader_start_with_its_title():
    for output in ["<function=click>", call("click", point="x"), call("nope"), {"name": "x", "arguments": {}},
                   "<function=type><parameter=content>a<function=b>"]:
        message = error_of(output, schema="seed")
        assert message.startswith(TITLE), message
