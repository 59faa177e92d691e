"""Tests of the action codec (hybridgym.actions): UI-TARS text, pyautogui code, dicts.

Agreement with ByteDance's reference parser (the `ui-tars` 0.5.1 package) is
checked on a corpus of responses; where that parser is weak the tests pin what we
do instead.  Note on ui-tars 0.5.1: `parsing_response_to_pyautogui_code` divides
by `scale_factor` (default 1000) a coordinate that `parse_action_to_structure_output`
has already scaled to 0..1, so its README example prints click(0.384, 0.324);
the reference here is therefore called with scale_factor=1, which gives pixels.
"""

from __future__ import annotations

import ast
import builtins
import re
import time
from pathlib import Path

import pytest
from ui_tars import action_parser as ref

import hybridgym.actions as actions_pkg
from hybridgym.actions import (
    ActionError, CallUser, Click, Codec, CoordMode, DoubleClick, Drag, Finished, Hotkey, KeyDown, KeyUp,
    LongPress, MiddleClick, MouseDown, MouseUp, MoveTo, OpenApp, PressBack, PressHome, ReadFile,
    RightClick, Scroll, Swipe, Tap, Terminal, TypeText, Wait, WriteFile, normalize_key, parse_action,
    smart_resize, split_hotkey,
)
from hybridgym.actions.keys import NAMED_KEYS

from .attack_kit import nested_dict, nested_list

HD = (1920, 1080)
SCREENS = [(1920, 1080), (1280, 720), (1366, 768), (1080, 2400)]


def one(action, screen=HD, **kw):
    result = parse_action(action, screen, **kw)
    assert len(result) == 1, result
    return result[0]


def error_of(action, screen=HD, **kw) -> str:
    with pytest.raises(ActionError) as info:
        parse_action(action, screen, **kw)
    return str(info.value)


# --- agreement with ui-tars 0.5.1 -------------------------------------------
README_RESPONSE = "Thought: Click the button\nAction: click(point='<point>200 300</point>')"

CORPUS = [
    README_RESPONSE,
    "Thought: The search box is at the top.\nAction: click(start_box='(235,512)')",
    "Action: left_single(start_box='(10,20)')",
    "Thought: Open the file.\nAction: left_double(point='<point>120 340</point>')",
    "Action: right_single(start_box='(100,200,300,400)')",
    "Action: hover(point='<point>640 88</point>')",
    "Action: hover(start_box='(500,500,600,700)')",
    "Thought: Move the slider.\nAction: drag(start_point='<point>100 200</point>', end_point='<point>300 400</point>')",
    "Action: select(start_box='(10,10,30,30)', end_box='(900,950,950,990)')",
    "Action: drag(start_box='(0,0)', end_box='(1000,1000)')",
    "Thought: Read further down.\nAction: scroll(point='<point>500 500</point>', direction='down')",
    "Action: scroll(start_box='(250,750)', direction='up')",
    "Action: scroll(direction='down')",
    "Action: type(content='hello world')",
    "Thought: Search and submit.\nAction: type(content='weather in Paris\\n')",
    "Action: type(content='say \\'hi\\' and \"bye\"')",
    "Action: type(content='报告 2025 ✅ 😀 naïve')",
    "Action: type(content='It's done')",
    "Action: hotkey(key='ctrl c')",
    "Action: hotkey(key='ctrl shift t')",
    "Action: hotkey(key='arrowleft')",
    "Action: hotkey(key='alt f4')",
    "Action: hotkey(key='enter')",
    "Action: press(key='enter')",
    "Action: keydown(key='shift')",
    "Action: keyup(key='shift')",
    "Action: release(key='ctrl')",
    "Thought: All done.\nAction: finished(content='The file is saved.')",
    "Action: finished()",
    "Reflection: The menu did not open.\nAction_Summary: Click the menu again.\nAction: click(point='<point>50 20</point>')",
    "Action_Summary: Close the dialog.\nAction: hotkey(key='esc')",
    "Thought: Fill the form.\nAction: click(point='<point>400 300</point>')\n\ntype(content='Ada')\n\nhotkey(key='tab')",
    "Action: click(point='<point>0 0</point>')",
    "Action: click(point='<point>999 999</point>')",
    "Action: click(point='<point>1000 1000</point>')",
]


def reference(text: str, screen: tuple[int, int], model_type: str) -> list[tuple]:
    """What ui-tars makes of `text`: one (kind, ...) tuple per action, in pixels."""
    w, h = screen
    structured = ref.parse_action_to_structure_output(
        text, factor=1000, origin_resized_height=h, origin_resized_width=w, model_type=model_type)
    summary = []
    for action in structured:
        code = ref.parsing_response_to_pyautogui_code([action], h, w, scale_factor=1)
        calls = []                 # (function, positional args, keyword args) of each pyautogui line
        for line in re.findall(r"^pyautogui\..*$", code, re.M):
            call = ast.parse(line).body[0].value
            calls.append((call.func.attr, [ast.literal_eval(a) for a in call.args],
                          {k.arg: ast.literal_eval(k.value) for k in call.keywords}))
        kind = action["action_type"]
        if kind == "type":
            summary.append(("type", action["action_inputs"]["content"]))
        elif kind == "finished":
            assert code == "DONE"
            summary.append(("finished", action["action_inputs"].get("content", "")))
        elif kind == "scroll":
            (_, (clicks,), _), = calls
            box = ast.literal_eval(action["action_inputs"].get("start_box", "None") or "None")
            # ui-tars writes the 0..1 start of the box into x=, y= unscaled; scale it here
            at = (box[0] * w, box[1] * h) if box else None
            summary.append(("scroll", "up" if clicks > 0 else "down", at))
        elif len(calls) == 2 and calls[0][0] == "moveTo" and calls[1][0] == "dragTo":
            summary.append(("drag", *calls[0][1], *calls[1][1]))
        else:
            (fn, args, kwargs), = calls
            if fn == "click":
                summary.append(("click" if kwargs["button"] == "left" else "right_single", *args))
            elif fn == "doubleClick":
                summary.append(("left_double", *args))
            elif fn == "moveTo":
                summary.append(("hover", *args))
            elif fn == "hotkey":
                summary.append(("hotkey", tuple(normalize_key(k) for k in args)))
            else:
                summary.append((fn, normalize_key(args[0])))       # keyDown / keyUp
    return summary


def ours(action) -> tuple:
    if isinstance(action, (Click, DoubleClick, RightClick, MoveTo)):
        return (action.action_type, action.x, action.y)
    if isinstance(action, Drag):
        return ("drag", action.x1, action.y1, action.x2, action.y2)
    if isinstance(action, Scroll):
        return ("scroll", action.direction, None if action.x is None else (action.x, action.y))
    if isinstance(action, TypeText):
        return ("type", action.text)
    if isinstance(action, Hotkey):
        return ("hotkey", action.keys)
    if isinstance(action, KeyDown):
        return ("keyDown", action.key)
    if isinstance(action, KeyUp):
        return ("keyUp", action.key)
    if isinstance(action, Finished):
        return ("finished", action.content)
    raise AssertionError(action)


def on_screen(summary: tuple, screen: tuple[int, int]) -> bool:
    numbers = [v for v in summary[1:] if isinstance(v, float)]
    numbers += [v for t in summary[1:] if isinstance(t, tuple) for v in t if isinstance(v, float)]
    return all(0 <= v <= screen[i % 2] for i, v in enumerate(numbers))


