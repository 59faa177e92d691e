"""Fuzzing of the action codec and of `env.step`: random and hostile agent output must give an
ActionError (or a clean step), never an exception, a hang or a sandbox failure.

Three parts, each seeded:
  - parser: inputs through `hybridgym.actions.Codec(...).parse` on both platforms and all
    coordinate modes: mutated UI-TARS text, pyautogui code and Seed/XML-ish tool calls, random
    unicode (surrogates, control characters), huge numbers, deep nesting, random dicts, lists,
    None, bytes, objects, Actions with bad fields, floods at and beyond every limit.
    Counted: crashes (any exception but ActionError), hangs (a parse > 1 s, and still > 1 s
    timed twice again: a parse slow only once is a stall of the busy machine, counted apart),
    error messages longer than 1000 characters, and parse times.
  - game: `env.step` on a game env with the same generator (in its "env" mode: slow valid
    inputs, such as long real waits, are rarer), reset when an episode ends.
  - browser: the same on a browser task that offers the SDK (terminal, read_file, write_file).
    Counted for both envs: crashes (an exception out of step or reset), sandbox failures
    (`info["error"]`: a truncation; grouped by their message, with the actions before them), hangs
    (a step > 20 s beyond the waits it asked for and was granted, within the step's time budget;
    steps > 20 s in all are counted too), and step times.

    .venv/bin/python benchmarks/fuzz_actions.py --parser 120000 --game 20000 --browser 2000 \\
        --out benchmarks/results/fuzz_actions.json
    .venv/bin/python benchmarks/fuzz_actions.py --parser 5000 --game 0 --browser 0   # quick
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import string
import sys
import time
import traceback
from pathlib import Path

from hybridgym.actions import (
    ACTION_TYPES, ActionError, Click, Codec, Drag, Hotkey, KeyDown, LongPress, Scroll, Terminal,
    TypeText, Wait, WriteFile,
)
from hybridgym.actions import model

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from attack_kit import nested_dict, nested_list  # noqa: E402

PARSE_HANG_S = 1.0
STEP_HANG_S = 20.0
MAX_MESSAGE = 1000    # longer error messages are counted (the codec cuts any at 2000)
RETRIES = 2     # a parse over the hang time is timed again this often: a stall of a busy machine is not a hang
SCREENS = [(1280, 800), (800, 600), (720, 1600), (1920, 1080)]
COORDS = [None, "relative", "absolute", "smart_resize"]
PLATFORMS = ("computer", "mobile")


class BadRepr:
    """An object whose repr raises: error messages must not call it unguarded."""

    def __repr__(self) -> str:
        raise RuntimeError("repr of BadRepr")


class Unhashable(list):
    pass


# --- the generator -------------------------------------------------------------
UITARS = [
    "Thought: click it\nAction: click(point='<point>{x} {y}</point>')",
    "Action: click(start_box='({x},{y})')",
    "Action: click(start_box='<|box_start|>({x},{y})<|box_end|>')",
    "Action: left_double(point='<point>{x} {y}</point>')",
    "Action: right_single(start_box='({x},{y},{x2},{y2})')",
    "Action: middle_single(start_box='[{x}, {y}, {x2}, {y2}]')",
    "Action: hover(point='<bbox>{x} {y} {x2} {y2}</bbox>')",
    "Action: drag(start_point='<point>{x} {y}</point>', end_point='<point>{x2} {y2}</point>')",
    "Action: select(start_box='({x},{y})', end_box='({x2},{y2})')",
    "Action: scroll(point='<point>{x} {y}</point>', direction='{dir}')",
    "Action: scroll(direction='{dir}')",
    "Action: type(content='{text}')",
    'Action: type(content="{text}")',
    "Action: hotkey(key='{keys}')",
    "Action: press(key='{key}')",
    "Action: keydown(key='{key}')",
    "Action: keyup(key='{key}')",
    "Action: wait()",
    "Action: finished(content='{text}')",
    "Action: call_user(content='{text}')",
    "Action: long_press(point='<point>{x} {y}</point>')",
    "Action: swipe(start_point='<point>{x} {y}</point>', end_point='<point>{x2} {y2}</point>')",
    "Action: open_app(app_name='{text}')",
    "Action: press_home()",
    "Action: press_back()",
    "Action: mouse_down(point='<point>{x} {y}</point>', button='{button}')",
    "Action: mouse_up(button='{button}')",
    "Action: terminal(command='{cmd}')",
    "Action: read_file(path='{path}')",
    "Action: write_file(path='{path}', content='{text}')",
    "Reflection: again.\nAction_Summary: x\nAction: click(point='<point>{x} {y}</point>')\n\n"
    "hotkey(key='{keys}')\n\ntype(content='{text}')",
]
PYAUTOGUI = [
    "pyautogui.click({x}, {y})",
    "pyautogui.click(x={x}, y={y}, clicks={n}, interval={s}, button='{button}')",
    "pyautogui.click(({x}, {y}))",
    "pyautogui.doubleClick({x}, {y}, interval={s})",
    "pyautogui.rightClick({x}, {y}, duration={s})",
    "pyautogui.middleClick({x}, {y})",
    "pyautogui.moveTo({x}, {y}, duration={s})",
    "pyautogui.moveTo({x}, {y})\npyautogui.dragTo({x2}, {y2}, duration={s})",
    "pyautogui.moveTo({x}, {y})\npyautogui.drag({x2}, {y2})",
    "pyautogui.mouseDown({x}, {y}, button='{button}')\npyautogui.mouseUp()",
    "pyautogui.scroll({n})",
    "pyautogui.scroll({n}, x={x}, y={y})",
    "pyautogui.hscroll({n}, {x}, {y})",
    "pyautogui.write('{text}', interval={s})",
    "pyautogui.typewrite(['{key}', '{key}'])",
    "pyautogui.press('{key}', presses={n}, interval={s})",
    "pyautogui.press(['{key}', '{key}'])",
    "pyautogui.hotkey('{key}', '{key}')",
    "pyautogui.hotkey({keylist})",
    "pyautogui.keyDown('{key}')\npyautogui.keyUp('{key}')",
    "pyautogui.sleep({s})",
    "import time\ntime.sleep({s})",
    "import pyautogui\n'''a comment'''\npyautogui.click({x}, {y})\npyautogui.write('{text}')",
    "Here:\n```python\npyautogui.click({x}, {y})\n```",
    "pyautogui.click({x}, {y}); pyautogui.press('{key}')",
]
XMLISH = [
    "<seed:tool_call><function=click><parameter=point><point>{x} {y}</point></parameter></function>"
    "</seed:tool_call>",
    "<seed:tool_call><function=type><parameter=content>{text}</parameter></function></seed:tool_call>",
    '<tool_call>\n{{"name": "computer_use", "arguments": {{"action": "left_click", "coordinate": [{x}, {y}]}}}}'
    "\n</tool_call>",
    "<function_call>click(x={x}, y={y})</function_call>",
    "<action>hotkey</action><key>{keys}</key>",
    '{{"action_type": "click", "x": {x}, "y": {y}}}',
]
HOSTILE_TEXT = [
    "__import__('os').system('id')", "exec('pyautogui.click(1, 2)')", "pyautogui.click(*__import__('os'))",
    "pyautogui.__class__.__init__.__globals__", "while True:\n    pass", "import os\nos.system('id')",
    "lambda: 0", "pyautogui.write(f'{{1}}')", "pyautogui.click(1, 2", "Action: click(", "Action:",
    "Action: click(point=", "Action: type(content='", "Action: type(content='\\", "Thought:", "Action: )",
    "pyautogui.", "```python\n", "```", "\x00", "\x00pyautogui.click(1, 2)", "pyautogui.click(1, 2)\x00",
    "-" * 5000 + "1", "pyautogui.click(" + "-" * 20000 + "1, 2)", "pyautogui.click(" + "not " * 5000 + "1)",
    "pyautogui.click(" + "a." * 20000 + "b)", "pyautogui.click(" + "(" * 199 + "1" + ")" * 199 + ")",
    "Action: click(start_box='" + "(" * 5000 + "')",
]
TEXTS = ["", "hello", "a" * 100, "it's", "\\", "\\'", "\\n", "line\nbreak", "\r\n", "\t", "é" * 50, "😀" * 20,
         "中文输入" * 25, "\u202eevil", "İstanbul", "\udc80", "a\udc80b", "\ud800\udc00", "\x00", "\x1b[31mred",
         "\x07\x08\x7f", "\ufeff", "\uffff", "\U0010ffff", "%s%n{0}", "${HOME}", "$(id)", "`id`", "'; DROP TABLE"]
KEYS = ["a", "A", "ctrl", "Control", "enter", "Return", "esc", "f5", "f24", "f25", "banana", "", " ", "+", "İ",
        "\udc80", "\x00", "é", "😀", "ctrlleft", "Page_Up", "ctrl+c", "\n", "\t", "shift", "super"]
HOTKEYS = ["ctrl c", "ctrl+shift+t", "alt f4", "ctrl++", "Ctrl + Shift + T", " ", "+", "ctrl+", "ctrl banana",
           "a " * 50, "ctrl " * 8 + "c", "a+" * 30 + "b", "ctrl shift alt super a b c d", "\udc80 c"]
COMMANDS = ["ls", "echo hi", "pwd", "cat /etc/hostname", "true", "false", "ls -la /", "echo $HOME",
            "head -c 200000 /dev/zero | tr '\\0' a", "printf '\\xff\\xfe'", "echo \udc80", "echo \x00",
            "cd /nope", "exit 3", "seq 1 100000"]
PATHS = ["a.txt", "dir/b.txt", "../etc/passwd", "/etc/passwd", "/proc/self/mem", "~/.bashrc", "", " ", ".", "/",
         "dir/", "a" * 300 + ".txt", "a/" * 2047 + "b", "a/" * 2048 + "b", "é" * 2049, "x\x00y", "\udc80.txt",
         "Downloads", "a.txt/b.txt", "\n", "con", "-rf"]
BUTTONS = ["left", "right", "middle", "primary", "secondary", "thumb", "", "LEFT"]
DIRECTIONS = ["up", "down", "left", "right", "sideways", "", "UP"]


def _numbers(screen: tuple[int, int]) -> list[str]:
    w, h = screen
    return ["0", "1", "10", "500", "999", "1000", "1001", str(w - 1), str(w), str(w + 1), str(h - 1), str(h),
            str(h + 1), "-1", "-0", "0.5", "-0.5", "1e308", "-1e308", "1e999", "-1e999", "1e-400", "nan", "inf",
            "-inf", "float('inf')", "float('nan')", "1" + "0" * 400, "-" + "9" * 400, "1" + "0" * 5000,
            "10**400", "2**64", "True", "False", "None", "0x10", "1_000", "1j", "'5'", "[1, 2]", "(1, 2)", "()",
            "[]", "{}", "...", "9" * 30, "1.7976931348623157e308", "4.9e-324"]


def _nested(depth: int) -> list:
    nested: list = []
    cur = nested
    for _ in range(depth):
        cur.append([])
        cur = cur[0]
    return nested


def _dict_values(screen: tuple[int, int]) -> list:
    """Values for dict fields (built once: some are large)."""
    w, h = screen
    return [0, 1, 5, w - 1, w, h - 1, h, -1, 10**400, -10**400, 10**5000, 2**63, 1e308, -1e308,
            float("inf"), float("-inf"), float("nan"), 0.5, True, False, None, "", "a", "10", "ctrl c",
            ["ctrl", "c"], ["a"] * 50, "a" * 10_000, "a" * 10_001, "\udc80", "x\x00y", b"bytes",
            bytearray(b"x"), [1, 2], (1, 2), [1, 2, 3], {"x": 1}, _nested(3), _nested(50), _nested(2000),
            BadRepr(), object(), {1, 2}, 1j, Unhashable([1])]


FIELDS = ["x", "y", "x1", "y1", "x2", "y2", "coordinate", "start_coordinate", "end_coordinate", "button",
          "direction", "amount", "text", "content", "keys", "key", "duration", "seconds", "app_name", "command",
          "path"]


class Generator:
    """Random and hostile agent outputs, reproducible from a seed. `mode="env"` keeps valid but
    slow inputs (long real waits, 10k characters to type) rare, so env steps stay affordable."""

    def __init__(self, seed: int, screen: tuple[int, int], mode: str = "parser"):
        self.rng = random.Random(seed)
        self.screen, self.mode = screen, mode
        self.numbers = _numbers(screen)
        w, h = screen
        self.good_numbers = [str(v) for v in (0, 1, 100, 400, 999, w // 2, h // 2, w - 1, h - 1)]
        self.values = _dict_values(screen) + TEXTS + KEYS + PATHS + COMMANDS + BUTTONS + DIRECTIONS

    # -- pieces ----------------------------------------------------------------
    def number(self) -> str:
        return self.rng.choice(self.good_numbers if self.rng.random() < 0.5 else self.numbers)

    def seconds(self) -> str:
        rng = self.rng
        if self.mode == "env" and rng.random() < 0.97:
            return rng.choice(["0", "0.01", "0.05", "-1", "1e308", "nan", "10**9", "1" + "0" * 400, "31", "True"])
        return rng.choice(["0", "0.1", "1", "5", "10", "29.9", "30", "30.01", "60", "1e308", "-1", "inf", "nan",
                           "1" + "0" * 400, "None", "'1'"])

    def text(self) -> str:
        rng = self.rng
        r = rng.random()
        if r < 0.6:
            return rng.choice(TEXTS)
        if r < 0.85:
            return self.unicode(rng.choice([1, 5, 20, 100]))
        if self.mode == "env" and rng.random() < 0.95:
            return rng.choice(["a" * 300, "b" * 1000, "é" * 200])
        return rng.choice(["a" * 10_000, "a" * 10_001, "中" * 800, "中" * 5000, "x" * 50_000])

    def unicode(self, n: int) -> str:
        rng = self.rng
        out = []
        for _ in range(n):
            r = rng.random()
            if r < 0.4:
                out.append(rng.choice(string.printable))
            elif r < 0.55:
                out.append(chr(rng.randrange(0, 0x20)))
            elif r < 0.65:
                out.append(chr(rng.randrange(0xD800, 0xE000)))       # lone surrogates
            elif r < 0.7:
                out.append(rng.choice("'\"\\()[]<>,=\n"))
            else:
                out.append(chr(rng.randrange(0, 0x110000)))
        return "".join(out)

    def fill(self, template: str) -> str:
        rng = self.rng
        values = {
            "x": self.number(), "y": self.number(), "x2": self.number(), "y2": self.number(),
            "n": rng.choice(["1", "2", "3", "100", "101", "0", "-5", "1" + "0" * 400, "True", "2.5", "None"]),
            "s": self.seconds(), "dir": rng.choice(DIRECTIONS), "button": rng.choice(BUTTONS),
            "text": self.text().replace("'", "\\'") if rng.random() < 0.7 else self.text(),
            "key": rng.choice(KEYS).replace("'", "\\'"), "keys": rng.choice(HOTKEYS),
            "keylist": ", ".join(repr(k) for k in rng.choice([["ctrl", "c"], ["a"] * 50, ["ctrl"] * 9, []])),
            "cmd": rng.choice(COMMANDS).replace("'", "\\'"), "path": rng.choice(PATHS).replace("'", "\\'"),
        }
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return template

    def mutate(self, text: str) -> str:
        rng = self.rng
        chars = list(text)
        for _ in range(rng.choice([1, 1, 2, 3, 8])):
            op = rng.random()
            i = rng.randrange(len(chars) + 1)
            if op < 0.3 and chars:
                del chars[min(i, len(chars) - 1)]
            elif op < 0.6:
                chars.insert(i, self.unicode(1))
            elif op < 0.8:
                chars.insert(i, rng.choice(["'", '"', "(", ")", ",", "\n\n", "=", "<point>", "</point>", "\\",
                                            "Action: ", "pyautogui.", self.number(), "\x00", "\udc80"]))
            elif chars:
                j = rng.randrange(len(chars))
                chars[i:i] = chars[j:j + rng.randrange(1, 40)]      # duplicate a slice
        return "".join(chars)

    def template_text(self) -> str:
        rng = self.rng
        family = rng.choice([UITARS, UITARS, PYAUTOGUI, PYAUTOGUI, XMLISH])
        text = self.fill(rng.choice(family))
        return self.mutate(text) if rng.random() < 0.5 else text

    def action_dict(self) -> dict:
        rng = self.rng
        kind = rng.choice([*ACTION_TYPES, "left_single", "press", "release", "select", "move_to", "clack", None,
                           5, ""])
        d: dict = {"action_type": kind}
        for _ in range(rng.choice([0, 1, 2, 2, 3, 4])):
            field = rng.choice(FIELDS)
            d[field] = rng.choice(self.values) if rng.random() < 0.6 else self._plausible(field)
        if rng.random() < 0.02:
            d[rng.choice([1, None, (1, 2), BadRepr()])] = 1
        if rng.random() < 0.01:
            d.update({f"k{i}": i for i in range(rng.choice([10, 10_000]))})
        return d

    def _plausible(self, field: str):
        rng, (w, h) = self.rng, self.screen
        if field in ("x", "x1", "x2"):
            return rng.choice([0, w - 1, w, rng.randrange(w)])
        if field in ("y", "y1", "y2"):
            return rng.choice([0, h - 1, h, rng.randrange(h)])
        if field.endswith("coordinate"):
            return [rng.randrange(w), rng.randrange(h)]
        if field in ("duration", "seconds"):
            return rng.choice([0, 0.01, 0.5] if self.mode == "env" else [0, 0.5, 5, 30, 31])
        if field == "amount":
            return rng.choice([1, 5, 100, 101])
        return {"button": rng.choice(BUTTONS), "direction": rng.choice(DIRECTIONS), "keys": rng.choice(HOTKEYS),
                "key": rng.choice(KEYS), "command": rng.choice(COMMANDS), "path": rng.choice(PATHS),
                "app_name": self.text()}.get(field, self.text())

    def flood(self):
        """Inputs at and beyond each limit."""
        rng, (w, h) = self.rng, self.screen
        env = self.mode == "env"
        small_wait = 0.001 if env else 10
        options = [
            lambda: "time.sleep(10)\n" * rng.choice([3, 5000]),
            lambda: [{"action_type": "wait", "seconds": small_wait}] * rng.choice([199, 200, 201, 5000]),
            lambda: "Action: " + "wait()\n\n" * rng.choice([6, 7, 300]) if not env else "Action: wait()\n\nwait()",
            lambda: {"action_type": "hotkey", "keys": ["a"] * rng.choice([8, 9, 50])},
            lambda: "pyautogui.hotkey(" + ", ".join(["'shift'"] * 50) + ")",
            lambda: {"action_type": "type", "text": "a" * rng.choice([10_000, 10_001] if not env or rng.random()
                                                                      < 0.05 else [2000, 10_001])},
            lambda: [{"action_type": "type", "text": "a" * 5001}] * 2,
            lambda: {"action_type": "type", "text": "中" * rng.choice([100, 1000, 10_000])},
            lambda: {"action_type": "terminal", "command": "x" * rng.choice([16 * 1024, 16 * 1024 + 1, 200_000])},
            lambda: {"action_type": "terminal", "command": "echo " + "é" * 8190},
            lambda: {"action_type": "write_file", "path": "big.txt",
                     "content": "x" * rng.choice([1 << 20, (1 << 20) + 1, 5 << 20])},
            lambda: {"action_type": "read_file", "path": "a/" * rng.choice([2047, 2048, 5000]) + "b"},
            lambda: {"action_type": "finished", "content": "a" * rng.choice([4096, 4097, 100_000])},
            lambda: {"action_type": "call_user", "content": "\udc80"},
            lambda: {"action_type": "open_app", "app_name": "x" * rng.choice([256, 257, 10**5])},
            lambda: [{"action_type": "click", "x": x, "y": y} for x in (0, w - 1, w) for y in (0, h - 1, h)],
            lambda: [{"action_type": "click", "x": x, "y": y} for x in (-1, w + 1, 10**400, float("nan"))
                     for y in (0, h - 1)],
            lambda: {"action_type": "drag", "x1": w // 2, "y1": h // 2, "x2": rng.choice([w + 100, -100, 10**400]),
                     "y2": h // 2},
            lambda: f"pyautogui.moveTo({w // 2}, {h // 2})\npyautogui.dragTo({w * 5}, {h * 5})",
            lambda: f"pyautogui.moveTo(0, 0)\npyautogui.drag({w - 1}, {h - 1})",
            lambda: "pyautogui.scroll(" + rng.choice(["100", "101", "-100", "1" + "0" * 400]) + ")",
            lambda: {"action_type": "scroll", "direction": "down", "amount": rng.choice([100, 101, 10**400])},
            lambda: "pyautogui.press('a', presses=" + rng.choice(["100", "101", "10**9", "9" * 400]) + ")",
            lambda: "pyautogui.click(1, 2, clicks=" + rng.choice(["100", "101", "9" * 400]) + ")",
            lambda: "pyautogui.click(1, 2, interval=" + rng.choice(["1e308", "9" * 400, "-1"]) + ")",
            lambda: "pyautogui.moveTo(1, 2, duration=" + rng.choice(["1e308", "9" * 400, "inf"]) + ")",
            lambda: [Wait(rng.choice([1e308, float("nan"), -1.0, 31.0]))],
            lambda: [Click(rng.choice(["a", None, 10**400, True, 1.5]), 1)],
            lambda: [TypeText(rng.choice([None, 5, "\udc80", "a" * 10_001]))],
            lambda: [Hotkey(rng.choice([("banana",), (), ("a",) * 9, ["ctrl", "c"], ("Control",)]))],
            lambda: [KeyDown(rng.choice(["shift", "İ", "ctrl+c", None]))],
            lambda: [Scroll(rng.choice(["up", "sideways"]), amount=rng.choice([1, 0, 10**400]))],
            lambda: [Drag(0, 0, w - 1, rng.choice([h - 1, h, -1]))],
            lambda: [LongPress(1, 1, rng.choice([0.5, 31.0, float("inf")]))],
            lambda: [Terminal("\udc80"), WriteFile("x\x00", "y")],
        ]
        return rng.choice(options)()

    def pumped(self) -> str:
        """A valid-looking text with a long run of one piece inserted (slow regular expressions
        show on such runs: a quadratic scan of 40k characters takes seconds)."""
        rng = self.rng
        text = self.fill(rng.choice(UITARS + PYAUTOGUI))
        unit = rng.choice([" ", "\t", "\n", "0", "9", ".", "-", ",", "'", '"', "\\", "(", ")", "[", "<", "+",
                           "a", "_", "1 ", "1,", "a.", "<point>", "\\'", "',", " +", "Action: ", "=", "\r\n"])
        run = unit * (rng.choice([1000, 10_000, 40_000]) // len(unit))
        at = rng.randrange(len(text) + 1)
        return text[:at] + run + rng.choice(["", "x", ")", "'"]) + text[at:]

    def nested(self):
        rng = self.rng
        depth = rng.choice([5, 9, 100, 10_000])
        kind = rng.random()
        if kind < 0.4:
            return nested_list(depth, {"action_type": "wait", "seconds": 0})
        if kind < 0.6:
            return nested_dict(depth)
        if kind < 0.8:
            selfref: list = []
            selfref.append(selfref)
            return selfref
        n = min(depth, 49_000)
        return "pyautogui.click(" + rng.choice(["(", "["]) * n + rng.choice([")", "]"]) * n + ")"

    def other(self):
        rng = self.rng
        return rng.choice([None, 0, 1, -1, 3.5, float("nan"), True, b"pyautogui.click(1, 2)", bytearray(b"x"),
                           object(), BadRepr(), {1, 2}, frozenset(), 1j, (), [], ["", None], Ellipsis, type,
                           ValueError("x"), range(10**9), iter([1]), {"action_type": "wait"}.keys()])

    def __call__(self):
        rng = self.rng
        r = rng.random()
        if r < 0.45:
            return self.template_text()
        if r < 0.52:
            return self.mutate(rng.choice(HOSTILE_TEXT))
        if r < 0.55:
            return self.unicode(rng.choice([0, 1, 10, 200, 3000]))
        if r < 0.58:
            return self.pumped()
        if r < 0.75:
            return self.action_dict()
        if r < 0.83:
            return [self() for _ in range(rng.choice([0, 1, 2, 3, 5]))]
        if r < 0.92:
            return self.flood()
        if r < 0.96:
            return self.nested()
        return self.other()


# --- runs ------------------------------------------------------------------------
def _describe(action: object) -> str:
    try:
        return model.shown(action)[:300]
    except Exception as e:   # the describing itself must not stop the run
        return f"<cannot show: {type(e).__name__}>"


def _summary(times: list[float]) -> dict:
    if not times:
        return {}
    ordered = sorted(times)
    return {"median_ms": round(statistics.median(ordered) * 1000, 3),
            "p99_ms": round(ordered[int(len(ordered) * 0.99) - 1] * 1000, 3) if len(ordered) >= 100 else None,
            "max_ms": round(ordered[-1] * 1000, 1)}


def _timed_parse(codec: Codec, action: object) -> float:
    t = time.perf_counter()
    try:
        codec.parse(action)
    except Exception:
        pass
    return time.perf_counter() - t


def fuzz_parser(n: int, seed: int, hang_s: float = PARSE_HANG_S) -> dict:
    """`n` inputs through Codec.parse, spread over screens, platforms and coordinate modes;
    a parse longer than `hang_s` is a hang."""
    codecs = [Codec(s, c, p) for s in SCREENS for c in COORDS for p in PLATFORMS]
    gens = [Generator(seed * 1000 + i, codec.screen) for i, codec in enumerate(codecs)]
    crashes, hangs, stalls, long_messages, times = [], [], [], [], []
    accepted = refused = 0
    slowest = (0.0, "")
    for i in range(n):
        k = i % len(codecs)
        action = gens[k]()
        t = time.perf_counter()
        try:
            codecs[k].parse(action)
            accepted += 1
        except ActionError as e:
            refused += 1
            if len(str(e)) > MAX_MESSAGE:
                long_messages.append({"input": _describe(action), "length": len(str(e))})
        except Exception as e:
            crashes.append({"input": _describe(action), "codec": repr(codecs[k]),
                            "error": f"{type(e).__name__}: {str(e)[:300]}",
                            "where": traceback.format_exc(limit=-3)[-800:]})
        dt = time.perf_counter() - t
        times.append(dt)
        if dt > slowest[0]:
            slowest = (dt, _describe(action))
        if dt > hang_s:
            again = min(_timed_parse(codecs[k], action) for _ in range(RETRIES))
            record = {"input": _describe(action), "seconds": round(dt, 3), "again_s": round(again, 3)}
            (hangs if again > hang_s else stalls).append(record)
    return {"inputs": n, "seed": seed, "codecs": len(codecs), "accepted": accepted, "refused": refused,
            "crashes": len(crashes), "hangs": len(hangs), "stalls": len(stalls),
            "messages_over_1000": len(long_messages),
            **_summary(times), "slowest_input": slowest[1], "crash_examples": crashes[:10],
            "hang_examples": hangs[:10], "stall_examples": stalls[:10], "long_message_examples": long_messages[:5]}


def fuzz_env(env, n: int, seed: int, label: str, report_every: int = 0) -> dict:
    """`n` steps of hostile actions on `env` (started), resetting when an episode ends."""
    screen = env.unwrapped.screen_size
    gen = Generator(seed, screen, mode="env")
    crashes, sandbox_errors, hangs, times, slow = [], [], [], [], []
    steps = resets = refused = 0
    recent: list[str] = []      # the last accepted actions: what led to a sandbox error
    t_run = time.perf_counter()
    needs_reset = True
    for i in range(n):
        if needs_reset:
            try:
                env.reset(seed=seed + resets)
                resets += 1
                needs_reset = False
            except Exception as e:
                crashes.append({"during": "reset", "error": f"{type(e).__name__}: {str(e)[:300]}"})
                continue
        action = gen()
        t = time.perf_counter()
        try:
            _, _, term, trunc, info = env.step(action)
        except Exception as e:
            crashes.append({"during": "step", "input": _describe(action),
                            "error": f"{type(e).__name__}: {str(e)[:300]}",
                            "where": traceback.format_exc(limit=-3)[-800:]})
            print(f"[{label}] step {i}: crash {crashes[-1]}", flush=True)
            needs_reset = True
            continue
        dt = time.perf_counter() - t
        steps += 1
        times.append(dt)
        refused += info.get("action_error") is not None
        if info.get("actions"):
            recent = (recent + [_describe(info["actions"])[:200]])[-6:]
        if "error" in info:
            sandbox_errors.append({"input": _describe(action), "error": str(info["error"])[:300],
                                   "after": recent[:-1] if info.get("actions") else recent})
            print(f"[{label}] step {i}: sandbox error {sandbox_errors[-1]}", flush=True)
        waits = sum(a.get("seconds", 0) + a.get("duration", 0) * (a["action_type"] == "long_press")
                    for a in info.get("actions", []) if a["action_type"] in ("wait", "long_press"))
        granted = min(waits, model.MAX_STEP_SECONDS)
        if dt > STEP_HANG_S:
            slow.append({"input": _describe(action), "seconds": round(dt, 2), "waits_asked": granted,
                         "action_error": str(info.get("action_error"))[:200]})
        if dt - granted > STEP_HANG_S:
            hangs.append(slow[-1])
        if term or trunc:
            needs_reset = True
        if report_every and (i + 1) % report_every == 0:
            print(f"[{label}] {i + 1}/{n} steps, {len(crashes)} crashes, {len(sandbox_errors)} sandbox errors, "
                  f"{len(hangs)} hangs, {time.perf_counter() - t_run:.0f} s", flush=True)
    return {"env": label, "steps": steps, "seed": seed, "resets": resets, "refused_steps": refused,
            "crashes": len(crashes), "sandbox_errors": len(sandbox_errors), "hangs": len(hangs),
            "steps_over_20s": len(slow), **_summary(times), "wall_s": round(time.perf_counter() - t_run, 1),
            "sandbox_error_kinds": _kinds(sandbox_errors),
            "crash_examples": crashes[:10], "sandbox_error_examples": sandbox_errors[:10],
            "slow_examples": slow[:10]}


def _kinds(errors: list[dict]) -> dict[str, int]:
    """Sandbox errors counted by the start of their message."""
    kinds: dict[str, int] = {}
    for e in errors:
        key = e["error"][:70]
        kinds[key] = kinds.get(key, 0) + 1
    return dict(sorted(kinds.items(), key=lambda kv: -kv[1]))


def _run_env(kind: str, task: str, n: int, seed: int, report_every: int) -> dict:
    if kind == "game":
        from hybridgym.game import GameEnv as Env
    else:
        from hybridgym.browser import BrowserEnv as Env
    env = Env(task=task, max_steps=10**6)
    try:
        return {"task": task, **fuzz_env(env, n, seed, f"{kind}:{task}", report_every)}
    finally:
        env.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--parser", type=int, default=100_000, help="parser inputs (0: skip)")
    p.add_argument("--game", type=int, default=20_000, help="game env steps (0: skip)")
    p.add_argument("--browser", type=int, default=2_000, help="browser env steps (0: skip)")
    p.add_argument("--game-task", default="game.2048-v0")
    p.add_argument("--browser-task", default="browser.files-csv-total-sdk-v1")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--report-every", type=int, default=1000, help="progress line every N env steps")
    p.add_argument("--out", help="write the results as JSON here (e.g. benchmarks/results/fuzz_actions.json)")
    args = p.parse_args()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    results: dict = {"command": " ".join(["python", *sys.argv]), "machine": platform.machine(),
                     "cpus": os.cpu_count(), "python": platform.python_version(),
                     "limits": {k: getattr(model, k) for k in dir(model) if k.startswith(("MAX_", "TYPE_"))}}
    if args.parser:
        t = time.perf_counter()
        results["parser"] = fuzz_parser(args.parser, args.seed)
        results["parser"]["wall_s"] = round(time.perf_counter() - t, 1)
        r = results["parser"]
        print(f"parser: {r['inputs']} inputs, {r['crashes']} crashes, {r['hangs']} hangs ({r['stalls']} stalls), "
              f"median {r['median_ms']} ms, max {r['max_ms']} ms ({r['slowest_input'][:80]}), {r['accepted']} "
              f"accepted", flush=True)
    for kind, n, task in (("game", args.game, args.game_task), ("browser", args.browser, args.browser_task)):
        if n:
            results[kind] = r = _run_env(kind, task, n, args.seed, args.report_every)
            print(f"{kind}: {r['steps']} steps on {task}, {r['crashes']} crashes, {r['sandbox_errors']} sandbox "
                  f"errors, {r['hangs']} hangs ({r['steps_over_20s']} steps > 20 s in all), median "
                  f"{r['median_ms']} ms, max {r['max_ms']} ms, {r['resets']} resets", flush=True)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(results, indent=2, default=repr) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
