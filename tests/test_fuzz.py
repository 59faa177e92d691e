"""Hostile agent output through the codec and through `env.step` on a real game env: every
attack ends as an ActionError in `info["action_error"]` (or a clean step), never an exception,
a hang or a sandbox failure, and the env keeps working. The generator is the one of
`benchmarks/fuzz_actions.py` (whose full runs give the figures); here a seeded sample.
"""

from __future__ import annotations

import errno
import importlib.util
import os
from pathlib import Path

import pytest

from hybridgym import core
from hybridgym.game import GameEnv

from .attack_kit import nested_dict, nested_list

_SPEC = importlib.util.spec_from_file_location(
    "fuzz_actions", Path(__file__).resolve().parents[1] / "benchmarks" / "fuzz_actions.py")
fuzz = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(fuzz)

BIG = "9" * 400
VALID = "pyautogui.press('left')"


# (attack, what its ActionError says), items 1-4 of issue 14
ATTACKS = {
    "huge int in code": (f"pyautogui.click(1{BIG}, 5)", "x=<a 401-digit int> is outside the screen"),
    "huge int in a dict": ({"action_type": "click", "x": 10**400, "y": 5}, "is outside the screen"),
    "huge negative int": ({"action_type": "click", "x": -10**400, "y": 5}, "x=<a -401-digit int> is outside"),
    "1e308": ({"action_type": "click", "x": 5, "y": 1e308}, "y=1e+308 is outside the screen"),
    "inf": ({"action_type": "click", "x": float("inf"), "y": 5}, "x=inf is outside the screen"),
    "nan": ({"action_type": "click", "x": float("nan"), "y": 5}, "x=nan is not a number"),
    "float('inf') text": ("pyautogui.click(float('inf'), 5)", "(Call) is not a literal"),
    "bool as number": ({"action_type": "click", "x": True, "y": 5}, "must both be numbers"),
    "huge <point>": (f"Action: click(point='<point>1{BIG} 5</point>')", "x=inf is outside the screen"),
    "huge (x,y)": (f"Action: click(start_box='(5,-{BIG})')", "y=-inf is outside the screen"),
    "huge scroll": (f"pyautogui.scroll({BIG})", "clicks within ±100"),
    "huge wait": ("time.sleep(1e308)", "sleep() needs a number of seconds >= 0 and at most 30"),
    "huge presses": (f"pyautogui.press('a', presses={BIG})", "presses to be an int from 1 to 100"),
    "huge clicks": (f"pyautogui.click(1, 2, clicks={BIG})", "clicks to be an int from 1 to 100"),
    "huge interval": (f"pyautogui.press('a', interval={BIG})", "interval= (ignored here"),
    "huge duration": ("pyautogui.moveTo(1, 2, duration=1e308)", "duration= (ignored here"),
    "sleep flood": ("time.sleep(10)\n" * 5000, "the code makes more than 200 actions"),
    "wait dict flood": ([{"action_type": "wait", "seconds": 10}] * 5000, "more than 200 actions"),
    "waits over 30 s": ([{"action_type": "wait", "seconds": 10}] * 4, "the step waits 40 s in all"),
    "typing 10001": ({"action_type": "type", "text": "a" * 10_001}, "at most 10000 characters"),
    "typing too slow": ({"action_type": "type", "text": "中" * 1000}, "the step would take about 42 s"),
    "hotkey of 50": ({"action_type": "hotkey", "keys": ["a"] * 50}, "hotkey() presses 50 keys together"),
    "command 200k": ({"action_type": "terminal", "command": "x" * 200_000}, "at most 16384 bytes"),
    "file 2 MiB": ({"action_type": "write_file", "path": "a", "content": "x" * (2 << 20)}, "at most 1048576 bytes"),
    "path 5000": ({"action_type": "read_file", "path": "a" * 5000}, "at most 4096 bytes"),
    "path NUL": ({"action_type": "read_file", "path": "a\x00b"}, "holds a NUL character"),
    "answer 5000": ({"action_type": "finished", "content": "a" * 5000}, "at most 4096 characters"),
    "surrogate typed": ({"action_type": "type", "text": "a\udc80"}, "a lone surrogate"),
    "surrogate path": ({"action_type": "read_file", "path": "\udc80"}, "a lone surrogate"),
    "surrogate command": ("Action: terminal(command='echo \udc80')", "a lone surrogate"),
    "nested parens": ("pyautogui.click(" + "(" * 49_000 + ")" * 49_000 + ")", "too many nested parentheses"),
    "unary nesting": ("pyautogui.click(" + "-" * 90_000 + "1, 2)", "nested too deeply"),
    "nested list": (nested_list(10_000, {"action_type": "wait", "seconds": 0}), "nested in lists more than 8 deep"),
    "nested dict": (nested_dict(10_000), "'text' must be a string"),
    "null byte": ("pyautogui.click(1, 2)\x00", "null bytes"),
}