def assert_same(mine: tuple, theirs: tuple) -> None:
    assert mine[0] == theirs[0], (mine, theirs)
    assert len(mine) == len(theirs), (mine, theirs)
    for a, b in zip(mine[1:], theirs[1:]):
        if isinstance(b, (int, float)) and not isinstance(b, bool):
            assert abs(a - b) <= 1, (mine, theirs)
        elif isinstance(b, tuple) and b and isinstance(b[0], float):
            assert all(abs(p - q) <= 1 for p, q in zip(a, b)), (mine, theirs)
        else:
            assert a == b, (mine, theirs)


def test_corpus_is_large_and_varied():
    assert len(CORPUS) >= 25
    assert len({re.search(r"Action: (\w+)", t)[1] for t in CORPUS}) >= 15


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("model_type, coords", [("qwen2vl", "relative"), ("doubao", "relative"),
                                                ("qwen25vl", "smart_resize")])
@pytest.mark.parametrize("text", CORPUS)
def test_agrees_with_ui_tars_reference_parser(text, model_type, coords, screen):
    theirs = reference(text, screen, model_type)
    if not all(on_screen(expected, screen) for expected in theirs):
        # ui-tars passes on points beyond the screen (e.g. y=990 of a 1288x728 smart-resized image)
        assert "is outside the screen" in error_of(text, screen, coords=coords)
        return
    mine = parse_action(text, screen, coords=coords)
    assert len(mine) == len(theirs)
    for action, expected in zip(mine, theirs):
        if expected[0] == "keyDown" and "press(" in text:
            # ui-tars leaves press() without its key-up; we press and release
            assert action == Hotkey((expected[1],))
        else:
            assert_same(ours(action), expected)


@pytest.mark.parametrize("text, kind", [("Action: wait()", Wait), ("Action: call_user()", CallUser)])
def test_agrees_with_ui_tars_on_actions_it_does_not_execute(text, kind):
    structured = ref.parse_action_to_structure_output(text, 1000, 1080, 1920, model_type="qwen2vl")
    assert structured[0]["action_type"] == kind.action_type
    assert isinstance(one(text), kind)


def test_readme_example_gives_the_readme_pixels():
    # README: 1920x1080, <point>200 300</point>, model_type="doubao"
    parsed = ref.parse_action_to_structure_output(README_RESPONSE, factor=1000, origin_resized_height=1080,
                                                  origin_resized_width=1920, model_type="doubao")
    code = ref.parsing_response_to_pyautogui_code(parsed, 1080, 1920)     # as the README calls it
    x, y = map(float, re.search(r"click\(([\d.]+), ([\d.]+)", code).groups())
    assert one(README_RESPONSE) == Click(384, 324)
    assert (round(x * 1000), round(y * 1000)) == (384, 324)              # its scale_factor slip, see module doc
    # README "visualize" snippet: coordinates = eval(start_box); x1 = int(coordinates[0] * width)
    coordinates = ast.literal_eval(parsed[0]["action_inputs"]["start_box"])
    assert (int(coordinates[0] * 1920), int(coordinates[1] * 1080)) == (384, 324)


@pytest.mark.parametrize("height, width", [(1080, 1920), (720, 1280), (768, 1366), (2400, 1080), (10, 10),
                                           (28, 5000), (8000, 8000), (1, 150), (333, 777)])
def test_smart_resize_matches_ui_tars(height, width):
    assert smart_resize(height, width) == ref.smart_resize(height, width)
    kw = dict(min_pixels=256 * 28 * 28, max_pixels=1280 * 28 * 28)
    assert smart_resize(height, width, **kw) == ref.smart_resize(height, width, **kw)


def test_smart_resize_mode_uses_configured_pixel_limits():
    rh, rw = smart_resize(1080, 1920, max_pixels=1280 * 28 * 28)
    assert (rh, rw) != smart_resize(1080, 1920)
    click = one("Action: click(point='<point>100 100</point>')", coords="smart_resize", max_pixels=1280 * 28 * 28)
    assert click == Click(round(100 * 1920 / rw), round(100 * 1080 / rh))


# --- where ui-tars is weak, we do better ---------------------------------------
@pytest.mark.parametrize("direction", ["left", "right"])
def test_horizontal_scroll_is_kept(direction):
    text = f"Action: scroll(point='<point>500 500</point>', direction='{direction}')"
    parsed = ref.parse_action_to_structure_output(text, 1000, 1080, 1920, model_type="qwen2vl")
    assert "pyautogui.scroll" not in ref.parsing_response_to_pyautogui_code(parsed, 1080, 1920, scale_factor=1)
    assert one(text) == Scroll(direction, 960, 540)


def test_press_releases_the_key():
    parsed = ref.parse_action_to_structure_output("Action: press(key='enter')", 1000, 1080, 1920,
                                                  model_type="qwen2vl")
    code = ref.parsing_response_to_pyautogui_code(parsed, 1080, 1920)
    assert "keyDown('enter')" in code and "keyUp" not in code
    assert one("Action: press(key='enter')") == Hotkey(("enter",))       # a Hotkey presses, then releases


def test_scroll_at_a_box_scrolls_at_its_centre():
    # ui-tars uses the box's top-left corner, unscaled
    assert one("Action: scroll(start_box='(100,200,300,400)', direction='down')") == Scroll("down", 384, 324)


@pytest.mark.parametrize("text", [
    "Action: click(start_box='[100, 200, 300, 400]')",
    "Action: click(start_box='<bbox>100 200 300 400</bbox>')",
    "Action: click(point='<point>100 200 300 400</point>')",
    "Action: click(start_box='<|box_start|>(200,300)<|box_end|>')",
    "Action: click(point='<point>200.0 300.0</point>')",
    "Action: click(point=<point>200 300</point>)",
    "click(start_box='(200,300)')",
])
def test_point_forms_ui_tars_cannot_read(text):
    assert one(text) == Click(384, 324)


def test_real_newlines_and_windows_paths_in_content_survive():
    assert one("Action: type(content='line one\nline two')") == TypeText("line one\nline two")
    assert one("Action: type(content='C:\\Users\\ada\\data.txt')") == TypeText("C:\\Users\\ada\\data.txt")
    assert one("Action: type(content='f('x')\nprint()')") == TypeText("f('x')\nprint()")


class TestMobile:
    def test_click_is_a_tap_and_long_press_a_long_press(self):
        screen = (1080, 2400)
        assert one("Action: click(point='<point>500 500</point>')", screen, platform="mobile") == Tap(540, 1200)
        assert one("Action: long_press(point='<point>500 500</point>')", screen, platform="mobile") == \
            LongPress(540, 1200)

    def test_drag_and_swipe_are_swipes(self):
        for call in ("drag", "swipe"):
            text = f"Action: {call}(start_point='<point>500 800</point>', end_point='<point>500 200</point>')"
            assert one(text, (1000, 1000), platform="mobile") == Swipe(500, 800, 500, 200)

    @pytest.mark.parametrize("direction, finger", [("down", "up"), ("up", "down"), ("left", "right"),
                                                   ("right", "left")])
    def test_scroll_is_a_swipe_of_the_finger_the_other_way(self, direction, finger):
        swipe = one(f"Action: scroll(point='<point>500 500</point>', direction='{direction}')", (1000, 2000),
                    platform="mobile")
        assert isinstance(swipe, Swipe)
        dx, dy = swipe.x2 - swipe.x1, swipe.y2 - swipe.y1
        moved = {"up": dy < 0, "down": dy > 0, "left": dx < 0, "right": dx > 0}
        assert moved[finger] and (dx == 0 or dy == 0)
        assert (swipe.x1 + swipe.x2) / 2 == 500 and (swipe.y1 + swipe.y2) / 2 == 1000   # centred at the point

    def test_scroll_without_point_is_centred_on_the_screen_and_stays_off_the_edges(self):
        assert one("Action: scroll(direction='down')", (1000, 2000), platform="mobile") == Swipe(500, 1500, 500, 500)
        near_bottom = one("Action: scroll(point='<point>500 990</point>', direction='down')", (1000, 2000),
                          platform="mobile")
        assert 200 <= near_bottom.y2 < near_bottom.y1 <= 1799

    def test_phone_buttons_and_apps(self):
        text = "Action: open_app(app_name='Settings')\n\npress_home()\n\npress_back()"
        assert parse_action(text, (1080, 2400), platform="mobile") == [OpenApp("Settings"), PressHome(), PressBack()]

    @pytest.mark.parametrize("text", ["Action: long_press(point='<point>1 2</point>')",
                                      "Action: open_app(app_name='Maps')", "Action: press_home()",
                                      "Action: press_back()", {"action_type": "tap", "x": 1, "y": 2}])
    def test_mobile_actions_are_refused_on_a_computer(self, text):
        assert "is a mobile action" in error_of(text)

    def test_computer_click_stays_a_click(self):
        assert one("Action: click(point='<point>500 500</point>')") == Click(960, 540)


