"""A game's input dispatched in its page (`input="page"`, hybridgym.sandbox.pageinput): the same pictures as real X
input for the same actions, oracles that still win, and agent text that stays data."""

from __future__ import annotations

import hashlib

import gymnasium as gym
import pytest

from hybridgym.agents import OracleAgent, RandomAgent, run_episode
from hybridgym.sandbox.pageinput import PageInput
from hybridgym.tasks.game import GAME_TASKS

GAMES = sorted(GAME_TASKS)
_PAGE: dict = {}


@pytest.fixture
def page_env():
    """A game env with page input, shared by this module's tests (one per xdist worker)."""
    if "env" not in _PAGE:
        _PAGE["env"] = gym.make("hybridgym/Game-v0", input="page")
    yield _PAGE["env"]


@pytest.fixture(scope="module", autouse=True)
def _close_page_env():
    yield
    env = _PAGE.pop("env", None)
    if env is not None:
        env.close()


def _hash(obs) -> str:
    return hashlib.sha1(obs["screenshot"].tobytes()).hexdigest()


def _play(env, game: str, actions, seed: int = 0) -> list:
    obs, info = env.reset(seed=seed, options={"task": f"game.{game}-v0"})
    out = [_hash(obs)]
    for a in actions:
        obs, _, term, trunc, info = env.step(a)
        assert info.get("error") is None and info["action_error"] is None, info
        out.append((_hash(obs), info.get("score")))
        if term or trunc:
            break
    return out


def _random_actions(env, game: str, n: int) -> list:
    obs, info = env.reset(seed=0, options={"task": f"game.{game}-v0"})
    agent = RandomAgent()
    agent.reset(env, obs, info)
    return [agent.act(None) for _ in range(n)]


@pytest.mark.parametrize("game", GAMES)
def test_page_input_shows_the_pictures_x_input_shows(suite_env, page_env, game):
    """The random agent's actions (the game's keys and grid clicks), from the same seed: every picture and score
    under page input is the one real X input gives."""
    x_env = suite_env("game")
    actions = _random_actions(x_env, game, 30)
    assert _play(page_env, game, actions) == _play(x_env, game, actions)


POINTER_SCRIPT = [
    {"action_type": "hover", "x": 120, "y": 500}, {"action_type": "click", "x": 400, "y": 300},
    {"action_type": "drag", "x1": 300, "y1": 300, "x2": 360, "y2": 300},
    {"action_type": "left_double", "x": 200, "y": 250}, {"action_type": "right_single", "x": 650, "y": 420},
    {"action_type": "keydown", "key": "left"}, {"action_type": "wait", "seconds": 0.2},
    {"action_type": "keyup", "key": "left"}, {"action_type": "hotkey", "keys": ["space"]},
    {"action_type": "scroll", "direction": "down", "x": 400, "y": 300, "amount": 2},
    {"action_type": "mouse_down", "x": 500, "y": 350}, {"action_type": "hover", "x": 540, "y": 350},
    {"action_type": "mouse_up", "x": 560, "y": 352},
    {"action_type": "type", "text": "wasd W!"}, {"action_type": "hotkey", "keys": ["right"]},
    [{"action_type": "hotkey", "keys": ["up"]}, {"action_type": "wait", "seconds": 0.3}, {"action_type": "click", "x": 30, "y": 580}],
]


@pytest.mark.parametrize("game", ["breakout", "match-3", "falling-blocks", "pong", "merge"])
def test_pointer_keys_held_and_waits_act_as_under_x_input(suite_env, page_env, game):
    """Moves, drags, double and right clicks, a held key across a wait, the wheel, a press and release
    with a move between, typed text, several actions in one step: pictures identical to X input's."""
    assert _play(page_env, game, POINTER_SCRIPT, seed=3) == _play(suite_env("game"), game, POINTER_SCRIPT, seed=3)


@pytest.mark.parametrize("game", GAMES)
def test_every_oracle_wins_with_page_input(page_env, game):
    r = run_episode(page_env, OracleAgent(), 0, task=f"game.{game}-v0")
    assert r["success"] and r["error"] is None and r["invalid_actions"] == 0, r


def test_page_input_goes_through_playwright_when_the_channel_is_down(suite_env, page_env):
    """Without the page's channel (a page that closed it), the events travel in the Playwright call: same pictures."""
    actions = _random_actions(suite_env("game"), "pong", 12) + POINTER_SCRIPT[:4]
    want = _play(suite_env("game"), "pong", actions)
    browser = page_env.unwrapped.sandbox.browser
    channel = browser._channel
    browser._channel = None
    try:
        assert _play(page_env, "pong", actions) == want
    finally:
        browser._channel = channel


