"""The Qwen tool_call schema, the UI-TARS-1.5 text quirks, and the UI-TARS / pyautogui formatters:
format -> parse is identity for every action each writes, real replies read, hostile input refused."""

from __future__ import annotations

import json
import random

import pytest

from hybridgym.actions import Codec
from hybridgym.actions.model import (
    ActionError, CallUser, Click, DoubleClick, Drag, EditFile, Finished, Hotkey, KeyDown, KeyUp, LongPress,
    MiddleClick, MouseDown, MouseUp, MoveTo, OpenApp, PressBack, PressHome, ReadFile, RightClick, Scroll, Swipe,
    Tap, Terminal, TypeText, Wait, WriteFile,
)
from hybridgym.actions.schemas import detect
from hybridgym.actions.uitars import scroll_swipe

COMPUTER, PHONE = (1280, 800), (1080, 2400)
TEXTS = ["hello", "it's \"quoted\" \\ back\\slash", "line\nnext\ttab\rcr", "\\n literal", "你好 🙂 é",
         "\x01\x7f", ""]


def pixel(rng: random.Random, screen) -> tuple[int, int]:
    return rng.randrange(screen[0]), rng.randrange(screen[1])


def computer_actions(rng: random.Random, screen) -> list:
    p = lambda: pixel(rng, screen)    # noqa: E731
    return [Click(*p()), DoubleClick(*p()), RightClick(*p()), MiddleClick(*p()), MoveTo(*p()),
            Drag(*p(), *p()), MouseDown(), MouseUp(*p(), button="right"), MouseDown(*p(), button="middle"),
            Scroll("up"), Scroll("down", *p()), Scroll("left", *p()), Scroll("right"),
            TypeText(rng.choice(TEXTS[:-1])), Hotkey(("ctrl", "c")), Hotkey(("ctrl", "shift", "+")),
            Hotkey(("enter",)), KeyDown("shift"), KeyUp("shift"), Wait(5.0), Finished("done: 42"), Finished(""),
            CallUser("")]


def phone_actions(rng: random.Random, screen) -> list:
    p = lambda: pixel(rng, screen)    # noqa: E731
    return [Tap(*p()), LongPress(*p()), Swipe(*p(), *p()), PressHome(), PressBack(), OpenApp("Clock"),
            TypeText(rng.choice(TEXTS[:-1])), Hotkey(("enter",)), Wait(5.0), Finished("x"), CallUser("")]


SDK = [Terminal("ls -la 'x y'"), ReadFile("/tmp/a b"), WriteFile("/tmp/f", "a\nb\\n'\"")]


def round_trip(schema, actions, screen, platform="computer", **kw):
    codec = Codec(screen, platform=platform, schema=schema, **kw)
    out = codec.format(actions)
    assert codec.parse(out) == actions, out
    return out


# --- round trips --------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("kw", [{}, {"image_size": (1024, 640)}, {"coords": "relative"}, {"coords": "absolute"}])
def test_qwen_round_trip_on_a_computer(seed, kw):
    rng = random.Random(seed)
    actions = computer_actions(rng, COMPUTER) + SDK + [Wait(0.5), Scroll("down", amount=17), CallUser("help me"),
                                                       KeyDown("a"), EditFile("view", "/tmp", view_range=(1, -1))]
    out = round_trip("qwen", actions, COMPUTER, **kw)
    assert Codec(COMPUTER, **kw).parse(out) == actions         # auto mode finds it


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("kw", [{}, {"image_size": (540, 1200)}, {"coords": "relative"}])
def test_qwen_round_trip_on_the_phone(seed, kw):
    rng = random.Random(seed)
    actions = phone_actions(rng, PHONE) + [Click(*pixel(rng, PHONE)), LongPress(5, 6, 2.5), Hotkey(("menu",)),
                                           Hotkey(("ctrl", "a")), Scroll("down", 10, 10), Wait(1.0)]
    out = round_trip("qwen", actions, PHONE, "mobile", **kw)
    assert '"mobile_use"' in out