# --- typed content --------------------------------------------------------------
@pytest.mark.parametrize("written, typed", [
    ("it\\'s", "it's"),
    ('say \\"hi\\"', 'say "hi"'),
    ('say "hi"', 'say "hi"'),
    ("It's a 'test'", "It's a 'test'"),
    ("first\\nsecond\\n", "first\nsecond\n"),
    ("real\nnewline", "real\nnewline"),
    ("tab\\there", "tab\there"),
    ("a backslash \\\\ n", "a backslash \\ n"),
    ("中文输入法 测试", "中文输入法 测试"),
    ("emoji 😀👍🏽 and ZWJ 👨‍👩‍👧", "emoji 😀👍🏽 and ZWJ 👨‍👩‍👧"),
    ("(parens) and, commas=1", "(parens) and, commas=1"),
    ("a, b='c'", "a, b='c'"),
    ("", ""),
])
def test_type_content_survives_exactly(written, typed):
    assert one(f"Action: type(content='{written}')") == TypeText(typed)


def test_double_quoted_content_and_sdk_calls():
    text = ("Action: terminal(command=\"grep -r 'TODO' src | wc -l\")\n\n"
            "read_file(path='/work/notes.txt')\n\n"
            "write_file(path='out/a.md', content='# Title\\nbody with \\'quotes\\'\\n')")
    assert parse_action(text, HD) == [Terminal("grep -r 'TODO' src | wc -l"), ReadFile("/work/notes.txt"),
                                      WriteFile("out/a.md", "# Title\nbody with 'quotes'\n")]


def test_unescaped_quotes_in_a_command_survive():
    assert one("Action: terminal(command='echo 'hi' > a.txt')") == Terminal("echo 'hi' > a.txt")


def test_thought_may_mention_actions_and_pyautogui():
    text = "Thought: I could use pyautogui.click, but Action: is below.\nAction: type(content='Action: x')"
    assert one(text) == TypeText("Action: x")


def test_other_ui_tars_calls():
    assert one("Action: wait()") == Wait(5.0)
    assert one("Action: call_user()") == CallUser()
    assert one("Action: finished(content='ok')") == Finished("ok")
    assert one("Action: middle_single(point='<point>500 500</point>')") == MiddleClick(960, 540)
    assert one("Action: mouse_down(point='<point>500 500</point>', button='right')") == MouseDown(960, 540, "right")
    assert one("Action: mouse_up()") == MouseUp()
    assert one("Action: press(key='ctrl+s')") == Hotkey(("ctrl", "s"))
    assert one("Action: hotkey(hotkey='Control+Shift+ArrowUp')") == Hotkey(("ctrl", "shift", "up"))


# --- UI-TARS errors say what is accepted ----------------------------------------
@pytest.mark.parametrize("text, expected", [
    ("Action: scroll(direction='sideways')", "scroll() needs direction up/down/left/right, got 'sideways'"),
    ("Action: click()", "click() takes click(point='<point>x y</point>'), got click()"),
    ("Action: click(point='<point>1 2</point>', foo='x')", "click() takes click(point='<point>x y</point>')"),
    ("Action: drag(start_point='<point>1 2</point>')", "drag(point='<point>x y</point>', end_point="),
    ("Action: fly(to='moon')", "unknown UI-TARS action fly(); accepted: click, left_single"),
    ("Action: click(point='here')", "point must be '<point>x y</point>'"),
    ("Action: click(point='<point>1 2 3</point>')", "point must be '<point>x y</point>'"),
    ("Action: type(content='never closed)", "unterminated string"),
    ("Action: click(point='<point>1 2</point>' x", "expected ',' or ')'"),
    ("Action: hotkey(key='ctrl banana')", "unknown key 'banana'; accepted: a single character, or one of"),
    ("Action: mouse_down(button='thumb')", "mouse_down() needs button left/right/middle, got 'thumb'"),
    ("Thought: I am thinking.", "UI-TARS text needs 'Action: <call>'"),
    ("Action: ", "UI-TARS text has no call after 'Action:'"),
    ("Action: click(point='<point>1 2</point>', point='<point>1 2</point>')", "has point= twice"),
])
def test_ui_tars_errors_say_what_is_accepted(text, expected):
    assert expected in error_of(text)


# --- coordinates ---------------------------------------------------------------
@pytest.mark.parametrize("action, coords, expected", [
    ("Action: click(point='<point>1001 500</point>')", None,
     "x=1001 is outside the screen; relative coordinates go 0..1000 on x (screen 1920x1080 px)"),
    ("Action: click(point='<point>500 -1</point>')", None, "y=-1 is outside the screen"),
    ("Action: click(start_box='(1950,500)')", "absolute", "x=1950 is outside the screen; absolute coordinates "
                                                          "go 0..1920 on x (screen 1920x1080 px)"),
    ("Action: click(start_box='(500,1100)')", "smart_resize", "y=1100 is outside the screen; smart_resize "
                                                              "coordinates go 0..1092 on y"),
    ("pyautogui.click(2000, 10)", None, "x=2000 is outside the screen; absolute coordinates go 0..1920"),
    ("pyautogui.moveTo(10, 10)\npyautogui.drag(0, 5000)", None, "y=5010 is outside the screen"),
    ({"action_type": "click", "x": 10, "y": 1081}, None, "y=1081 is outside the screen"),
    ("pyautogui.click(float('nan'), 1)", None, "is not a literal"),
    ("pyautogui.click(1e999, 1)", None, "x=inf is outside the screen"),
])
def test_points_outside_the_screen_are_refused(action, coords, expected):
    assert expected in error_of(action, coords=coords)


def test_modes_convert_to_screenshot_pixels():
    text = "Action: click(start_box='(966,546)')"
    assert one(text, coords="relative") == Click(1855, 590)          # 966/1000*1920 = 1854.72
    assert one(text, coords="absolute") == Click(966, 546)
    assert one(text, coords=CoordMode.SMART_RESIZE) == Click(960, 540)  # resized 1932x1092
    assert one("pyautogui.click(500, 500)", coords="relative") == Click(960, 540)


def test_rounding_is_half_up_and_the_far_edge_is_the_last_pixel():
    assert one("Action: click(start_box='(500,500)')", (1001, 1001)) == Click(501, 501)    # 500.5 -> 501
    assert one("Action: click(start_box='(1000,1000)')") == Click(1919, 1079)
    assert one({"action_type": "click", "x": 1920, "y": 0}) == Click(1919, 0)
    assert one({"action_type": "click", "x": 10.5, "y": 0.49}) == Click(11, 0)


