"""Screens worth learning from: the same seed gives the same pixels in any process (a stable host name in the
address bar, no port), the agent's home is `/home/user` (not a per-process folder), and MiniWoB's task is
zoomed to a readable size."""

from __future__ import annotations

import json
import subprocess
import sys

import gymnasium as gym
import pytest

import hybridgym  # noqa: F401
from hybridgym.miniwob import DEFAULT_ZOOM

pytestmark = pytest.mark.xdist_group("stable_screens")

#: a process that makes the env, resets it with a seed, and prints the screenshot's hash and the page's URL
CHILD = """
import hashlib, json, sys
import gymnasium as gym, hybridgym
env = gym.make("hybridgym/" + sys.argv[1])
try:
    obs, _ = env.reset(seed=int(sys.argv[2]))
    print(json.dumps([hashlib.sha256(obs["screenshot"].tobytes()).hexdigest(), env.unwrapped.sandbox.browser.page.url]))
finally:
    env.close()
"""


def _in_a_process(task: str, seed: int) -> tuple[str, str]:
    out = subprocess.run([sys.executable, "-c", CHILD, task, str(seed)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    digest, url = json.loads(out.stdout.strip().splitlines()[-1])
    return digest, url


def test_one_seed_gives_the_same_browser_pixels_in_two_processes():
    first, url = _in_a_process("browser.todo-add-v0", 3)
    second, _ = _in_a_process("browser.todo-add-v0", 3)
    assert url.startswith("http://webapps.test/")
    assert first == second


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
