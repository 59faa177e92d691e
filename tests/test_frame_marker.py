"""The MiniWoB step's frame marker: the page colours a strip below the screenshot with every input sentinel, and
the step reads the screen from Xvfb's memory once the strip shows the step's colour. Tested through `env.step`:
the picture is the final one, the strip stays out of sight and out of the pointer's reach, a page without the
strip falls back to waiting for a quiet screen, and the screen's memory file is private and goes with the env."""

from __future__ import annotations

import os
import stat
import time

import gymnasium as gym
import numpy as np
import pytest
from Xlib import display as xdisplay

import hybridgym  # noqa: F401  (registers the ids)
from hybridgym import sandbox as sandbox_mod
from hybridgym.sandbox.browser import ChromiumBrowser
from hybridgym.sandbox.capture import DamageWatch, XShmCapture
from hybridgym.sandbox.display import XvfbDisplay
from hybridgym.suites import MARKER_ROWS

pytestmark = pytest.mark.xdist_group("frame-marker")


def _env():
    env = gym.make("hybridgym/miniwob.click-test-2-v0", max_steps=10 ** 6)
    env.reset(seed=0)
    return env


@pytest.fixture(scope="module")
def env():
    e = _env()
    yield e
    e.close()


@pytest.fixture
def marked(monkeypatch):
    """How many steps had their picture read at the frame marker, and how many waited for it in vain."""
    counts = {"read": 0, "missed": 0}
    real = XShmCapture.read_marked

    def counted(self, *args, **kwargs):
        frame = real(self, *args, **kwargs)
        counts["read" if frame is not None else "missed"] += 1
        return frame
    monkeypatch.setattr(XShmCapture, "read_marked", counted)
    return counts


def _later(env, seconds: float = 0.3) -> np.ndarray:
    time.sleep(seconds)
    return env.unwrapped.sandbox.capture.grab()


def _bar_point(env, i: int) -> tuple[int, int]:
    """A point of MiniWoB's instruction bar: a click there draws a dot and ends nothing."""
    return env.unwrapped.sandbox.browser.to_screen(8 + 9 * i, 30)


def test_clicks_keys_and_typing_are_read_at_the_marker_and_are_final(env, marked):
    before = env.step({"action_type": "wait", "seconds": 0.05})[0]["screenshot"]
    actions = [{"action_type": "click", "x": x, "y": y} for x, y in (_bar_point(env, i) for i in range(6))]
    actions += [{"action_type": "type", "text": "abc"}, {"action_type": "hotkey", "keys": ["tab"]},
                {"action_type": "scroll", "direction": "down", "x": 640, "y": 500, "amount": 2}]
    for action in actions:
        obs, _, term, trunc, info = env.step(action)
        assert not (term or trunc) and not obs["action_error"], (action, info)
        shot = obs["screenshot"]
        assert np.array_equal(shot, _later(env)), f"stale observation after {action}"
        if action["action_type"] == "click":   # the click's dot: a new picture, not the last one again
            assert not np.array_equal(shot, before), action
        before = shot
    assert marked == {"read": len(actions), "missed": 0}


@pytest.fixture
def sentinels(monkeypatch):
    """The steps' sentinels: a click's release the page saw (`ChromiumBrowser.click_barrier`), one it did not see,
    and the marking sentinel key."""
    counts = {"release": 0, "unseen release": 0, "key": 0}
    click_barrier, send_sentinel = ChromiumBrowser.click_barrier, ChromiumBrowser.send_sentinel

    def by_release(self, *args, **kwargs):
        answer = click_barrier(self, *args, **kwargs)
        if answer is not None:
            counts["release" if answer[0] is True else "unseen release"] += 1
        return answer

    def by_key(self, xinput, mark=False):
        counts["key"] += bool(mark)
        return send_sentinel(self, xinput, mark)
    monkeypatch.setattr(ChromiumBrowser, "click_barrier", by_release)
    monkeypatch.setattr(ChromiumBrowser, "send_sentinel", by_key)
    return counts