def test_codec_configuration_errors_are_value_errors():
    with pytest.raises(ValueError, match="coords must be one of"):
        Codec(HD, coords="pixels")
    with pytest.raises(ValueError, match="platform must be one of"):
        Codec(HD, platform="tablet")
    with pytest.raises(ValueError, match="screen must be"):
        Codec((0, 1080))


# --- pyautogui code --------------------------------------------------------------
@pytest.mark.parametrize("code, expected", [
    ("pyautogui.click(100, 200)", [Click(100, 200)]),
    ("pyautogui.click(x=100, y=200, button='left', duration=0.2)", [Click(100, 200)]),
    ("pyautogui.click((100, 200))", [Click(100, 200)]),
    ("pyautogui.click(100, 200, clicks=2)", [DoubleClick(100, 200)]),
    ("pyautogui.click(100, 200, clicks=3, interval=0.1)", [Click(100, 200)] * 3),
    ("pyautogui.click(100, 200, button='right')", [RightClick(100, 200)]),
    ("pyautogui.click(100, 200, 1, 0.0, 'middle')", [MiddleClick(100, 200)]),
    ("pyautogui.doubleClick(100, 200)", [DoubleClick(100, 200)]),
    ("pyautogui.rightClick(100, 200)", [RightClick(100, 200)]),
    ("pyautogui.middleClick(100, 200)", [MiddleClick(100, 200)]),
    ("pyautogui.moveTo(100, 200, duration=1)", [MoveTo(100, 200)]),
    ("pyautogui.moveTo(100, 200)\npyautogui.click()", [MoveTo(100, 200), Click(100, 200)]),
    ("pyautogui.moveTo(100, 200)\npyautogui.dragTo(300, 400, duration=1.0)", [MoveTo(100, 200), Drag(100, 200, 300, 400)]),
    ("pyautogui.click(100, 200)\npyautogui.drag(50, -100)", [Click(100, 200), Drag(100, 200, 150, 100)]),
    ("pyautogui.mouseDown(100, 200)\npyautogui.mouseUp(button='left')", [MouseDown(100, 200), MouseUp()]),
    ("pyautogui.mouseDown(button='right')", [MouseDown(button="right")]),
    ("pyautogui.scroll(5)", [Scroll("up", amount=5)]),
    ("pyautogui.scroll(-3, x=100, y=200)", [Scroll("down", 100, 200, amount=3)]),
    ("pyautogui.hscroll(2)", [Scroll("right", amount=2)]),
    ("pyautogui.hscroll(-2, 10, 20)", [Scroll("left", 10, 20, amount=2)]),
    ("pyautogui.write('Hello, 世界!\\n')", [TypeText("Hello, 世界!\n")]),
    ("pyautogui.typewrite('abc', interval=0.05)", [TypeText("abc")]),
    ("pyautogui.typewrite(['a', 'enter'])", [Hotkey(("a",)), Hotkey(("enter",))]),
    ("pyautogui.press('enter')", [Hotkey(("enter",))]),
    ("pyautogui.press(['tab', 'tab'])", [Hotkey(("tab",)), Hotkey(("tab",))]),
    ("pyautogui.press('down', presses=3)", [Hotkey(("down",))] * 3),
    ("pyautogui.hotkey('ctrl', 'shift', 'esc')", [Hotkey(("ctrl", "shift", "esc"))]),
    ("pyautogui.hotkey(['command', 'c'])", [Hotkey(("super", "c"))]),
    ("pyautogui.hotkey('ctrl', ' ', interval=0.1)", [Hotkey(("ctrl", "space"))]),
    ("pyautogui.keyDown('shift')\npyautogui.press('a')\npyautogui.keyUp('shiftleft')",
     [KeyDown("shift"), Hotkey(("a",)), KeyUp("shift")]),
    ("pyautogui.sleep(0.5)", [Wait(0.5)]),
    ("import time\ntime.sleep(2)", [Wait(2.0)]),
    ("import pyautogui\nimport time\n'''\nObservation: a comment string\n'''\npyautogui.click(1, 2)\n",
     [Click(1, 2)]),
    ("Here you go:\n```python\nimport pyautogui\npyautogui.click(+1, 2)\n```\n", [Click(1, 2)]),
    ("pyautogui.click(100, 200); pyautogui.press('enter')", [Click(100, 200), Hotkey(("enter",))]),
])
def test_pyautogui_whitelisted_calls(code, expected):
    assert parse_action(code, HD) == expected


@pytest.mark.parametrize("code, expected", [
    ("pyautogui.dragTo(300, 400)", "dragTo() drags from where the pointer is, which is unknown here"),
    ("pyautogui.drag(10, 0)", "drags from where the pointer is, which is unknown"),
    ("pyautogui.click()", "click() without x, y acts where the pointer is, which is unknown here"),
    ("pyautogui.click(100)", "click() needs both x and y"),
    ("pyautogui.click(1, 2, foo=3)", "click() got an unknown argument foo=; accepted: x, y, clicks"),
    ("pyautogui.click(1, 2, x=3)", "click() got a repeated argument x="),
    ("pyautogui.click(1, 2, 1, 0, 'left', 0, None, 1)", "click() takes at most 7 positional arguments"),
    ("pyautogui.click(1, 2, button='thumb')", "click() needs button left/right/middle, got 'thumb'"),
    ("pyautogui.click(1, 2, clicks=0)", "needs clicks to be an int from 1 to 100, got 0"),
    ("pyautogui.scroll(0)", "scroll() needs a non-zero int number of clicks"),
    ("pyautogui.scroll(10**9)", "is not a literal"),
    ("pyautogui.scroll(1000000)", "within ±100"),
    ("pyautogui.press('a', presses=1000000)", "needs presses to be an int from 1 to 100"),
    ("pyautogui.press('banana')", "unknown key 'banana'"),
    ("pyautogui.write(42)", "write() needs a string message"),
    ("pyautogui.sleep(-1)", "sleep() needs a number of seconds >= 0"),
    ("pyautogui.screenshot()", "`pyautogui.screenshot` is not an allowed call; accepted: import pyautogui/time"),
    ("pyautogui.click(1, 2", "pyautogui code does not parse"),
    ("import pyautogui as pg\npg.click(1, 2)", "(Import) is not allowed"),
    ("pyautogui.hotkey()", "hotkey() needs keys"),
])
def test_pyautogui_errors_say_what_is_accepted(code, expected):
    assert expected in error_of(code)


HOSTILE = [
    "__import__('os').system('touch {marker}')",
    "pyautogui.click(*__import__('os').system('touch {marker}'))",
    "pyautogui.click(**__import__('os').system('touch {marker}'))",
    "exec(\"open('{marker}', 'w')\")",
    "eval(\"open('{marker}', 'w')\")",
    "pyautogui.click(x=__import__('pathlib').Path('{marker}').touch())",
    "pyautogui.click(x=os.getpid())",
    "import os\nos.system('touch {marker}')",
    "from os import system\nsystem('touch {marker}')",
    "pyautogui.click(1, 2)\nopen('{marker}', 'w')",
    "pyautogui.write((lambda: open('{marker}', 'w'))())",
    "(lambda: open('{marker}', 'w'))()",
    "pyautogui.__class__",
    "pyautogui.__class__.__init__.__globals__['os'].system('touch {marker}')",
    "pyautogui.click.__globals__['os'].system('touch {marker}')",
    "pyautogui.write(f\"{{open('{marker}', 'w')}}\")",
    "[pyautogui.click(1, 2) for _ in range(3)]",
    "pyautogui.write([open('{marker}', 'w') for _ in 'a'][0])",
    "x = open('{marker}', 'w')",
    "for i in range(3):\n    pyautogui.click(1, 2)",
    "while True:\n    pyautogui.click(1, 2)",
    "with open('{marker}', 'w'):\n    pass",
    "def f():\n    open('{marker}', 'w')\nf()",
    "@open('{marker}', 'w')\ndef f(): pass",
    "pyautogui.click(pyautogui.position())",
    "pyautogui.write('a' + open('{marker}', 'w').name)",
    "pyautogui.write('%s' % open('{marker}', 'w'))",
    "time.sleep(__import__('os').system('touch {marker}'))",
    "pyautogui.click(1, 2) if open('{marker}', 'w') else None",
    "pyautogui.press(key := open('{marker}', 'w'))",
    "pyautogui.write(b'bytes')",
    "pyautogui.write(...)",
    "Action: click(point=__import__('os').system('touch {marker}'))",
    "Action: type(content=open('{marker}', 'w'))",
    "pyautogui.click(" + "(" * 10000 + ")" * 10000 + ")",
    "pyautogui.write('" + "a" * 200_000 + "')",
    "pyautogui.press('a')\n" * 10_000,
    "\x00pyautogui.click(1, 2)",
]


