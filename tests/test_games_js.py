"""The HTML5 games (snake, 2048) in a real headless Chromium on a fake clock.

Checks the ``window.hybridgym`` API, determinism (same seed + same inputs at
the same game times -> same state and same screenshot bytes), that seeds
matter, input by keys and swipes, and that the scripted players in
``tasks/game_players.py`` reach their scores when driven through the keyboard.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hybridgym.sandbox.browser import shared_playwright
from hybridgym.tasks.players import discover
from hybridgym.tasks.game_players import policy_2048, snake_policy

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

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs /usr/bin/chromium")


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

    def press(self, direction: str) -> None:
        self.page.keyboard.press(KEY[direction])

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


# --------------------------------------------------------------------------- API


@pytest.mark.parametrize("name", ["snake", "2048"])
def test_api(open_game, name):
    g = open_game(name, seed=3)
    api = g.page.evaluate(
        """() => ({ready: hybridgym.ready, score: hybridgym.score(), level: hybridgym.level(),
                   lives: hybridgym.lives(), over: hybridgym.gameOver(),
                   json: JSON.stringify(hybridgym.state())})"""
    )
    assert api["ready"] is True
    assert (api["score"], api["level"], api["lives"], api["over"]) == (0, 1, 1, False)
    st = g.state()
    assert st["seed"] == 3 and st["score"] == 0 and st["gameOver"] is False
    if name == "snake":
        assert (st["cols"], st["rows"]) == (20, 15)
        assert st["snake"] == [[5, 7], [4, 7], [3, 7]] and st["dir"] == "right"
        assert st["apple"] not in st["snake"] and st["tick"] == 0
    else:
        assert len(st["board"]) == 4 and all(len(row) == 4 for row in st["board"])
        assert sorted(v for row in st["board"] for v in row if v) in ([2, 2], [2, 4], [4, 4])
        assert st["won"] is False and st["moves"] == 0
    # full screen, no scrollbars
    size = g.page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size == [800, 600]


# ----------------------------------------------------------------- determinism

SCRIPTS = {
    # (clock ms to run, key to press or None) pairs
    "snake": [(200, "down"), (100, "left"), (450, "up"), (75, "right"), (300, "right"), (160, None), (900, "down")],
    # 2048: keys arrive mid-animation (every 30-60 ms) as well as after it
    "2048": [(0, "left"), (30, "up"), (45, "right"), (300, "down"), (16, "left"), (60, "up"), (250, "right"),
             (33, "down"), (41, None)],
}


@pytest.mark.parametrize("name", ["snake", "2048"])
def test_same_seed_same_inputs_same_run(open_game, name):
    runs = []
    for install_first in (False, True):
        g = open_game(name, seed=7, install_first=install_first)
        trace = []
        for ms, key in SCRIPTS[name]:
            g.run(ms)
            if key:
                g.press(key)
            trace.append((g.state(), g.shot()))
        runs.append(trace)
    a, b = runs
    for (state_a, shot_a), (state_b, shot_b) in zip(a, b):
        assert state_a == state_b
        assert shot_a == shot_b
    # and the script did change the game
    assert a[0][0] != a[-1][0]


@pytest.mark.parametrize("name", ["snake", "2048"])
def test_seeds_differ(open_game, name):
    first, second = open_game(name, seed=1), open_game(name, seed=2)
    assert first.state() != second.state()
    assert first.shot() != second.shot()


# ------------------------------------------------------------------- snake


def test_snake_noop_ends_at_score_zero(open_game):
    g = open_game("snake", seed=0)
    g.run(1000)
    assert not g.page.evaluate("hybridgym.gameOver()")
    g.run(2000)  # 15 ticks of 150 ms from x=5 reach the right wall
    st = g.state()
    assert st["gameOver"] is True and st["score"] == 0 and st["cause"] == "wall"
    assert st["snake"][0] == [19, 7] and st["tick"] == 15
    g.run(1000)
    assert g.state()["tick"] == 15


def test_snake_tick_is_game_time(open_game):
    g = open_game("snake", seed=0)
    g.run(149)
    assert g.state()["tick"] == 0
    g.run(1)
    assert g.state()["tick"] == 1
    g.run(450)
    assert g.state()["tick"] == 4


def test_snake_turns_apply_on_next_tick_and_reverse_is_ignored(open_game):
    g = open_game("snake", seed=0)
    g.press("left")  # reverse: ignored
    g.page.keyboard.press("s")  # WASD
    st = g.state()
    assert st["dir"] == "right" and st["queue"] == ["down"]
    g.run(150)
    st = g.state()
    assert st["dir"] == "down" and st["snake"][0] == [5, 8] and st["queue"] == []


def test_snake_swipe_steers(open_game):
    g = open_game("snake", seed=0)
    mouse = g.page.mouse
    mouse.move(400, 300)
    mouse.down()
    mouse.move(405, 340, steps=4)
    mouse.move(408, 380, steps=4)
    mouse.up()
    g.run(150)
    assert g.state()["dir"] == "down"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_snake_player_scores_15(open_game, seed):
    g = open_game("snake", seed=seed)
    st = g.state()
    tick_ms = st["tickMs"]
    while not st["gameOver"] and st["score"] < 15 and st["tick"] < 2000:
        g.press(snake_policy(st))
        g.run(tick_ms)
        nxt = g.state()
        assert nxt["tick"] == st["tick"] + 1 or nxt["gameOver"]
        st = nxt
    assert st["score"] >= 15, st


# -------------------------------------------------------------------- 2048


def _slide_row_left(row: list[int]) -> tuple[list[int], int]:
    tiles = [v for v in row if v]
    out, gain, i = [], 0, 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(2 * tiles[i])
            gain += 2 * tiles[i]
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (4 - len(out)), gain


def _expected_move(board: list[list[int]], direction: str) -> tuple[list[list[int]], int]:
    """The board after a move, before the new tile, and the points it scores."""
    turns = {"left": 0, "down": 1, "right": 2, "up": 3}[direction]

    def rot(b):  # clockwise
        return [list(r) for r in zip(*b[::-1])]

    b = board
    for _ in range(turns):
        b = rot(b)
    rows = [_slide_row_left(r) for r in b]
    b, gain = [r for r, _ in rows], sum(g for _, g in rows)
    for _ in range((4 - turns) % 4):
        b = rot(b)
    return b, gain


def _check_move(before: dict, after: dict, direction: str) -> None:
    expected, gain = _expected_move(before["board"], direction)
    if expected == before["board"]:
        assert after["board"] == before["board"] and after["moves"] == before["moves"]
        return
    diff = [(r, c) for r in range(4) for c in range(4) if after["board"][r][c] != expected[r][c]]
    assert len(diff) == 1, (before, after, direction)
    r, c = diff[0]
    assert expected[r][c] == 0 and after["board"][r][c] in (2, 4)
    assert after["score"] == before["score"] + gain
    assert after["moves"] == before["moves"] + 1


def test_2048_swipe_and_wasd_move(open_game):
    g = open_game("2048", seed=5)
    before = g.state()
    mouse = g.page.mouse
    mouse.move(300, 350)
    mouse.down()
    mouse.move(340, 352, steps=3)
    mouse.move(420, 355, steps=3)
    mouse.up()
    after = g.state()
    _check_move(before, after, "right")
    g.page.keyboard.press("w")
    _check_move(after, g.state(), "up")


def test_2048_picture_is_final_100ms_after_a_move(open_game):
    g = open_game("2048", seed=4)
    g.press("left")
    g.run(50)
    assert g.state()["animating"] is True
    mid = g.shot()
    g.run(50)
    assert g.state()["animating"] is False
    final = g.shot()
    g.run(1000)
    assert final != mid and g.shot() == final


def test_2048_random_play_follows_the_rules_until_game_over(open_game):
    rnd = random.Random(1)
    g = open_game("2048", seed=11)
    st = g.state()
    for _ in range(2000):
        if st["gameOver"]:
            break
        direction = rnd.choice(["up", "down", "left", "right"])
        g.press(direction)
        g.run(rnd.choice([0, 20, 50, 200]))
        nxt = g.state()
        _check_move(st, nxt, direction)
        st = nxt
    assert st["gameOver"] is True
    for direction in ("up", "down", "left", "right"):
        assert _expected_move(st["board"], direction)[0] == st["board"]
    g.run(300)
    assert g.state()["animating"] is False


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_2048_player_reaches_256(open_game, seed):
    g = open_game("2048", seed=seed)
    st = g.state()
    while not st["gameOver"] and st["maxTile"] < 256 and st["moves"] < 300:
        direction = policy_2048(st)
        g.press(direction)
        g.run(100)
        nxt = g.state()
        _check_move(st, nxt, direction)
        assert nxt["moves"] == st["moves"] + 1  # the player only picks moves that move
        st = nxt
    assert st["maxTile"] >= 256, st
