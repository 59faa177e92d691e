"""The HTML5 games (snake, 2048) in a real headless Chromium on a fake clock.

Checks the ``window.hybridgym`` API, determinism (same seed + same inputs at
the same game times -> same state and same screenshot bytes), that seeds
matter, input by keys and swipes, and that the scripted players in
``tasks/game_players.py`` reach their scores when driven through the keyboard.
The page, its input and the checks every game gets are in ``tests/gamejs.py``.
"""

from __future__ import annotations

import random

import pytest

from hybridgym.tasks.game_players import policy_2048, snake_policy
from tests.gamejs import browser, open_game  # noqa: F401  (fixtures)
from tests.gamejs import NEEDS_CHROMIUM, check_api, check_same_run_twice, check_seeds_differ

pytestmark = NEEDS_CHROMIUM


# --------------------------------------------------------------------------- API


@pytest.mark.parametrize("name", ["snake", "2048"])
def test_api(open_game, name):
    api, st = check_api(open_game(name, seed=3))
    assert (api["level"], api["lives"]) == (1, 1)
    if name == "snake":
        assert (st["cols"], st["rows"]) == (20, 15)
        assert st["snake"] == [[5, 7], [4, 7], [3, 7]] and st["dir"] == "right"
        assert st["apple"] not in st["snake"] and st["tick"] == 0
    else:
        assert len(st["board"]) == 4 and all(len(row) == 4 for row in st["board"])
        assert sorted(v for row in st["board"] for v in row if v) in ([2, 2], [2, 4], [4, 4])
        assert st["won"] is False and st["moves"] == 0


# ----------------------------------------------------------------- determinism

SCRIPTS = {
    # (clock ms to run, key to press or None) pairs
    "snake": [(200, "down"), (100, "left"), (450, "up"), (75, "right"), (300, "right"), (160, None), (900, "down")],
    # 2048: keys arrive mid-animation (every 30-60 ms) as well as after it
    "2048": [(0, "left"), (30, "up"), (45, "right"), (300, "down"), (16, "left"), (60, "up"), (250, "right"),
             (33, "down"), (41, None)],
}


def _pressing(key: str):
    return lambda g, i: g.press(key)


@pytest.mark.parametrize("name", ["snake", "2048"])
def test_same_seed_same_inputs_same_run(open_game, name):
    check_same_run_twice(open_game, name, [(ms, key and _pressing(key)) for ms, key in SCRIPTS[name]])


@pytest.mark.parametrize("name", ["snake", "2048"])
def test_seeds_differ(open_game, name):
    check_seeds_differ(open_game(name, seed=1), open_game(name, seed=2))


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
    g.drag((400, 300), (405, 340), (408, 380))
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
    g.drag((300, 350), (340, 352), (420, 355), steps=3)
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
