"""Screens worth learning from: the same seed gives the same pixels in any process (a stable host name in the
address bar, no port; Chromium's tab strip may differ in the anti-aliasing of a tab's foot), the agent's home
is `/home/user` (not a per-process folder), and MiniWoB's task is zoomed to a readable size."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

import gymnasium as gym
import pytest

import hybridgym  # noqa: F401
from hybridgym.miniwob import DEFAULT_ZOOM

pytestmark = pytest.mark.xdist_group("stable_screens")

#: a process that makes the env, resets it with a seed, saves the screenshot and prints the page's URL
CHILD = """
import json, sys
import gymnasium as gym, hybridgym, numpy as np
env = gym.make("hybridgym/" + sys.argv[1])
try:
    obs, _ = env.reset(seed=int(sys.argv[2]))
    np.save(sys.argv[3], obs["screenshot"])
    print(json.dumps(env.unwrapped.sandbox.browser.page.url))
finally:
    env.close()
"""

#: the rows of Chromium's tab strip and the feet of its tabs (a 1280x800 window); the address bar begins below
TAB_STRIP_ROWS = 44


def _in_a_process(task: str, seed: int, out) -> tuple[np.ndarray, str]:
    run = subprocess.run([sys.executable, "-c", CHILD, task, str(seed), str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    return np.load(out), json.loads(run.stdout.strip().splitlines()[-1])


def test_one_seed_gives_the_same_browser_pixels_in_two_processes(tmp_path):
    first, url = _in_a_process("browser.todo-add-v0", 3, tmp_path / "first.npy")
    second, _ = _in_a_process("browser.todo-add-v0", 3, tmp_path / "second.npy")
    assert url.startswith("http://webapps.test/")
    assert first.shape == second.shape == (800, 1280, 3)
    # the address bar (no port in it) and the page: the same pixels
    assert np.array_equal(first[TAB_STRIP_ROWS:], second[TAB_STRIP_ROWS:])
    # Chromium's tab strip: the same but for the anti-aliasing of the tab's curved foot, which one window in
    # about 20 (on a loaded machine) draws a level or two apart at 2 pixels, for the window's life
    diff = np.abs(first[:TAB_STRIP_ROWS].astype(int) - second[:TAB_STRIP_ROWS].astype(int)).max(axis=2)
    assert np.count_nonzero(diff) <= 8 and diff.max() <= 4, (np.count_nonzero(diff), diff.max())


def test_the_agents_home_is_home_user():
    env = gym.make("hybridgym/browser.files-csv-total-sdk-v1")
    try:
        env.reset(seed=0)
        obs, *_ = env.step({"action_type": "terminal", "command": "pwd; echo $HOME; id -un; ls -d ~/*/ | head -3"})
        lines = obs["sdk_output"].splitlines()
        assert lines[:3] == ["/home/user", "/home/user", "user"], obs["sdk_output"]
        sb = env.unwrapped.sandbox
        assert sb.shown_path("Downloads/a.txt") == "/home/user/Downloads/a.txt"
        assert str(sb.workspace.root) not in obs["sdk_output"]   # the host's per-process folder is not shown
        # the input barrier's sentinel is the env's: an agent pressing it, in any form, is refused
        for action in ({"action_type": "press", "key": "pause"}, "pyautogui.press('Pause')",
                       "Action: hotkey(key='ctrl pause')"):
            obs, *_ = env.step(action)
            assert "unknown key" in obs["action_error"], (action, obs["action_error"])
    finally:
        env.close()


def test_miniwob_is_zoomed_and_clicks_land():
    env = gym.make("hybridgym/miniwob.click-button-v0")
    try:
        obs, _ = env.reset(seed=0)
        label = obs["instruction"].split('"')[1]          # 'Click on the "submit" button.'
        br = env.unwrapped.sandbox.browser
        assert br.scale == DEFAULT_ZOOM == 2.0 and br.page.url.startswith("http://miniwob.test/")
        box = br.page.locator("#wrap").bounding_box()
        (x0, y0), (x1, y1) = br.to_screen(box["x"], box["y"]), br.to_screen(box["x"] + box["width"],
                                                                            box["y"] + box["height"])
        assert (x1 - x0, y1 - y0) == (320, 420)          # MiniWoB's 160x210 box, twice its size on the screen
        x, y = br.screen_point(f"button:text-is('{label}')")   # a real click on the zoomed page's button
        obs, reward, terminated, *_ = env.step({"action_type": "click", "x": x, "y": y})
        assert terminated and reward == 1.0
    finally:
        env.close()
    with pytest.raises(ValueError, match="zoom"):
        gym.make("hybridgym/miniwob.click-button-v0", zoom=5)
