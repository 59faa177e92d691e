"""The env contract: gym.make ids, check_env per suite, spaces, info, bad actions, SDK, faults and cleanup."""

from __future__ import annotations

import contextlib
import os
import signal
import time

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hybridgym
from hybridgym.tasks import SUITES, TASKS, tasks_of

from hybridgym.sandbox.processes import cmdline, descendants


def test_every_task_and_suite_has_a_gym_id():
    for task_id in TASKS:
        spec = gym.spec(f"hybridgym/{task_id}")
        assert spec.kwargs["task"] == task_id
        # the budget is the env's own (its checker runs at the last step), not a TimeLimit's
        assert spec.max_episode_steps is None
    for suite in SUITES:
        assert gym.spec(hybridgym.SUITE_IDS[suite])
        assert tasks_of(suite), f"suite {suite} has no task"


def test_check_env_passes(suite, suite_env):
    env = suite_env(suite)
    check_env(env.unwrapped, skip_render_check=True)


def test_observation_and_info(suite, suite_env):
    env = suite_env(suite)
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    w, h = env.unwrapped.screen_size
    assert obs["screenshot"].shape == (h, w, 3) and obs["screenshot"].dtype == np.uint8
    assert obs["screenshot"].std() > 1.0, "the screen is blank"
    assert obs["instruction"]
    assert info["task_id"] in TASKS and info["success"] is False
    obs, reward, terminated, truncated, info = env.step({"action_type": "wait", "seconds": 0})
    assert env.observation_space.contains(obs)
    for key in ("task_id", "success", "action_error", "actions", "timings", "invalid_actions"):
        assert key in info
    assert set(info["timings"]) >= {"parse_s", "act_s", "observe_s", "step_s"}


HOSTILE = [
    "pyautogui.click(*__import__('os').system('touch /tmp/hybridgym-pwned'))",
    "__import__('os').system('touch /tmp/hybridgym-pwned')",
    "Action: click(point=__import__('os').system('touch /tmp/hybridgym-pwned'))",
    "exec(\"open('/tmp/hybridgym-pwned','w')\")",
    {"action_type": "rm -rf /"},
    "Action: scroll(point='<point>500 500</point>', direction='sideways')",
    "Action: click(point='<point>5000 5000</point>')",
    "",
    "Thought: I will now do something\n",
    {"action_type": "click", "x": -5, "y": 10},
]


def test_malformed_and_hostile_actions_are_reported_and_the_env_goes_on(suite_env):
    env = suite_env("browser")
    if os.path.exists("/tmp/hybridgym-pwned"):
        os.remove("/tmp/hybridgym-pwned")
    half = len(HOSTILE) // 2
    for i, bad in enumerate(HOSTILE):
        if i % half == 0:
            env.reset(seed=0, options={"task": "browser.todo-add-v0"})
        obs, reward, terminated, truncated, info = env.step(bad)
        assert info["action_error"], f"{bad!r} was accepted"
        assert obs["action_error"] == info["action_error"]
        assert info["invalid_actions"] == i % half + 1
        assert not terminated and not truncated and reward == 0.0 and "error" not in info
    assert not os.path.exists("/tmp/hybridgym-pwned")
    obs, *_ , info = env.step("Action: click(point='<point>500 500</point>')")
    assert info["action_error"] is None and info["actions"][0]["action_type"] == "click"


def test_sdk_actions_only_where_the_task_offers_them(suite_env):
    env = suite_env("computer")
    env.reset(seed=0, options={"task": "computer.editor-create-file-v0"})
    *_, info = env.step("Action: terminal(command='ls')")
    assert "not offered" in info["action_error"]
    env.reset(seed=0, options={"task": "computer.find-order-total-v1"})
    obs, *_ = env.step("Action: terminal(command='ls orders | head -3; cat /etc/hostname > x; cat x')")
    assert "2025-" in obs["sdk_output"]
    obs, *_, info = env.step({"action_type": "read_file", "path": "../../etc/passwd"})
    assert "outside the workspace" in info["action_error"]
    obs, *_, info = env.step({"action_type": "write_file", "path": "notes/a.txt", "content": "日本"})
    obs, *_, info = env.step({"action_type": "read_file", "path": "notes/a.txt"})
    assert obs["sdk_output"] == "日本"


def test_finished_terminates_and_step_budget_truncates(suite_env):
    env = suite_env("browser")
    env.reset(seed=0, options={"task": "browser.todo-add-v0"})
    *_, terminated, truncated, info = env.step("Action: finished(content='done')")
    assert terminated and not truncated and info["success"] is False
    with pytest.raises(RuntimeError, match="reset"):
        env.step({"action_type": "wait", "seconds": 0})
    env.reset(seed=0, options={"task": "browser.todo-add-v0"})
    for _ in range(TASKS["browser.todo-add-v0"].max_steps):
        *_, terminated, truncated, info = env.step({"action_type": "wait", "seconds": 0})
    assert truncated and not terminated


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="unknown task"):
        gym.make("hybridgym/Browser-v0", task="browser.nope-v0")
    with pytest.raises(ValueError, match="belongs to the"):
        gym.make("hybridgym/Browser-v0", task="mobile.contact-add-v1")
    env = gym.make("hybridgym/Browser-v0")
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"tsk": 1})
    env.close()


