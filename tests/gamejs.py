"""What the HTML5 game tests (tests/test_games*_js.py) share: a game page in headless Chromium on a
paused fake clock, driven by real input, and the checks every game gets.

The checks: its card; the ``window.hybridgym`` API at the start; determinism (the same seed and
the same inputs at the same game times give the same states and screenshot bytes, with either
way of pausing the clock); that seeds matter; that doing nothing does not reach the card's
target; and that the scripted player in ``tasks/players/<game>.py`` reaches it.
The fixtures (``browser``, ``open_game``) are imported by each test module.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import pytest

from hybridgym.sandbox.browser import shared_playwright
from hybridgym.tasks.players import discover

sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
GAMES_DIR = Path(__file__).resolve().parents[1] / "assets" / "games"
KEY = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight", "space": " ",
       "enter": "Enter"}
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NEEDS_CHROMIUM = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs /usr/bin/chromium")
CANONICAL_KEYS = {"up", "down", "left", "right", "space", "enter"} | set("abcdefghijklmnopqrstuvwxyz")
# the API read at the start, in one round trip
_API_JS = """() => ({ready: hybridgym.ready, name: hybridgym.name, seed: hybridgym.seed, score: hybridgym.score(),
                     level: hybridgym.level(), lives: hybridgym.lives(), over: hybridgym.gameOver(),
                     json: JSON.stringify(hybridgym.state()),
                     size: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]})"""


@pytest.fixture(scope="module")
def browser():
    with shared_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


def player(name: str):
    """The player module (CARD, policy) of a game."""
    return discover()[name]


def act(g: "Game", action: dict) -> None:
    """Send one env action (as a scripted player returns it) through Playwright's real input."""
    kind = action["action_type"]
    if kind == "hotkey":
        for key in action["keys"]:
            g.page.keyboard.press(KEY.get(key, key))
    elif kind == "click":
        g.page.mouse.click(action["x"], action["y"])
    elif kind == "right_single":
        g.page.mouse.click(action["x"], action["y"], button="right")
    else:
        assert kind == "wait", action


class Game:
    """One game page in its own context, on a paused fake clock."""

    def __init__(self, browser, name: str, seed: int, *, query: dict | None = None, install_first: bool = False):
        self.name, self.seed = name, seed
        self.context = browser.new_context(viewport={"width": 800, "height": 600})
        # The fake clock must be paused: after clock.install() alone, time
        # flows at wall-clock speed. install()+pause_at() leaves performance.now()
        # a few ms off Date.now(); the games must not care, so both ways are used.
        if install_first:
            self.context.clock.install(time=0)
        self.context.clock.pause_at(0)
        self.page = self.context.new_page()
        errors: list[str] = []
        self.errors = errors
        self.page.on("pageerror", lambda e: errors.append(str(e)))
        if query is None:   # the card's own query, e.g. pong's ?ai=right
            query = player(name).CARD.get("query", {})
        extra = "".join(f"&{k}={v}" for k, v in query.items())
        self.page.goto((GAMES_DIR / name / "index.html").as_uri() + f"?seed={seed}{extra}")
        self.page.wait_for_function("window.hybridgym && window.hybridgym.ready === true")

    def state(self) -> dict:
        return self.page.evaluate("hybridgym.state()")

    def score(self) -> float:
        return self.page.evaluate("hybridgym.score()")

    def over(self) -> bool:
        return self.page.evaluate("hybridgym.gameOver()")

    def press(self, direction: str) -> None:
        self.page.keyboard.press(KEY[direction])

    def drag(self, start: tuple[float, float], *points: tuple[float, float], steps: int = 4) -> None:
        """Press the mouse at `start`, move it through `points` (`steps` moves to each), release."""
        mouse = self.page.mouse
        mouse.move(*start)
        mouse.down()
        for x, y in points:
            mouse.move(x, y, steps=steps)
        mouse.up()

    def run(self, ms: int) -> None:
        self.page.clock.run_for(ms)

    def shot(self) -> bytes:
        return self.page.screenshot()

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture
def open_game(browser):
    games: list[Game] = []

    def _open(name: str, seed: int = 0, **kw) -> Game:
        g = Game(browser, name, seed, **kw)
        games.append(g)
        return g

    yield _open
    for g in games:
        g.close()