def test_a_step_that_is_one_click_has_its_release_for_sentinel_and_a_final_picture(env, marked, sentinels):
    """A click or a double click and nothing else: no sentinel key, the page gives the marker its colour after the
    click's last release, and the picture read then is the final one, with the click's dot."""
    env.reset(seed=1)
    marked.update(read=0, missed=0)
    before = env.step({"action_type": "wait", "seconds": 0.05})[0]["screenshot"]
    for i in range(5):
        x, y = _bar_point(env, i)
        action = {"action_type": "left_double" if i == 4 else "click", "x": x, "y": y}
        obs, _, term, trunc, info = env.step(action)
        assert not (term or trunc or obs["action_error"]), info
        assert not np.array_equal(obs["screenshot"], before), f"no dot after {action}"
        assert np.array_equal(obs["screenshot"], _later(env)), f"stale observation after {action}"
        before = obs["screenshot"]
    assert sentinels == {"release": 5, "unseen release": 0, "key": 0}
    assert marked == {"read": 5, "missed": 0}


def test_presses_and_releases_the_env_did_not_count_as_a_click_do_not_make_a_click_read_early(env, marked, sentinels):
    """The page counts every release it gets; the env counts those it sent, and learns the page's count from each
    barrier's answer. Releases that were not one click's (a press and a release in two steps, a drag, the release of
    a button the agent left down, at the reset) and one the page never got (on a <select>'s list, a window of its
    own) never make a click's step take another release for its own: every picture is final and shows the click's
    dot, and after a release the page did not get, the next click sends the sentinel key."""
    sb = env.unwrapped.sandbox
    env.reset(seed=2)
    pts = [_bar_point(env, i) for i in range(12)]
    steps = [{"action_type": "mouse_down", "x": pts[0][0], "y": pts[0][1]},
             {"action_type": "mouse_up", "x": pts[1][0], "y": pts[1][1]},
             {"action_type": "click", "x": pts[2][0], "y": pts[2][1]},
             {"action_type": "drag", "x1": pts[3][0], "y1": pts[3][1], "x2": pts[4][0], "y2": pts[4][1]},
             {"action_type": "click", "x": pts[5][0], "y": pts[5][1]},
             {"action_type": "mouse_down", "x": pts[6][0], "y": pts[6][1]},
             "reset",   # releases the button the agent left down
             {"action_type": "click", "x": pts[7][0], "y": pts[7][1]},
             {"action_type": "click", "x": pts[8][0], "y": pts[8][1]}]
    for step in steps:
        if step == "reset":
            env.reset(seed=3)
            continue
        before = sb.capture.grab()
        obs, _, term, trunc, info = env.step(step)
        assert not (term or trunc or obs["action_error"]), (step, info)
        assert np.array_equal(obs["screenshot"], _later(env)), f"stale observation after {step}"
        if step["action_type"] == "click":
            assert not np.array_equal(obs["screenshot"], before), f"the click's dot not in the picture: {step}"
    # each step that was not one click sent the sentinel key, and its barrier's answer told the page's count after
    # it (the releases of the mouse_up, of the drag, and of the button the reset released included): each click
    # could then count from there
    assert sentinels == {"release": 4, "unseen release": 0, "key": 4}
    # a <select>'s list, opened by a press on the select, gets the release: the page does not see it
    br = sb.browser
    br.page.evaluate("document.body.insertAdjacentHTML('beforeend', '<select id=s style=\"position:fixed;"
                     "left:300px;top:60px\">' + '<option>an option</option>'.repeat(9) + '</select>')")
    sentinels.update({"release": 0, "unseen release": 0, "key": 0})
    x, y = br.to_screen(320, 70)
    for step in [{"action_type": "click", "x": round(x), "y": round(y)},    # opens the list
                 {"action_type": "click", "x": pts[9][0], "y": pts[9][1]},   # closes it (the page may not see it)
                 {"action_type": "click", "x": pts[10][0], "y": pts[10][1]},
                 {"action_type": "click", "x": pts[11][0], "y": pts[11][1]}]:
        obs, _, term, trunc, info = env.step(step)
        assert not (term or trunc or obs["action_error"]), (step, info)
        assert np.array_equal(obs["screenshot"], _later(env)), f"stale observation after {step}"
    # the press on the select: the list had the release, the page waited for it in vain; the next click: the key
    # (the count not known); the last two: their releases again
    assert sentinels == {"release": 2, "unseen release": 1, "key": 1}