@pytest.mark.parametrize("code", HOSTILE)
def test_hostile_code_is_refused_and_never_run(code, tmp_path, monkeypatch):
    marker = tmp_path / "pwned"
    calls = []
    monkeypatch.setattr(builtins, "eval", lambda *a, **k: calls.append("eval"))
    monkeypatch.setattr(builtins, "exec", lambda *a, **k: calls.append("exec"))
    with pytest.raises(ActionError):
        parse_action(code.replace("{marker}", str(marker)), HD)
    monkeypatch.undo()
    assert not marker.exists() and not calls


def test_hostile_errors_name_the_construct():
    assert "`__import__('os').system` is not an allowed call" in error_of("__import__('os').system('id')")
    assert "`exec` is not an allowed call" in error_of("exec('pyautogui.click(1, 2)')")
    assert "`*__import__('os')` (Starred) is not a literal" in error_of("pyautogui.click(*__import__('os'))")
    assert "`os.getpid()` (Call) is not a literal" in error_of("pyautogui.click(x=os.getpid())")
    assert "(Lambda) is not a literal" in error_of("pyautogui.click(lambda: 0)")
    assert "`pyautogui.__class__` is not a call" in error_of("pyautogui.__class__")
    assert "(JoinedStr) is not a literal" in error_of("pyautogui.write(f'{1}')")
    assert "(ListComp) is not a literal" in error_of("pyautogui.write([c for c in 'ab'])")
    assert "(For) is not allowed" in error_of("for i in range(3):\n    pyautogui.click(1, 2)")
    assert "(Assign) is not allowed" in error_of("x = pyautogui.click(1, 2)")
    assert "at most 100000 are read" in error_of("pyautogui.press('a')\n" * 10_000)


def test_codec_sources_never_evaluate_or_import_dynamically():
    root = Path(actions_pkg.__file__).parent
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                builtin = node.func.id if isinstance(node.func, ast.Name) else None
                assert builtin not in ("eval", "exec", "compile", "__import__", "getattr"), \
                    f"{path.name}:{node.lineno} calls {builtin}"
                assert getattr(node.func, "attr", None) not in ("import_module", "system", "run", "Popen")


# --- dicts ----------------------------------------------------------------------
@pytest.mark.parametrize("action, expected", [
    ({"action_type": "click", "x": 10, "y": 20}, Click(10, 20)),
    ({"action_type": "click", "coordinate": [10, 20]}, Click(10, 20)),
    ({"action_type": "left_single", "coordinate": (10.4, 19.5)}, Click(10, 20)),
    ({"action_type": "left_double", "x": 1, "y": 2}, DoubleClick(1, 2)),
    ({"action_type": "right_single", "x": 1, "y": 2}, RightClick(1, 2)),
    ({"action_type": "middle_single", "x": 1, "y": 2}, MiddleClick(1, 2)),
    ({"action_type": "hover", "x": 1, "y": 2}, MoveTo(1, 2)),
    ({"action_type": "drag", "x1": 1, "y1": 2, "x2": 3, "y2": 4}, Drag(1, 2, 3, 4)),
    ({"action_type": "drag", "start_coordinate": [1, 2], "end_coordinate": [3, 4]}, Drag(1, 2, 3, 4)),
    ({"action_type": "mouse_down"}, MouseDown()),
    ({"action_type": "mouse_up", "x": 5, "y": 6, "button": "Right"}, MouseUp(5, 6, "right")),
    ({"action_type": "scroll", "direction": "down"}, Scroll("down")),
    ({"action_type": "scroll", "direction": "left", "coordinate": [5, 6], "amount": 2}, Scroll("left", 5, 6, 2)),
    ({"action_type": "type", "text": "héllo\n"}, TypeText("héllo\n")),
    ({"action_type": "type", "content": "hi"}, TypeText("hi")),
    ({"action_type": "hotkey", "keys": ["Control", "c"]}, Hotkey(("ctrl", "c"))),
    ({"action_type": "hotkey", "keys": "ctrl+shift+t"}, Hotkey(("ctrl", "shift", "t"))),
    ({"action_type": "hotkey", "key": "ctrl c"}, Hotkey(("ctrl", "c"))),
    ({"action_type": "press", "key": "Return"}, Hotkey(("enter",))),
    ({"action_type": "keydown", "key": "Shift_L"}, KeyDown("shift")),
    ({"action_type": "keyup", "key": "shift"}, KeyUp("shift")),
    ({"action_type": "terminal", "command": "ls -la"}, Terminal("ls -la")),
    ({"action_type": "read_file", "path": "a.txt"}, ReadFile("a.txt")),
    ({"action_type": "write_file", "path": "a.txt", "content": "x"}, WriteFile("a.txt", "x")),
    ({"action_type": "wait"}, Wait()),
    ({"action_type": "wait", "seconds": 2}, Wait(2.0)),
    ({"action_type": "finished", "content": "done"}, Finished("done")),
    ({"action_type": "call_user"}, CallUser()),
])
def test_dict_actions(action, expected):
    assert one(action) == expected


def test_dicts_are_absolute_pixels_whatever_the_text_mode():
    assert one({"action_type": "click", "x": 900, "y": 20}, coords="relative") == Click(900, 20)


def test_mobile_dicts():
    screen = (1080, 2400)
    assert one({"action_type": "tap", "x": 10, "y": 20}, screen, platform="mobile") == Tap(10, 20)
    assert one({"action_type": "long_press", "x": 10, "y": 20, "duration": 2}, screen, platform="mobile") == \
        LongPress(10, 20, 2.0)
    assert one({"action_type": "swipe", "x1": 1, "y1": 2, "x2": 3, "y2": 4}, screen, platform="mobile") == \
        Swipe(1, 2, 3, 4)
    assert one({"action_type": "open_app", "app_name": "Clock"}, screen, platform="mobile") == OpenApp("Clock")