def _chromium_pids(before: set[int]) -> list[int]:
    return [p for p in descendants() - before if "chromium" in cmdline(p) and "--type=" not in cmdline(p)]


def test_browser_crash_is_reported_and_the_next_reset_recovers():
    before = descendants()
    env = gym.make("hybridgym/browser.todo-add-v0")
    try:
        env.reset(seed=0)
        for pid in _chromium_pids(before):   # (its jail's wrappers too: the first kill may take the rest)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        *_, terminated, truncated, info = env.step("Action: click(point='<point>500 500</point>')")
        assert truncated and "error" in info and "browser" in info["error"]
        obs, info = env.reset(seed=1)
        obs, reward, terminated, truncated, info = env.step({"action_type": "wait", "seconds": 0})
        assert "error" not in info
    finally:
        env.close()
    left = [cmdline(p) for p in descendants() - before if "playwright" not in cmdline(p)]
    assert not left, f"left running: {left}"


@pytest.mark.parametrize("task", ["browser.todo-add-v0", "miniwob.click-test-2-v0", "game.snake-v0",
                                  "mobile.contact-add-v1"])
def test_a_crashed_page_is_reported_by_the_step_that_meets_it(task):
    """A page whose renderer died (the browser lives on) ends the next step with an error at once, in every suite
    with a page: a call on the page's CDP session would otherwise wait for ever, and a step's own round trip stands
    for the health probe. The next reset gives a working page."""
    before = descendants()
    env = gym.make(f"hybridgym/{task}")
    try:
        env.reset(seed=0)
        *_, truncated, info = env.step({"action_type": "click", "x": 300, "y": 300})
        assert not truncated and "error" not in info
        renderers = [p for p in descendants() - before if "--type=renderer" in cmdline(p)]
        assert renderers
        for pid in renderers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        *_, terminated, truncated, info = env.step({"action_type": "click", "x": 300, "y": 300})
        assert truncated and "browser" in info.get("error", ""), info
        env.reset(seed=1)
        *_, truncated, info = env.step({"action_type": "click", "x": 300, "y": 300})
        assert not truncated and "error" not in info
        assert env.unwrapped.sandbox.browser.page.evaluate("1 + 1") == 2
    finally:
        env.close()


def test_display_crash_is_reported_and_the_next_reset_recovers():
    env = gym.make("hybridgym/computer.find-order-total-v1")
    try:
        env.reset(seed=0)
        os.kill(env.unwrapped.sandbox.display.pid, signal.SIGKILL)
        time.sleep(0.3)
        *_, truncated, info = env.step("Action: click(point='<point>500 500</point>')")
        assert truncated and "error" in info
        env.reset(seed=0)
        *_, info = env.step("Action: terminal(command='echo ok')")
        assert "error" not in info
    finally:
        env.close()


def test_close_leaves_no_process_behind(suite):
    before = descendants()
    env = gym.make(hybridgym.SUITE_IDS[suite])
    env.reset(seed=0)
    env.step({"action_type": "wait", "seconds": 0})
    assert descendants() - before
    env.close()
    env.close()  # twice is fine
    left = [cmdline(p) for p in descendants() - before if "playwright" not in cmdline(p)]
    assert not left, f"left running after close(): {left}"


def test_a_load_survives_an_escape_that_arrives_late(suite_env):
    """Escape stops a load. The reset's Escapes (which close the agent's dialogs) can reach Chromium after the
    task's load began on a loaded machine: before the navigation commits, it is aborted (net::ERR_ABORTED);
    after, the document completes without the scripts it had not fetched and without its load event (a plain
    `page.goto` then waits 30 s). Either way the load goes again, and the page is whole: its scripts ran."""
    import threading
    env = suite_env("game")
    env.reset(seed=0, options={"task": "game.flappy-v0"})
    sb = env.unwrapped.sandbox
    for seed, delay in enumerate([None, 0.0, 0.005, 0.01, 0.02, 0.03, 0.05, 0.08]):
        url = sb.server.url("/flappy/index.html", seed=seed)
        if delay is None:
            sb.input.hotkey(("esc",), wait=False)    # sent, not waited for: it lands as the navigation starts
            late = None
        else:                                        # during the load
            late = threading.Timer(delay, sb.input.hotkey, (("esc",),), {"wait": False})
            late.start()
        sb.browser._goto(url, "load")
        if late is not None:
            late.join()
        assert sb.browser.page.url == url
        assert sb.browser.page.evaluate("[document.readyState, typeof window.hgKit, document.querySelectorAll('canvas').length]") == ["complete", "object", 1]