@pytest.fixture(scope="module")
def env():
    e = GameEnv(task="game.2048-v0", max_steps=10**6)
    e.reset(seed=0)
    yield e
    e.close()


def ready(env: GameEnv) -> GameEnv:
    if env._done:
        env.reset(seed=0)
    return env


def assert_works(env: GameEnv) -> None:
    _, _, terminated, truncated, info = env.step(VALID)
    assert info["action_error"] is None and "error" not in info and not truncated


def test_parser_sample_never_crashes_or_hangs():
    # (the benchmark's hang is a parse > 1 s; the suite shares a busy machine: 5 s here)
    result = fuzz.fuzz_parser(3000, seed=14, hang_s=5.0)
    assert result["crashes"] == 0, result["crash_examples"]
    assert result["hangs"] == 0, result["hang_examples"]
    assert result["messages_over_1000"] == 0, result["long_message_examples"]
    assert result["accepted"] > 100 and result["refused"] > 1000


def release_everything(env: GameEnv) -> None:
    """Release the keys and buttons random actions may have left held: a key held over a reset
    (keyDown('shift')) makes every later step of the game a sandbox error (the page no longer
    sees the observer's input sentinel); the reset does not release them yet."""
    ready(env).step([{"action_type": "keyup", "key": k} for k in ("shift", "ctrl", "alt", "super")]
                    + [{"action_type": "mouse_up", "button": b} for b in ("left", "right", "middle")])


def test_hostile_game_steps_never_crash_or_fail_the_sandbox(env):
    result = fuzz.fuzz_env(ready(env), 150, seed=14, label="game")
    release_everything(env)
    assert result["crashes"] == 0, result["crash_examples"]
    assert result["sandbox_errors"] == 0, result["sandbox_error_examples"]
    assert result["hangs"] == 0 and result["steps"] == 150
    ready(env)
    assert_works(env)


@pytest.mark.parametrize("name", ATTACKS)
def test_each_attack_is_a_clear_action_error_and_the_env_goes_on(env, name):
    action, expected = ATTACKS[name]
    obs, reward, terminated, truncated, info = ready(env).step(action)
    assert expected in (info["action_error"] or ""), info["action_error"]
    assert obs["action_error"] == info["action_error"][:4096] and len(info["action_error"]) < 1000
    assert not terminated and not truncated and "error" not in info and info["actions"] == []
    assert_works(env)


def test_the_time_budget_refuses_the_rest_of_the_step(env):
    # the game's waits are game time: 30 s of them take a fraction of a second
    _, _, _, truncated, info = ready(env).step("time.sleep(10)\n" * 3 + VALID)
    assert "the step's time budget of 30 s is spent" in info["action_error"]
    assert "1 remaining action(s) not performed: hotkey" in info["action_error"]
    assert not truncated and "error" not in info
    assert_works(env)


def test_long_typing_stops_when_the_budget_runs_out(env, monkeypatch):
    monkeypatch.setattr(core, "STEP_SECONDS", 0.05)    # typing slower than the codec's estimate
    _, _, _, truncated, info = ready(env).step([{"action_type": "type", "text": "a" * 3000}, VALID])
    error = info["action_error"]
    assert "type(): the step's time budget of 0.05 s ran out after" in error and "of 3000 characters" in error
    assert "1 remaining action(s) not performed: hotkey" in error
    assert not truncated and "error" not in info
    monkeypatch.undo()
    assert_works(env)