def test_qwen_writes_mobile_use_on_the_phone_and_computer_use_on_a_computer():
    text = Codec(PHONE, platform="mobile", schema="qwen").format([Tap(10, 10), PressBack(), TypeText("a")])
    assert text.count('"mobile_use"') == 3 and '"system_button"' in text and '"Back"' in text
    text = Codec(COMPUTER, schema="qwen").format([Click(10, 10), TypeText("a"), Finished("")])
    assert text.count('"computer_use"') == 3 and '"terminate"' in text


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("kw", [{}, {"image_size": (1024, 640)}, {"coords": "smart_resize"}, {"coords": "absolute"}])
def test_uitars_round_trip_on_a_computer(seed, kw):
    rng = random.Random(seed)
    actions = computer_actions(rng, COMPUTER) + SDK + [TypeText(t) for t in TEXTS[:-1]] + [
        CallUser("why?"), Scroll("up", amount=rng.randint(1, 100)), Wait(rng.choice([0.0, 0.25, 1.0, 20.0, 1e-05]))]
    out = round_trip("uitars", actions, COMPUTER, **kw)
    assert out.startswith("Action: ")
    assert Codec(COMPUTER, **kw).parse(out) == actions


@pytest.mark.parametrize("seed", range(10))
def test_uitars_round_trip_on_the_phone(seed):
    rng = random.Random(seed)
    actions = phone_actions(rng, PHONE) + [DoubleClick(*pixel(rng, PHONE)), Hotkey(("ctrl", "v")),
                                           LongPress(*pixel(rng, PHONE), duration=2.5), Wait(1.5)]
    out = round_trip("uitars", actions, PHONE, "mobile")
    assert "click(point=" in out


@pytest.mark.parametrize("action, platform, why", [
    (EditFile("view", "/a"), "computer", "no call for edit_file"),
    (Tap(1, 1), "computer", "write a Click"),
])
def test_uitars_formatter_refuses_what_its_calls_cannot_say(action, platform, why):
    with pytest.raises(ActionError, match=r"^UI-TARS text: cannot write .*" + why):
        Codec(PHONE if platform == "mobile" else COMPUTER, platform=platform, schema="uitars").format([action])


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("kw", [{}, {"image_size": (1024, 640)}, {"coords": "relative"}])
def test_pyautogui_round_trip(seed, kw):
    rng = random.Random(seed)
    start = pixel(rng, COMPUTER)
    actions = [Click(*start), Drag(*start, *pixel(rng, COMPUTER)), DoubleClick(*pixel(rng, COMPUTER)),
               RightClick(*pixel(rng, COMPUTER)), MiddleClick(*pixel(rng, COMPUTER)), MoveTo(*pixel(rng, COMPUTER)),
               MouseDown(), MouseUp(*pixel(rng, COMPUTER), button="right"), Scroll("up", amount=3),
               Scroll("down", *pixel(rng, COMPUTER), amount=100), Scroll("left", amount=1),
               Scroll("right", *pixel(rng, COMPUTER)), *[TypeText(t) for t in TEXTS[:-1]],
               Hotkey(("ctrl", "shift", "t")), Hotkey(("+",)), KeyDown("alt"), KeyUp("alt"), Wait(0.25), Wait(0.0)]
    out = round_trip("pyautogui", actions, COMPUTER, **kw)
    assert Codec(COMPUTER, **kw).parse(out) == actions


def test_uitars_writes_click_drag_and_scroll_on_the_phone_as_the_phone_performs_them():
    codec = Codec(PHONE, platform="mobile", schema="uitars")
    out = codec.format([Click(10, 20), Drag(1, 2, 3, 4), Scroll("down", amount=2)])
    assert codec.parse(out) == [Tap(10, 20), Swipe(1, 2, 3, 4), scroll_swipe("down", None, PHONE)]


@pytest.mark.parametrize("seed", range(5))
def test_pyautogui_round_trip_on_the_phone_for_the_pointer_and_keys(seed):
    rng = random.Random(seed)
    actions = [Click(*pixel(rng, PHONE)), MoveTo(*pixel(rng, PHONE)), Scroll("down", amount=2), TypeText("héllo\n"),
               Hotkey(("enter",)), Wait(1.0)]
    round_trip("pyautogui", actions, PHONE, "mobile", image_size=(540, 1200))


def test_pyautogui_drag_from_elsewhere_moves_there_first():
    codec = Codec(COMPUTER, schema="pyautogui")
    out = codec.format([Drag(10, 20, 30, 40)])
    assert out.splitlines()[-2:] == ["pyautogui.moveTo(10, 20)", "pyautogui.dragTo(30, 40)"]
    assert codec.parse(out) == [MoveTo(10, 20), Drag(10, 20, 30, 40)]


@pytest.mark.parametrize("action", [Finished("x"), CallUser("no"), Terminal("ls"), Tap(1, 1), PressHome(),
                                    OpenApp("x"), WriteFile("/a", "b"), EditFile("view", "/a")])