@pytest.mark.parametrize("action, expected", [
    ({"x": 1, "y": 2}, "dict action needs 'action_type', one of click, left_double"),
    ({"action_type": "clack"}, "got 'clack'"),
    ({"action_type": "click", "x": 1}, "click: missing field 'y'; click accepts x, y, coordinate"),
    ({"action_type": "click", "x": 1, "y": 2, "z": 3}, "click: unknown field 'z'; click accepts x, y, coordinate"),
    ({"action_type": "click", "x": 1, "y": 2, "coordinate": [1, 2]}, "field 'x' given twice"),
    ({"action_type": "click", "x": "10", "y": 2}, "'x' and 'y' must both be numbers (pixels), got ('10', 2)"),
    ({"action_type": "click", "x": True, "y": 2}, "must both be numbers"),
    ({"action_type": "click", "coordinate": [1, 2, 3]}, "'coordinate' must be [x, y]"),
    ({"action_type": "type", "text": 5}, "type: 'text' must be a string, got 5; type accepts text, content"),
    ({"action_type": "type"}, "type: missing field 'text'"),
    ({"action_type": "hotkey", "keys": []}, "'keys' must be a list of keys or a string like 'ctrl+c'"),
    ({"action_type": "hotkey", "keys": ["ctrl", "banana"]}, "unknown key 'banana'"),
    ({"action_type": "scroll", "direction": "sideways"}, "scroll needs direction up/down/left/right, got 'sideways'"),
    ({"action_type": "scroll", "direction": "up", "amount": 0}, "'amount' must be an int from 1 to 100"),
    ({"action_type": "mouse_down", "button": "thumb"}, "needs button left/right/middle"),
    ({"action_type": "mouse_down", "x": 5}, "'x' and 'y' must both be numbers"),
    ({"action_type": "wait", "seconds": -1}, "'seconds' must be a number of seconds >= 0"),
    ({"action_type": "press_home", "x": 1}, "press_home: unknown field 'x'; press_home accepts no fields"),
    ({"action_type": "keydown", "keys": ["a"]}, "keydown: unknown field 'keys'; keydown accepts key"),
])
def test_dict_errors_list_accepted_fields(action, expected):
    assert expected in error_of(action, platform="mobile")


# --- forms and dispatch --------------------------------------------------------------
def test_lists_are_concatenated_and_actions_pass_through():
    mixed = [Click(1, 2), {"action_type": "wait"}, "pyautogui.press('enter')",
             "Action: type(content='x')\n\nhotkey(key='ctrl s')"]
    assert parse_action(mixed, HD) == [Click(1, 2), Wait(), Hotkey(("enter",)), TypeText("x"),
                                       Hotkey(("ctrl", "s"))]


def test_list_errors_say_which_item():
    assert error_of([{"action_type": "wait"}, {"action_type": "clack"}]).startswith("item 1: ")


@pytest.mark.parametrize("action", ["", "   \n ", None, 5, 3.2, True, b"pyautogui.click(1, 2)", [], "hello there"])
def test_non_actions_are_refused_with_the_accepted_forms(action):
    message = error_of(action)
    assert "UI-TARS text" in message and "pyautogui code" in message and "dict" in message


def test_codec_keeps_its_configuration():
    codec = Codec((1080, 2400), coords="relative", platform="mobile")
    assert codec.parse("Action: click(point='<point>500 500</point>')") == [Tap(540, 1200)]
    assert codec.parse("pyautogui.click(500, 500)") == [Click(540, 1200)]     # coords= applies to code too
    assert Codec((1080, 2400)).parse("pyautogui.click(500, 500)") == [Click(500, 500)]


def test_public_api():
    for name in ("ActionError", "parse_action", "Codec", "CoordMode", "normalize_key", "smart_resize",
                 "Click", "Swipe", "Terminal", "WriteFile", "CallUser"):
        assert name in actions_pkg.__all__ and hasattr(actions_pkg, name)
    assert issubclass(ActionError, ValueError)


# --- keys ----------------------------------------------------------------------
@pytest.mark.parametrize("alias, key", [
    ("control", "ctrl"), ("ctl", "ctrl"), ("CTRL", "ctrl"), ("ctrlleft", "ctrl"), ("ctrlright", "ctrl"),
    ("Control_L", "ctrl"), ("shiftleft", "shift"), ("shift_r", "shift"), ("altleft", "alt"), ("option", "alt"),
    ("return", "enter"), ("Return", "enter"), ("\n", "enter"), ("escape", "esc"), ("Escape", "esc"),
    ("arrowleft", "left"), ("ArrowLeft", "left"), ("ArrowUp", "up"), ("arrowdown", "down"), ("arrowright", "right"),
    ("cmd", "super"), ("command", "super"), ("win", "super"), ("meta", "super"), ("windows", "super"),
    ("winleft", "super"), ("Super_L", "super"), ("del", "delete"), ("Delete", "delete"),
    ("pgup", "pageup"), ("page_up", "pageup"), ("Prior", "pageup"), ("PageUp", "pageup"),
    ("pgdn", "pagedown"), ("page_down", "pagedown"), ("next", "pagedown"), ("Page Down", "pagedown"),
    ("bksp", "backspace"), ("BackSpace", "backspace"), ("caps_lock", "capslock"), ("prtsc", "printscreen"),
    ("apps", "menu"), ("F5", "f5"), ("f24", "f24"), (" ", "space"), ("Space", "space"), ("\t", "tab"),
    ("A", "a"), ("1", "1"), ("/", "/"), ("+", "+"), ("é", "é"),
])
def test_key_aliases(alias, key):
    assert normalize_key(alias) == key


def test_every_named_key_is_canonical():
    assert {normalize_key(k) for k in NAMED_KEYS} == NAMED_KEYS
    assert {f"f{i}" for i in range(1, 25)} <= NAMED_KEYS


@pytest.mark.parametrize("bad", ["banana", "f25", "ctrl+c", "", "  ", None, 5])
def test_unknown_keys_are_refused_with_the_accepted_names(bad):
    with pytest.raises(ActionError, match="a single character, or one of|a key must be a string"):
        normalize_key(bad)


@pytest.mark.parametrize("written, keys", [
    ("ctrl c", ("ctrl", "c")), ("ctrl+c", ("ctrl", "c")), ("Ctrl + Shift + T", ("ctrl", "shift", "t")),
    ("ctrl++", ("ctrl", "+")), ("ctrl shift =", ("ctrl", "shift", "=")), ("alt f4", ("alt", "f4")),
    ("cmd+space", ("super", "space")), (" ", ("space",)), ("+", ("+",)), ("enter", ("enter",)),
])
def test_split_hotkey(written, keys):
    assert split_hotkey(written) == keys


@pytest.mark.parametrize("bad", ["ctrl+", "+c", "", "ctrl banana"])
def test_split_hotkey_refuses_broken_combinations(bad):
    with pytest.raises(ActionError):
        split_hotkey(bad)


# --- limits ------------------------------------------------------------------------
BIG = "1" + "0" * 400