def test_a_reset_reads_its_first_picture_at_the_marker_and_it_is_final(env, marked):
    """The set-up gives the marker a colour once the page shows the new episode: the first picture is read when the
    screen shows it, and is the episode's (the screen a moment later is the same, the last episode's dots gone)."""
    env.reset(seed=0)   # (after keys, a reset gives the focus back and waits for a quiet screen too)
    marked.update(read=0, missed=0)
    for seed in range(1, 5):
        x, y = _bar_point(env, seed)
        dotted = env.step({"action_type": "click", "x": x, "y": y})[0]["screenshot"]
        obs, info = env.reset(seed=seed)
        assert info["seed"] == seed
        assert not np.array_equal(obs["screenshot"], dotted)
        assert np.array_equal(obs["screenshot"], _later(env)), f"stale first picture (seed {seed})"
    assert marked == {"read": 8, "missed": 0}   # the 4 clicks and the 4 resets


def test_a_reset_after_keys_that_loads_another_task_shows_the_new_episode(marked):
    """After keys (the reset's Escapes may close a window of the browser's own) and with a new task's page to
    load, the first picture is read at the marker and after a quiet screen: the episode, not the page's START
    cover of its load (which it was, in 10 of 120 such resets, before the marker was used there)."""
    env = gym.make("hybridgym/MiniWoB-v0", max_steps=10 ** 6)
    try:
        for i, task in enumerate(["click-test", "login-user", "enter-text", "click-button"]):
            if i:
                env.step({"action_type": "type", "text": "ab"})
            obs, info = env.reset(seed=i, options={"task": f"miniwob.{task}-v0"})
            assert np.array_equal(obs["screenshot"], _later(env, 0.5)), f"stale first picture of {task}"
            cover = env.unwrapped.sandbox.browser.page.evaluate("getComputedStyle(core.cover_div).display")
            assert cover == "none"
    finally:
        env.close()


def test_the_marker_is_below_the_screenshot_and_out_of_the_pointers_reach(env, marked):
    sb = env.unwrapped.sandbox
    assert sb.display.height == sb.height + MARKER_ROWS
    x, y = _bar_point(env, 20)
    obs, *_ = env.step({"action_type": "click", "x": x, "y": y})
    assert obs["screenshot"].shape == (sb.height, sb.width, 3)
    assert sb.capture.framebuffer.pixel(*sb.marker_point) == sb.browser.mark   # the strip shows the step's colour
    # what the screenshot shows of the screen is read from Xvfb's memory as an X grab shows it
    assert np.array_equal(sb.capture.framebuffer.rgb(), sb.capture.grab())
    for y in (sb.height + 1, sb.marker_point[1], sb.display.height - 1):   # (y = height is the last row: the
        # coordinates' extent is inclusive)
        obs, _, term, trunc, info = env.step({"action_type": "click", "x": sb.marker_point[0], "y": y})
        assert obs["action_error"] and not (term or trunc)
        assert np.array_equal(obs["screenshot"], _later(env))