def test_pyautogui_formatter_refuses_what_pyautogui_cannot_do(action):
    with pytest.raises(ActionError, match=r"^pyautogui code: cannot write"):
        Codec(COMPUTER, schema="pyautogui").format([action])


def test_pyautogui_done_and_fail_are_osworlds_special_codes():
    codec = Codec(COMPUTER, schema="pyautogui")
    assert codec.format([Click(1, 2), Finished()]).splitlines()[-1] == "DONE"
    assert codec.parse(codec.format([CallUser()])) == [CallUser()]
    auto = Codec(COMPUTER)
    assert auto.parse("DONE") == [Finished()] and auto.parse(" FAIL\n") == [CallUser()]
    assert auto.parse("WAIT") == [Wait(1.0)]
    assert auto.parse("pyautogui.click(1, 2)\nDONE") == [Click(1, 2), Finished()]
    with pytest.raises(ActionError):
        auto.parse("pyautogui.click(1, 2)\nDONE = 1")


# --- real Qwen replies --------------------------------------------------------------------------
def test_qwen25_reply_with_thinking_reads_in_smart_resized_pixels():
    # a 1280x800 screenshot is 1288x812 to Qwen2.5-VL
    reply = ("I need to click the search box.\n<tool_call>\n{\"name\": \"computer_use\", \"arguments\": "
             "{\"action\": \"left_click\", \"coordinate\": [644, 406]}}\n</tool_call>")
    assert Codec(COMPUTER).parse(reply) == [Click(640, 400)]


def test_qwen3_reply_in_relative_coordinates():
    reply = ('<think>the OK button</think>\n<tool_call>\n{"name": "computer_use", "arguments": {"action": '
             '"double_click", "coordinate": [500, 500]}}\n</tool_call>\n<tool_call>\n{"name": "computer_use", '
             '"arguments": {"action": "type", "text": "hi\\n"}}\n</tool_call><|im_end|>')
    assert Codec(COMPUTER, coords="relative").parse(reply) == [DoubleClick(640, 400), TypeText("hi\n")]


def test_qwen_reply_cut_before_its_final_close_tag_is_read():
    reply = '<tool_call>\n{"name": "computer_use", "arguments": {"action": "key", "keys": ["ctrl", "s"]}}<|im_end|>'
    assert Codec(COMPUTER).parse(reply) == [Hotkey(("ctrl", "s"))]


def test_qwen_actions_read_as_documented():
    codec = Codec(COMPUTER, coords="absolute", schema="qwen")

    def call(action, **args):
        return codec.parse({"name": "computer_use", "arguments": {"action": action, **args}})

    assert call("left_click_drag", coordinate=[30, 40]) == [MouseDown(), MoveTo(30, 40), MouseUp()]
    assert call("left_click_drag", coordinate=[30, 40], start_coordinate=[1, 2]) == [Drag(1, 2, 30, 40)]
    assert call("triple_click", coordinate=[5, 5]) == [Click(5, 5)] * 3
    assert call("left_click") == [MouseDown(), MouseUp()]
    assert call("double_click") == [MouseDown(), MouseUp()] * 2
    assert call("right_click") == [MouseDown(button="right"), MouseUp(button="right")]
    assert call("scroll", pixels=3) == [Scroll("up", amount=3)]
    assert call("scroll", pixels=-2.4, coordinate=[9, 9]) == [Scroll("down", 9, 9, amount=2)]
    assert call("scroll", pixels=-5000) == [Scroll("down", amount=100)]      # capped at MAX_REPEAT
    assert call("hscroll", pixels=4) == [Scroll("right", amount=4)]
    assert call("key", keys=["Control", "Shift", "t"]) == [Hotkey(("ctrl", "shift", "t"))]
    assert call("key", keys="ctrl+c") == [Hotkey(("ctrl", "c"))]
    assert call("wait", time=2) == [Wait(2.0)]
    assert call("terminate", status="success") == [Finished("")]
    assert call("terminate", status="failure") == [CallUser("")]
    assert call("answer", text="42") == [Finished("42")]
    phone = Codec(PHONE, coords="absolute", schema="qwen", platform="mobile")
    for button, action in [("Back", PressBack()), ("Home", PressHome()), ("Menu", Hotkey(("menu",))),
                           ("Enter", Hotkey(("enter",)))]:
        assert phone.parse({"name": "mobile_use", "arguments": {"action": "system_button", "button": button}}) \
            == [action]
    assert phone.parse({"name": "mobile_use", "arguments": {"action": "open", "text": "Maps"}}) == [OpenApp("Maps")]
    assert phone.parse({"name": "mobile_use", "arguments": {"action": "long_press", "coordinate": [3, 4],
                                                            "time": 2}}) == [LongPress(3, 4, 2.0)]
    assert phone.parse({"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [3, 4],
                                                            "coordinate2": [30, 40]}}) == [Swipe(3, 4, 30, 40)]