@pytest.fixture
def sdk_env(env, monkeypatch):
    """The game env with its task offering the SDK (the sandbox has a workspace and a shell)."""
    ready(env)
    monkeypatch.setattr(type(env.episode.task), "sdk", True)
    return env


def test_sdk_errors_caused_by_the_agent_are_action_errors(sdk_env):
    env, root = sdk_env, Path(sdk_env.sandbox.workspace.root)
    os.symlink("loop", root / "loop")
    (root / "d").mkdir()
    (root / "f").write_text("x")
    cases = [
        ({"action_type": "write_file", "path": "n" * 300, "content": "x"}, "write_file('nnnnnnnn"),
        ({"action_type": "write_file", "path": "n" * 300, "content": "x"}, "a name in the path is too long"),
        ({"action_type": "write_file", "path": "d", "content": "x"}, "write_file('d'): it is a folder, not a file"),
        ({"action_type": "write_file", "path": "f/g", "content": "x"}, "write_file('f/g'): "),
        ({"action_type": "write_file", "path": "loop", "content": "x"}, "symlink"),
        ({"action_type": "read_file", "path": "nope.txt"}, "read_file('nope.txt'): no file 'nope.txt'"),
        ({"action_type": "read_file", "path": "../../etc/passwd"}, "is outside the workspace"),
    ]
    for action, expected in cases:
        _, _, _, truncated, info = env.step(action)
        assert expected in (info["action_error"] or ""), (action, info["action_error"])
        assert not truncated and "error" not in info
    assert_works(env)


def test_a_command_gets_only_what_is_left_of_the_step_budget(sdk_env):
    obs, _, _, truncated, info = sdk_env.step(["time.sleep(10)\n" * 2 + "time.sleep(9)",
                                               {"action_type": "terminal", "command": "sleep 5; echo done"}, VALID])
    assert obs["sdk_output"].endswith("[command killed at the time limit]")
    assert info["timings"]["act_s"] < 4
    assert "time budget of 30 s is spent" in info["action_error"] and not truncated
    assert_works(sdk_env)


@pytest.mark.parametrize("raised, expected", [
    (OSError(errno.ENOSPC, "No space left on device"), "write_file('a.txt'): disk full"),
    (OSError(errno.EDQUOT, "Disk quota exceeded"), "; delete files or write less"),
    (PermissionError(errno.EACCES, "Permission denied"), "write_file('a.txt'): permission denied"),
    (OSError(errno.EMFILE, "Too many open files"), "too many files are open"),
    (UnicodeEncodeError("utf-8", "\udc80", 0, 1, "surrogates not allowed"), "cannot be written"),
])
def test_file_system_refusals_are_action_errors(sdk_env, monkeypatch, raised, expected):
    def fail(*args):
        raise raised
    monkeypatch.setattr(sdk_env.sandbox.workspace, "write_text", fail)
    _, _, _, truncated, info = sdk_env.step({"action_type": "write_file", "path": "a.txt", "content": "x"})
    assert expected in (info["action_error"] or "") and not truncated and "error" not in info


def test_a_command_too_long_to_start_is_an_action_error_and_a_missing_shell_a_sandbox_error(sdk_env, monkeypatch):
    def too_long(*args, **kwargs):
        raise OSError(errno.E2BIG, "Argument list too long")
    monkeypatch.setattr(sdk_env.sandbox.shell, "run", too_long)
    _, _, _, truncated, info = sdk_env.step({"action_type": "terminal", "command": "ls"})
    assert "terminal(): the command could not start: the command is too long" in info["action_error"]
    assert not truncated

    def no_bwrap(*args, **kwargs):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", "/usr/bin/bwrap")
    monkeypatch.setattr(sdk_env.sandbox.shell, "run", no_bwrap)
    _, _, _, truncated, info = sdk_env.step({"action_type": "terminal", "command": "ls"})
    assert truncated and "No such file or directory" in info["error"]