# ------------------------------------------------------------------ the common checks


def check_card(name: str) -> dict:
    """The game's card has the common fields, sound values and canonical keys; returns it."""
    mod = player(name)
    card = mod.CARD
    assert mod.__doc__ and card["name"] == name and callable(mod.policy)
    assert {"title", "step_ms", "max_steps", "target", "instruction", "keys", "grid"} <= set(card)
    assert str(card["target"]) in card["instruction"]
    assert card["step_ms"] > 0 and card["max_steps"] > 0 and card["target"] > 0
    assert set(card["keys"]) <= CANONICAL_KEYS
    if card["grid"] is not None:
        assert set(card["grid"]) == {"x0", "y0", "cols", "rows", "cell_w", "cell_h"}
    return card


def check_api(g: Game) -> tuple[dict, dict]:
    """A fresh game's API: ready, its name and seed, score 0, not over, state() as JSON, a
    full-screen page without scrollbars. Returns (the API's values, the state)."""
    api = g.page.evaluate(_API_JS)
    st = g.state()
    assert api["ready"] is True and api["name"] == g.name and api["seed"] == g.seed
    assert api["score"] == 0 and api["over"] is False
    assert json.loads(api["json"]) == st
    assert st["seed"] == g.seed and st["score"] == 0 and st["gameOver"] is False
    assert api["size"] == [800, 600]
    return api, st


def check_same_run_twice(open_game, name: str, script: list[tuple[int, Callable | None]],
                         shot_at: Callable[[int], bool] = lambda i: True) -> None:
    """`script` ((game ms to run, then send(g, i) or None) pairs) on two pages of the game with seed 7,
    one per way of pausing the clock: the same state after every step and the same screenshot
    bytes (at the steps `shot_at` picks); and the script changed the game."""
    runs = []
    for install_first in (False, True):
        g = open_game(name, seed=7, install_first=install_first)
        trace = []
        for i, (ms, send) in enumerate(script):
            g.run(ms)
            if send is not None:
                send(g, i)
            trace.append((g.state(), g.shot() if shot_at(i) else None))
        runs.append(trace)
    a, b = runs
    for (state_a, shot_a), (state_b, shot_b) in zip(a, b):
        assert state_a == state_b
        assert shot_a == shot_b
    assert a[0][0] != a[-1][0]  # the script did change the game


def sending(action: dict) -> Callable:
    """A script step's send() for one env action."""
    return lambda g, i: act(g, action)


def check_seeds_differ(first: Game, second: Game) -> None:
    """Two games of other seeds differ in their state (beyond the seed) and on the screen."""
    a, b = first.state(), second.state()
    a.pop("seed"), b.pop("seed")
    assert a != b
    assert first.shot() != second.shot()


def idle(g: Game, card: dict, check_every: int = 1) -> dict:
    """Do nothing for the card's step budget (until game over, looked at every `check_every`
    steps); the state then, whose score must be below the card's target."""
    for step in range(card["max_steps"]):
        g.run(card["step_ms"])
        if step % check_every == check_every - 1 and g.over():
            break
    st = g.state()
    assert st["score"] < card["target"] and g.score() < card["target"]
    return st


def play(g: Game, name: str, *, until_over: bool = True) -> None:
    """The game's scripted player, one env step (step_ms of game time) at a time, reaches the card's
    target within max_steps; stopped by game over if `until_over`, else the game must not end first."""
    mod = player(name)
    card = mod.CARD
    st = g.state()
    steps = 0
    while steps < card["max_steps"] and st["score"] < card["target"]:
        if st["gameOver"]:
            assert until_over, st
            break
        act(g, mod.policy(st))
        g.run(card["step_ms"])
        st = g.state()   # (its "score" is hybridgym.score())
        steps += 1
    assert st["score"] >= card["target"] and g.score() >= card["target"], (steps, st)