def test_qwen_openai_tool_calls_form_with_arguments_as_json_text():
    item = {"id": "call_1", "type": "function", "function": {
        "name": "computer_use", "arguments": json.dumps({"action": "right_click", "coordinate": [644, 406]})}}
    assert Codec(COMPUTER).parse(item) == [RightClick(640, 400)]
    assert Codec(COMPUTER).parse([item, item]) == [RightClick(640, 400)] * 2


def test_qwen_call_as_bare_json_text_is_read_forced_and_in_auto_mode():
    text = '{"name": "computer_use", "arguments": {"action": "mouse_move", "coordinate": [644, 406]}}'
    assert Codec(COMPUTER, schema="qwen").parse(text) == [MoveTo(640, 400)]
    assert Codec(COMPUTER).parse(text) == [MoveTo(640, 400)]


def test_qwen_other_functions_are_the_env_functions():
    reply = '<tool_call>{"name": "execute_bash", "arguments": {"command": "ls"}}</tool_call>'
    assert Codec(COMPUTER, schema="qwen").parse(reply) == [Terminal("ls")]
    with pytest.raises(ActionError, match="^Qwen tool_call: unknown function"):
        Codec(COMPUTER, schema="qwen").parse('<tool_call>{"name": "rm_rf", "arguments": {}}</tool_call>')


@pytest.mark.parametrize("reply, message", [
    ("no call here", "has no <tool_call>"),
    ('<tool_call>{"name": "computer_use"', "does not hold valid JSON"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "mouse_move"}}</tool_call>', "takes coordinate"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [1, 2], "x": 1}}'
     '</tool_call>', "takes [coordinate], got 'coordinate', 'x'"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "fly"}}</tool_call>', "action must be one of"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "scroll", "pixels": 0}}</tool_call>',
     "non-zero number"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [NaN, 1]}}'
     '</tool_call>', "not a number"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [5000, 1]}}'
     '</tool_call>', "outside the screen"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "terminate", "status": "ok"}}</tool_call>',
     '"success" or "failure"'),
    ('<tool_call>{"a": 1}<tool_call>{"a": 1}</tool_call>', "no </tool_call> before the next"),
])
def test_qwen_errors_name_the_schema_and_what_is_accepted(reply, message):
    with pytest.raises(ActionError, match=r"^Qwen tool_call") as error:
        Codec(COMPUTER, schema="qwen").parse(reply)
    assert message in str(error.value)


# --- UI-TARS-1.5 quirks -------------------------------------------------------------------------
@pytest.mark.parametrize("reply, actions", [
    ("Thought: click it\nAction: click(start_box='(500,500)')[EOS]", [Click(640, 400)]),
    ("Action: click(start_box='(500,500)')<|im_end|>\n", [Click(640, 400)]),
    ("Action: hotkey(key='ctrl c')<|endoftext|><|im_end|>", [Hotkey(("ctrl", "c"))]),
    ("Action: type(content='\\u4f60\\u597d')", [TypeText("你好")]),
    ("Action: type(content='\\ud83d\\ude00 \\U0001F600 \\x41')", [TypeText("😀 😀 A")]),
    ("Action: type(content='C:\\\\Users and C:\\Users \\q')", [TypeText("C:\\Users and C:\\Users \\q")]),
    ("Action: type(content='lone \\ud83d and \\U00110000')", [TypeText("lone \\ud83d and \\U00110000")]),
    ("Action: press(press='tab')", [Hotkey(("tab",))]),
    ("Action: hotkey(hotkey='ctrl c')", [Hotkey(("ctrl", "c"))]),
    ("Action: keydown(keydown='shift')\n\nrelease(release='shift')", [KeyDown("shift"), KeyUp("shift")]),
    ("Thought: go\nAction: click(start_box='(500,500)'", [Click(640, 400)]),
    ("Action: finished(content='done'", [Finished("done")]),
    ("Action: wait(", [Wait(5.0)]),
    ("Action: type(content='It's')", [TypeText("It's")]),
    ("Action: wait()", [Wait(5.0)]),
    ("Action: scroll(point='<point>500 500</point>', direction='down', amount=3)", [Scroll("down", 640, 400, 3)]),
    ("Action: wait(seconds='2')", [Wait(2.0)]),
])
def test_uitars15_replies_read(reply, actions):
    assert Codec(COMPUTER).parse(reply) == actions
    assert Codec(COMPUTER, schema="uitars").parse(reply) == actions