@pytest.mark.parametrize("action, expected", [
    (f"pyautogui.click({BIG}, 5)", "click(): x=<a 401-digit int> is outside the screen"),
    (f"pyautogui.click(-{BIG}, 5)", "x=<a -401-digit int> is outside the screen"),
    ("pyautogui.click(1" + "0" * 5000 + ", 5)", "a number is too long (more than 4300 digits)"),
    ({"action_type": "click", "x": 10**400, "y": 5}, "click: x=<a 401-digit int> is outside the screen"),
    ({"action_type": "click", "x": -10**400, "y": 5}, "x=<a -401-digit int> is outside the screen"),
    ({"action_type": "click", "coordinate": [5, 10**5000]}, "y=<a 5001-digit int> is outside the screen"),
    ({"action_type": "click", "x": 1e308, "y": 5}, "x=1e+308 is outside the screen"),
    ({"action_type": "click", "x": float("inf"), "y": 5}, "x=inf is outside the screen"),
    ({"action_type": "click", "x": float("-inf"), "y": 5}, "x=-inf is outside the screen"),
    ({"action_type": "click", "x": float("nan"), "y": 5}, "x=nan is not a number"),
    ({"action_type": "click", "x": False, "y": 5}, "must both be numbers"),
    ({"action_type": "drag", "x1": 1, "y1": 1, "x2": 10**400, "y2": 1}, "x=<a 401-digit int> is outside"),
    ("pyautogui.click(True, 5)", "click() needs 2 numbers"),
    ("pyautogui.click(float('inf'), 5)", "(Call) is not a literal"),
    ("pyautogui.click(1e308, 5)", "x=1e+308 is outside the screen"),
    ("pyautogui.moveTo(10, 10)\npyautogui.drag(1e308, 1e308)", "drag() needs numbers xOffset, yOffset that keep "
                                                                "the pointer on the screen, got 1e+308, 1e+308"),
    (f"pyautogui.moveTo(4.9e-324, 0)\npyautogui.drag({BIG}, 1)", "got <a 401-digit int>, 1"),
    ("pyautogui.moveTo(10, 10)\npyautogui.drag(5000, 0)", "x=5010 is outside the screen"),
    (f"Action: click(point='<point>{BIG} 5</point>')", "x=inf is outside the screen"),
    (f"Action: click(start_box='({BIG},5)')", "x=inf is outside the screen"),
    (f"Action: click(start_box='(5,5,{BIG},5)')", "x=inf is outside the screen"),
    ("Action: click(start_box='(-1e308,5)')", "got '(-1e308,5)'"),
    (f"pyautogui.scroll({BIG})", "clicks within ±100, got <a 401-digit int>"),
    ({"action_type": "scroll", "direction": "up", "amount": 10**400}, "'amount' must be an int from 1 to 100"),
    ({"action_type": "scroll", "direction": "up", "amount": True}, "'amount' must be an int from 1 to 100"),
    (f"pyautogui.press('a', presses={BIG})", "presses to be an int from 1 to 100, got <a 401-digit int>"),
    (f"pyautogui.click(1, 2, clicks={BIG})", "clicks to be an int from 1 to 100"),
    (f"pyautogui.press('a', interval={BIG})", "interval= (ignored here: actions take their own time) must be a "
                                              "number of seconds >= 0 and at most 30"),
    ("pyautogui.click(1, 2, interval=-1)", "interval= (ignored here"),
    ("pyautogui.moveTo(1, 2, duration=1e308)", "duration= (ignored here"),
    ("pyautogui.moveTo(1, 2, duration=True)", "duration= (ignored here"),
    ("time.sleep(1e308)", "sleep() needs a number of seconds >= 0 and at most 30"),
    (f"time.sleep({BIG})", "got <a 401-digit int>"),
    ({"action_type": "wait", "seconds": 10**400}, "wait: 'seconds' must be a number of seconds >= 0 and at most 30"),
    ({"action_type": "wait", "seconds": float("nan")}, "'seconds' must be a number of seconds"),
    ({"action_type": "wait", "seconds": True}, "'seconds' must be a number of seconds"),
    ({"action_type": "long_press", "x": 1, "y": 1, "duration": 1e308}, "'duration' must be a number of seconds"),
])
def test_huge_and_non_finite_numbers_are_refused(action, expected):
    assert expected in error_of(action, platform="mobile")


@pytest.mark.parametrize("action, expected", [
    ([{"action_type": "wait", "seconds": 0}] * 201, "item 200: the list makes more than 200 actions; at most 200"),
    ("time.sleep(0)\n" * 5000, "line 201: the code makes more than 200 actions"),
    ("Action: " + "wait()\n\n" * 201, "UI-TARS text has more than 200 calls"),
    ("pyautogui.press('a', presses=100)\n" * 3, "more than 200 actions"),
    ("time.sleep(10)\n" * 4, "the step waits 40 s in all (wait/sleep and long presses); at most 30 s per step"),
    ([{"action_type": "wait", "seconds": 10}] * 5000, "more than 200 actions"),
    ([{"action_type": "wait", "seconds": 10}] * 4, "the step waits 40 s in all"),
    ("Action: " + "wait()\n\n" * 7, "the step waits 35 s in all"),
    ({"action_type": "type", "text": "a" * 10_001}, "type(): text is 10001 characters long; at most 10000"),
    ([{"action_type": "type", "text": "a" * 6000}] * 2, "type() of 12000 characters in one step; at most 10000"),
    ({"action_type": "type", "text": "中" * 1000}, "the step would take about 42 s: 0 s of waits and long presses "
                                                   "and 42.0 s to type 1000 characters"),
    ([{"action_type": "wait", "seconds": 25}, {"action_type": "type", "text": "a" * 5000}],
     "the step would take about 35 s"),
    ({"action_type": "hotkey", "keys": ["a"] * 50}, "hotkey() presses 50 keys together; at most 8"),
    ({"action_type": "hotkey", "keys": "a+" * 49 + "a"}, "hotkey() presses 50 keys together"),
    ("pyautogui.hotkey(" + ", ".join(["'shift'"] * 50) + ")", "hotkey() presses 50 keys together"),
    ("Action: hotkey(key='" + "a " * 9 + "')", "hotkey() presses 9 keys together"),
    ([Hotkey(("a",) * 9)], "hotkey() presses 9 keys together"),
])
def test_step_limits_are_refused(action, expected):
    assert expected in error_of(action)


def test_steps_at_the_limits_are_accepted():
    assert len(parse_action([{"action_type": "wait", "seconds": 0}] * 200, HD)) == 200
    assert parse_action("time.sleep(10)\n" * 3, HD) == [Wait(10.0)] * 3
    assert parse_action({"action_type": "type", "text": "a" * 10_000}, HD) == [TypeText("a" * 10_000)]
    assert one({"action_type": "hotkey", "keys": ["ctrl", "shift", "alt", "super", "a", "b", "c", "d"]}).keys[-1] == "d"
    assert one("pyautogui.click(1, 2, clicks=2, interval=30, duration=0)") == DoubleClick(1, 2)


MIB = 1 << 20