def test_the_status_bubble_of_a_link_under_the_pointer_covers_neither_the_marker_nor_the_screenshot(marked):
    """Over a link, the browser shows the link's address in a bubble at the window's foot, on the left where the
    marker's strip is: it is drawn in the hidden rows below the strip, so the steps are still read at the marker
    (a covered strip would make each wait `MARK_WAIT_S` in vain) and the screenshot does not show it."""
    env = gym.make("hybridgym/miniwob.click-tab-v0", max_steps=10 ** 6)
    try:
        env.reset(seed=0)
        sb = env.unwrapped.sandbox
        x, y = sb.browser.to_screen(*sb.browser.page.evaluate(
            "() => { const r = document.querySelector('#area a[href]').getBoundingClientRect();"
            " return [r.x + 2, r.y + r.height / 2]; }"))
        bare = sb.capture.framebuffer.screen[sb.height + MARKER_ROWS // 2:, :, :3].copy()
        marked.update(read=0, missed=0)
        for _ in range(3):   # the pointer stays on the link: the bubble shows (after a short delay)
            obs, _, term, trunc, info = env.step({"action_type": "hover", "x": x, "y": y})
            assert not (term or trunc or obs["action_error"]), info
            assert np.array_equal(obs["screenshot"], _later(env, 0.5))
        hidden = sb.capture.framebuffer.screen[sb.height + MARKER_ROWS // 2:, :, :3]
        assert not np.array_equal(hidden, bare), "no status bubble was drawn (the test then shows nothing)"
        assert marked == {"read": 3, "missed": 0}
        assert sb.capture.framebuffer.pixel(*sb.marker_point) == sb.browser.mark
    finally:
        env.close()


def test_a_page_without_the_marker_is_seen_once_the_screen_is_quiet(marked):
    env = _env()
    try:
        sb = env.unwrapped.sandbox
        marked.update(read=0, missed=0)   # (the reset's first picture was read at the marker)
        before = env.step({"action_type": "wait", "seconds": 0.05})[0]["screenshot"]
        sb.browser.page.evaluate("() => { document.adoptedStyleSheets = []; }")   # the page dropped the strip
        x, y = _bar_point(env, 3)
        obs, _, term, trunc, info = env.step({"action_type": "click", "x": x, "y": y})
        assert not (term or trunc), info
        assert marked == {"read": 0, "missed": 1}
        assert not np.array_equal(obs["screenshot"], before)
        assert np.array_equal(obs["screenshot"], _later(env))
        folder = os.path.dirname(sb.display.framebuffer)
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700 and os.stat(folder).st_uid == os.geteuid()
    finally:
        env.close()
    assert not os.path.exists(folder), "the screen's memory file outlived the env"


def test_without_room_in_dev_shm_a_step_waits_for_a_quiet_screen(monkeypatch, marked):
    monkeypatch.setattr(sandbox_mod, "SHM_SPARE_BYTES", 1 << 60)   # as a container whose /dev/shm is nearly full
    env = _env()
    try:
        sb = env.unwrapped.sandbox
        assert sb.display.framebuffer is None and sb.capture.framebuffer is None and sb.marker_point is None
        assert sb.display.height == sb.height + MARKER_ROWS   # the same screenshot either way
        before = env.step({"action_type": "wait", "seconds": 0.05})[0]["screenshot"]
        x, y = _bar_point(env, 5)
        obs, _, term, trunc, info = env.step({"action_type": "click", "x": x, "y": y})
        assert not (term or trunc) and "error" not in info
        assert not np.array_equal(obs["screenshot"], before)
        assert np.array_equal(obs["screenshot"], _later(env))
        assert marked == {"read": 0, "missed": 0}
    finally:
        env.close()


def test_caught_up_sees_a_drawing_the_server_carried_out_before_it_asked():
    xvfb = XvfbDisplay(64, 64).start()
    try:
        watch = DamageWatch(xvfb.name)
        other = xdisplay.Display(xvfb.name)
        try:
            watch.caught_up()   # the screen's first drawing
            assert not watch.caught_up()
            root = other.screen().root
            root.fill_rectangle(root.create_gc(foreground=0xFF0000), 0, 0, 8, 8)
            other.sync()   # drawn by the server before the watch asks
            assert watch.caught_up()
            assert not watch.caught_up()   # read once
        finally:
            other.close()
            watch.close()
    finally:
        xvfb.stop()