def test_uitars_missing_parenthesis_only_at_the_very_end():
    with pytest.raises(ActionError, match="expected"):
        Codec(COMPUTER).parse("Action: click(start_box='(500,500)'\n\nwait()")


# --- hostile input ------------------------------------------------------------------------------
def _hostile(rng: random.Random) -> object:
    pieces = ["<tool_call>", "</tool_call>", "{", "}", "[", "]", '"name"', ":", '"computer_use"', '"arguments"',
              '"action"', '"left_click"', '"coordinate"', "1e999", "NaN", "-Infinity", "9" * 5000, ",", "\\u0000",
              '"\\ud800"', "null", "true", '"mobile_use"', '"scroll"', '"pixels"', "Action:", "click(", ")",
              "'", "\\", "[EOS]", "<|im_end|>", "\n", "🙂", "press=", "'<point>1 2</point>'"]
    if rng.random() < 0.1:
        return rng.choice([{"name": "computer_use", "arguments": rng.choice([None, [], "{", "[[[", 5, {"action": []}])},
                           {"function": {"name": "mobile_use", "arguments": '{"action": "click", "coordinate": '
                                                                             '[1e308, 1e308]}'}},
                           {"name": "computer_use", "arguments": {"action": "key", "keys": [[["x"]]]}},
                           {"name": ["computer_use"], "arguments": {}}, {"function": {"name": {}}},
                           {"name": "computer_use", "arguments": {"action": "type", "text": 10 ** 100}}])
    return "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 40)))


@pytest.mark.parametrize("schema", ["qwen", "uitars", "auto"])
def test_hostile_input_raises_only_action_errors(schema):
    rng = random.Random(16)
    codecs = [Codec(COMPUTER, schema=schema), Codec(PHONE, platform="mobile", schema=schema)]
    samples = [_hostile(rng) for _ in range(1500)] + [
        "<tool_call>" + "[" * 100_000, "<tool_call>" + '{"a": ' * 20_000, "<tool_call>" * 30_000,
        "Action: type(content='" + "\\u" * 40_000 + "')", "Action: click(" + "[EOS]" * 15_000,
        '<tool_call>{"name": "computer_use", "arguments": {"action": "wait", "time": 1e400}}</tool_call>',
    ]
    for sample in samples:
        for codec in codecs:
            try:
                codec.parse(sample)
            except ActionError:
                pass


# --- auto detection -----------------------------------------------------------------------------
@pytest.mark.parametrize("output, schema", [
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [1, 2]}}</tool_call>',
     "qwen"),
    ({"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1, 2]}}, "qwen"),
    ({"type": "function", "function": {"name": "computer_use", "arguments": "{}"}}, "qwen"),
    ("<seed:tool_call><function=click><parameter=point><point>1 2</point></parameter></function></seed:tool_call>",
     "seed"),
    ("Thought: x\nAction: click(start_box='(1,2)')", "uitars"),
    ("Action: press(press='tab')[EOS]", "uitars"),
    ("pyautogui.click(1, 2)", "pyautogui"),
])
def test_auto_detection_tells_the_forms_apart(output, schema):
    assert detect(output).name == schema


@pytest.mark.parametrize("output", [
    {"name": "x" * 100_000, "arguments": {}}, {"name": "computer_use", "arguments": "x" * 90_000},
    {"name": "computer_use", "arguments": {"action": "y" * 90_000}},
    {"name": "computer_use", "arguments": {"action": "left_click", "coordinate": ["x" * 90_000, 1]}},
    {"name": "computer_use", "arguments": {"action": "key", "keys": ["x" * 90_000]}},
    '<tool_call>{"name": "computer_use", "arguments": {"action": "type", "text": 1' + "0" * 5000 + "}}",
    "Action: type(content='" + "\\q" * 40_000,
])
def test_error_messages_stay_short_whatever_the_input(output):
    with pytest.raises(ActionError) as error:
        Codec(COMPUTER, schema="uitars" if isinstance(output, str) and output.startswith("Action") else "qwen") \
            .parse(output)
    assert len(str(error.value)) < 1000