@pytest.mark.parametrize("action, expected", [
    ({"action_type": "terminal", "command": "x" * (16 * 1024 + 1)}, "terminal(): command is 16385 characters "
                                                                     "long; at most 16384 bytes are accepted"),
    ({"action_type": "terminal", "command": "é" * 8193}, "terminal(): command is 16386 bytes in UTF-8; at most 16384"),
    ({"action_type": "terminal", "command": "y" * 200_000}, "at most 16384 bytes"),
    ({"action_type": "terminal", "command": "echo a\x00b"}, "terminal(): command holds a NUL character"),
    ({"action_type": "write_file", "path": "a.txt", "content": "x" * (MIB + 1)}, "content is 1048577 characters "
                                                                                  "long; at most 1048576 bytes"),
    ({"action_type": "write_file", "path": "a.txt", "content": "é" * (MIB // 2 + 1)}, "1048578 bytes in UTF-8"),
    ({"action_type": "read_file", "path": "a" * 4097}, "read_file(): path is 4097 characters long; at most 4096"),
    ({"action_type": "read_file", "path": "é" * 2049}, "path is 4098 bytes in UTF-8; at most 4096"),
    ({"action_type": "read_file", "path": "a\x00b"}, "read_file(): path holds a NUL character"),
    ({"action_type": "read_file", "path": ""}, "read_file(): path is empty"),
    ({"action_type": "write_file", "path": "  ", "content": ""}, "write_file(): path is empty"),
    ({"action_type": "finished", "content": "a" * 4097}, "finished(): content is 4097 characters long; at most 4096"),
    ({"action_type": "call_user", "content": "a" * 4097}, "call_user(): content is 4097 characters"),
    ("Action: finished(content='" + "a" * 5000 + "')", "at most 4096 characters"),
    ("Action: terminal(command='" + "a" * 20000 + "')", "at most 16384 bytes"),
    ("pyautogui.write('" + "a" * 20000 + "')", "at most 10000 characters"),
    ({"action_type": "keydown", "key": "a" * 100_000}, "unknown key 'aaaaaaaaaaaa"),
])
def test_text_caps_are_refused(action, expected):
    message = error_of(action)
    assert expected in message and len(message) < 1000


def test_texts_at_their_caps_are_accepted():
    assert one({"action_type": "terminal", "command": "x" * 16 * 1024}) == Terminal("x" * 16 * 1024)
    assert one({"action_type": "write_file", "path": "a.txt", "content": "x" * MIB}).content == "x" * MIB
    assert one({"action_type": "read_file", "path": "a/" * 2047 + "bc"}) == ReadFile("a/" * 2047 + "bc")
    assert one({"action_type": "finished", "content": "a" * 4096}) == Finished("a" * 4096)
    assert one({"action_type": "open_app", "app_name": "x" * 256}, platform="mobile") == OpenApp("x" * 256)
    assert "app_name is 257 characters long; at most 256" in error_of(
        {"action_type": "open_app", "app_name": "x" * 257}, platform="mobile")


@pytest.mark.parametrize("action, field", [
    ({"action_type": "type", "text": "a\udc80"}, "type(): text"),
    ("Action: type(content='a\udc80')", "type(): text"),
    ("pyautogui.write('a\udc80')", "pyautogui code cannot be read"),
    ({"action_type": "terminal", "command": "echo \ud800"}, "terminal(): command"),
    ("Action: terminal(command='echo \udfff')", "terminal(): command"),
    ({"action_type": "read_file", "path": "\udc80.txt"}, "read_file(): path"),
    ({"action_type": "write_file", "path": "a.txt", "content": "\udc80"}, "write_file(): content"),
    ({"action_type": "finished", "content": "done \udc80"}, "finished(): content"),
    ({"action_type": "open_app", "app_name": "\udc80"}, "open_app(): app_name"),
])
def test_text_that_is_not_utf8_is_refused(action, field):
    message = error_of(action, platform="mobile")
    assert message.startswith(field)
    assert "lone surrogate" in message or "surrogates not allowed" in message


@pytest.mark.parametrize("action, expected", [
    ("pyautogui.click(" + "(" * 49_000 + ")" * 49_000 + ")", "too many nested parentheses"),
    ("pyautogui.click(" + "[" * 49_000 + "]" * 49_000 + ")", "too many nested parentheses"),
    ("pyautogui.click(" + "(" * 100_000 + ")" * 100_000 + ")", "at most 100000 are read"),
    ("pyautogui.click(" + "-" * 90_000 + "1, 2)", "nested too deeply"),
    (nested_list(10_000, {"action_type": "wait"}), "actions are nested in lists more than 8 deep"),
    (nested_list(7, {"action_type": "wait"}), None),
    (nested_dict(10_000), "type: 'text' must be a string, got {'text': {'text': {'text': {...}}}}"),
    ({"action_type": "click", "x": nested_list(10_000, 1), "y": 1},
     "must both be numbers (pixels), got ([[[...]]], 1)"),
    (["pyautogui.click(1, 2)\n" + "'comment'\n" * 4000] * 3, "item 2: the list's action texts are 120066 "
                                                              "characters or more in all; at most 100000 are read"),
])
def test_deep_nesting_is_refused(action, expected):
    if expected is None:
        assert parse_action(action, HD) == [Wait()]
    else:
        assert expected in error_of(action)


def test_self_referential_and_odd_objects_are_refused():
    loop: list = []
    loop.append(loop)
    assert "nested in lists more than 8 deep" in error_of(loop)

    class BadRepr:
        def __repr__(self):
            raise RuntimeError("no repr")

    assert "cannot read an action from BadRepr <BadRepr instance" in error_of(BadRepr())
    assert "'text' must be a string, got <BadRepr instance" in error_of({"action_type": "type", "text": BadRepr()})
    assert "dict action keys must be field names (strings), got <BadRepr" in error_of({"action_type": "wait",
                                                                                        BadRepr(): 1})
    assert "dict action has 10001 keys" in error_of({f"k{i}": i for i in range(10_001)})


@pytest.mark.parametrize("action, expected", [
    (Click("a", 1), "click(): x must be an int pixel from 0 to 1919 (screen 1920x1080), got 'a'"),
    (Click(1920, 1), "x must be an int pixel from 0 to 1919"),
    (Click(10**400, 1), "got <a 401-digit int>"),
    (Click(True, 1), "got True"),
    (Click(1.5, 1), "got 1.5"),
    (Drag(0, 0, 5, -1), "drag(): y2 must be an int pixel from 0 to 1079"),
    (MouseDown(button="thumb"), "mouse_down(): button must be left/right/middle"),
    (Scroll("sideways"), "scroll(): direction must be up/down/left/right"),
    (Scroll("up", amount=0), "scroll(): amount must be an int from 1 to 100"),
    (TypeText(None), "type(): text must be a string, got None"),
    (Hotkey(("banana",)), "unknown key 'banana'"),
    (Hotkey(("Control", "c")), "hotkey(): key 'Control' is not a canonical key name; use 'ctrl'"),
    (Hotkey(["ctrl", "c"]), "hotkey(): keys must be a non-empty tuple of key names"),
    (Hotkey(()), "keys must be a non-empty tuple"),
    (KeyDown("ctrl+c"), "unknown key 'ctrl+c'"),
    (Wait(float("nan")), "wait(): seconds must be a number of seconds >= 0"),
    (Wait(31.0), "at most 30"),
    (Terminal(b"ls"), "terminal(): command must be a string, got b'ls'"),
])
def test_actions_passed_as_they_are_are_checked(action, expected):
    assert expected in error_of(action)


def test_key_whose_lower_case_is_two_characters_stays_one_key():
    assert normalize_key("İ") == "İ" and "İ".lower() != "İ"
    assert one({"action_type": "hotkey", "keys": ["İ"]}) == Hotkey(("İ",))


@pytest.mark.parametrize("action", [
    {"action_type": "type", "text": 10**5000}, {"action_type": "clack" * 100_000}, "a" * 99_000,
    {"action_type": "click", "coordinate": ["x" * 100_000, 1]}, {"action_type": "scroll", "direction": "x" * 10**5},
    "pyautogui.press('" + "x" * 90_000 + "')", "Action: hotkey(key='" + "x" * 90_000 + "')",
    {"action_type": "hotkey", "keys": "x" * 90_000}, {"action_type": "mouse_down", "button": [[["x" * 10**5]]]},
    "Action: click(point='<point>" + "1 " * 40_000 + "</point>')",
])
def test_error_messages_stay_short_whatever_the_input(action):
    assert len(error_of(action)) < 1000


def test_limits_are_public_names():
    for name in actions_pkg.LIMITS:
        assert name in actions_pkg.__all__ and isinstance(getattr(actions_pkg, name), (int, float))


@pytest.mark.parametrize("action", [
    {"action_type": "hotkey", "keys": "a" + " " * 40_000 + "b"},           # was quadratic: 5 s
    "Action: hotkey(key='ctrl" + "\t " * 20_000 + "c')",
    "Action: click(start_box='(1" + "0" * 40_000 + "a,5)')",               # was quadratic: 18 s
    "time.sleep(0)\n" * 6000,                                               # a flood of statements
    "a()\n" * 24_000,
    "pyautogui.click(1, 2);" * 4500,
    "pyautogui.click(" + "1," * 45_000 + ")",
])
def test_long_hostile_texts_are_refused_quickly(action):
    start = time.perf_counter()
    error_of(action)
    assert time.perf_counter() - start < 2.0    # (each takes well under 0.1 s but for the last: ~0.3 s)