def test_agent_text_is_data_and_keys_never_leave_the_page(page_env):
    """Through env.step: text built to break out of a script, and the browser's own shortcuts (close the tab,
    the address bar, reload, devtools, quit). Page input runs none of it and no key reaches the browser."""
    env = page_env
    env.reset(seed=0, options={"task": "game.snake-v0"})
    page = env.unwrapped.sandbox.browser.page
    url = page.url
    payloads = ['"});window.__pwned=1;//', "'];window.__pwned=1;//", "</script><img src=x onerror=__pwned=1>",
                "${window.__pwned=1}", "\u2028window.__pwned=1"]
    steps = [{"action_type": "type", "text": p} for p in payloads]
    steps += [{"action_type": "hotkey", "keys": k} for k in (["ctrl", "w"], ["ctrl", "l"], ["f5"], ["f12"],
                                                              ["alt", "f4"], ["ctrl", "shift", "i"], ["ctrl", "t"])]
    steps += [{"action_type": "type", "text": "javascript:window.__pwned=1\n"}]
    for a in steps:
        obs, _, term, trunc, info = env.step(a)
        assert info.get("error") is None and info["action_error"] is None, info
        if term or trunc:
            break
    assert page.url == url and not page.is_closed()
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert len(env.unwrapped.sandbox.browser.context.pages) == 1


def test_the_dispatcher_ignores_what_is_not_an_event(page_env):
    """The page's end takes only its own event objects: junk is skipped, nothing raises, nothing runs."""
    env = page_env
    env.reset(seed=0, options={"task": "game.sokoban-v0"})
    browser = env.unwrapped.sandbox.browser
    before = browser.page.evaluate("JSON.stringify(hybridgym.state())")
    junk = [None, 1, "x", [], {"t": "eval", "code": "window.__pwned=1"}, {"t": "key", "key": {"toString": 1}},
            {"t": "key", "down": True, "key": "ArrowUp"}, {"t": "move", "x": "1e9", "y": None},
            {"t": "down", "button": "constructor"}, {"t": "__proto__"}]
    browser.dispatch_input(junk)
    browser.dispatch_input({"not": "a list"})
    assert browser.page.evaluate("typeof window.__pwned") == "undefined"
    assert browser.page.evaluate("JSON.stringify(hybridgym.state())") == before


def test_page_input_records_the_events_a_us_keyboard_and_a_mouse_make():
    inp = PageInput(lambda x, y: (x / 2, y / 2), (799, 599))
    inp.type_text("aA+é")
    ev = inp.take()
    keys = [(e["key"], e["code"], e["keyCode"], e["down"], e["shift"], e["press"]) for e in ev]
    assert keys == [("a", "KeyA", 65, True, False, 97), ("a", "KeyA", 65, False, False, 0),
                    ("Shift", "ShiftLeft", 16, True, True, 0), ("A", "KeyA", 65, True, True, 65),
                    ("A", "KeyA", 65, False, True, 0), ("Shift", "ShiftLeft", 16, False, False, 0),
                    ("Shift", "ShiftLeft", 16, True, True, 0), ("+", "Equal", 187, True, True, 43),
                    ("+", "Equal", 187, False, True, 0), ("Shift", "ShiftLeft", 16, False, False, 0),
                    ("é", "", 0, True, False, 233), ("é", "", 0, False, False, 0)]
    inp.hotkey(["ctrl", "+"])   # as X: a shifted character's own key, no Shift; no keypress with Ctrl
    assert [(e["key"], e["down"], e["ctrl"], e["press"]) for e in inp.take()] == [
        ("Control", True, True, 0), ("=", True, True, 0), ("=", False, True, 0), ("Control", False, False, 0)]
    inp.click(100, 60, count=2)
    ev = inp.take()
    assert [(e["t"], e.get("count"), e["x"], e["y"]) for e in ev] == [
        ("move", None, 50, 30), ("down", 1, 50, 30), ("up", 1, 50, 30), ("down", 2, 50, 30), ("up", 2, 50, 30)]
    inp.button("left", True)
    inp.button("right", True)      # a second button: a pointermove in the page, not a pointerdown
    inp.button("left", False)
    inp.button("right", False)     # the last one up: the pointerup
    assert [(e["button"], e["only"]) for e in inp.take()] == [(0, True), (2, False), (0, False), (2, True)]
    inp.key("space", True)
    inp.button("right", True)
    inp.button("right", True)     # a held button is not pressed again
    inp.release_all()
    ev = inp.take()
    assert [(e["t"], e.get("key"), e.get("down"), e.get("button")) for e in ev] == [
        ("key", " ", True, None), ("down", None, None, 2), ("key", " ", False, None), ("up", None, None, 2)]
    assert ev[1]["buttons"] == 2 and ev[3]["buttons"] == 0


def test_input_must_be_x_or_page():
    with pytest.raises(ValueError, match="input must be one of"):
        gym.make("hybridgym/game.snake-v0", input="cdp")
