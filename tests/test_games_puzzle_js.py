"""The puzzle games (minesweeper, sokoban, maze, lights-out, pipes) in a real headless Chromium on a fake clock.

For each game: the ``window.hybridgym`` API, determinism (same seed + same
inputs at the same game times -> same state and same screenshot bytes), that
seeds matter, that doing nothing does not reach the card's target within its
step budget, a few rules, and that the scripted player in
``tasks/players/<game>.py`` reaches the target within ``max_steps`` when driven
through real input (keyboard presses and mouse clicks at the policy's points,
then ``step_ms`` of game time).
"""

from __future__ import annotations

import pytest

from tests.gamejs import browser, open_game  # noqa: F401  (fixtures)
from tests.gamejs import (KEY, NEEDS_CHROMIUM, act, check_api, check_card, check_same_run_twice, check_seeds_differ,
                          idle, play, player)

pytestmark = NEEDS_CHROMIUM

GAMES = ["minesweeper", "sokoban", "maze", "lights-out", "pipes"]


def cell_click(st: dict, r: int, c: int, kind: str = "click") -> dict:
    grid = st["grid"]
    return {"action_type": kind, "x": int(grid["x0"] + (c + 0.5) * grid["cell_w"]),
            "y": int(grid["y0"] + (r + 0.5) * grid["cell_h"])}


# --------------------------------------------------------------------------- API


@pytest.mark.parametrize("name", GAMES)
def test_api_card_and_doing_nothing(open_game, name):
    g = open_game(name, seed=3)
    api, st = check_api(g)
    assert api["lives"] == 1 and api["level"] >= 1

    card = check_card(name)
    if card["grid"] is not None:  # click games: the card's grid is the page's grid
        assert card["keys"] == []
        assert {k: st["grid"][k] for k in card["grid"]} == card["grid"]
    else:
        assert {"up", "down", "left", "right"} <= set(card["keys"])

    # doing nothing for the whole step budget scores nothing
    assert idle(g, card, check_every=50)["score"] == 0 and g.score() == 0


# ----------------------------------------------------------------- determinism

# clock ms to run before each scripted step; the actions come from the scripted
# player in the first run and are replayed in the second
TIMES = [0, 40, 100, 0, 250, 16, 100, 700, 33, 100, 0, 1600, 100, 60, 100, 100, 2000, 5, 100, 1500]


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_inputs_same_run(open_game, name):
    policy = player(name).policy
    actions: list[dict] = []

    def send(g, i):   # the player's action in the first run, the same again in the second
        if i == len(actions):
            actions.append(policy(g.state()))
        act(g, actions[i])

    check_same_run_twice(open_game, name, [(ms, send) for ms in TIMES], shot_at=lambda i: i % 5 == 4)


@pytest.mark.parametrize("name", GAMES)
def test_seeds_differ(open_game, name):
    first, second = open_game(name, seed=1), open_game(name, seed=2)
    if name == "minesweeper":  # mines are placed at the first click
        for g in (first, second):
            act(g, cell_click(g.state(), 4, 4))
    check_seeds_differ(first, second)


# ------------------------------------------------------------------ players


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", GAMES)
def test_player_reaches_target(open_game, name, seed):
    play(open_game(name, seed=seed), name)


# ------------------------------------------------------------------- rules


def test_minesweeper_first_click_opens_and_flags(open_game):
    g = open_game("minesweeper", seed=11)
    st = g.state()
    assert st["board"] == ["#" * 9] * 9 and st["started"] is False
    # right click flags, left click on a flag does nothing, right click again unflags
    act(g, cell_click(st, 0, 0, "right_single"))
    st = g.state()
    assert st["board"][0][0] == "F" and st["flags"] == 1 and st["minesLeft"] == 9
    act(g, cell_click(st, 0, 0))
    assert g.state()["board"][0][0] == "F" and g.state()["started"] is False
    act(g, cell_click(st, 0, 0, "right_single"))
    # the first reveal is safe and opens the 3x3 around it
    act(g, cell_click(st, 4, 4))
    st = g.state()
    assert st["started"] and not st["gameOver"] and st["board"][4][4] == "0"
    assert all(st["board"][r][c] in "012345678" for r in (3, 4, 5) for c in (3, 4, 5))
    assert st["score"] == st["revealed"] == sum(ch.isdigit() for row in st["board"] for ch in row)
    # nothing but '#', 'F' and digits is visible while the game is on
    assert set("".join(st["board"])) <= set("#F012345678")
    # flag mode: a tap flags
    b = st["flagButton"]
    hidden = next((r, c) for r in range(9) for c in range(9) if st["board"][r][c] == "#")
    g.page.mouse.click(b["x"] + b["w"] / 2, b["y"] + b["h"] / 2)
    act(g, cell_click(st, *hidden))
    st = g.state()
    assert st["flagMode"] is True and st["board"][hidden[0]][hidden[1]] == "F"


def test_minesweeper_mine_ends_the_game(open_game):
    from hybridgym.tasks.players.minesweeper import mine_probabilities

    g = open_game("minesweeper", seed=5)
    st = g.state()
    for _ in range(10):  # play safe cells until some mine is certain
        act(g, player("minesweeper").policy(st))
        st = g.state()
        probs = mine_probabilities(st["board"], st["mines"])
        sure = [cell for cell, p in probs.items() if p > 0.999999]
        if sure:
            break
    assert sure and not st["gameOver"], st
    act(g, cell_click(st, *sure[0]))
    st = g.state()
    assert st["gameOver"] is True and st["won"] is False
    assert st["board"][sure[0][0]][sure[0][1]] == "X" and "".join(st["board"]).count("*") == 9


def test_sokoban_push_undo_restart(open_game):
    g = open_game("sokoban", seed=0)  # level 1
    st = g.state()
    assert st["level"] == 1 and st["map"][2] == "# @$#  #"
    g.page.keyboard.press("ArrowRight")  # crate against a wall: no move
    assert g.state()["map"] == st["map"] and g.state()["moves"] == 0
    g.page.keyboard.press("ArrowDown")
    g.page.keyboard.press("ArrowRight")
    g.page.keyboard.press("ArrowUp")  # push the crate up
    st2 = g.state()
    assert st2["map"][1] == "#  $   #" and st2["pushes"] == 1 and st2["moves"] == 3
    g.page.keyboard.press("z")
    st3 = g.state()
    assert st3["map"][1:4] == ["#      #", "#  $#  #", "#  @ . #"]
    assert st3["moves"] == 2 and st3["pushes"] == 0
    g.page.keyboard.press("r")
    assert g.state()["map"] == st["map"] and g.state()["moves"] == 0


def test_sokoban_solving_loads_next_level(open_game):
    from hybridgym.tasks.players.sokoban import solve

    g = open_game("sokoban", seed=8 * 5 + 7)  # the last level; then the first
    st = g.state()
    assert st["level"] == 8
    for move in solve(tuple(st["map"])):
        g.page.keyboard.press(KEY[move])
    st = g.state()
    assert st["score"] == 1 and st["level"] == 1 and st["moves"] == 0 and not st["gameOver"]


def test_maze_walls_block_and_moves_count(open_game):
    g = open_game("maze", seed=4)
    st = g.state()
    assert st["player"] == [0, 0] and st["exit"] == [14, 10] and st["movesLeft"] == 400
    o = st["open"][0][0]
    assert o & 1 == 0 and o & 8 == 0  # the border is closed
    g.page.keyboard.press("ArrowUp")
    assert g.state()["player"] == [0, 0] and g.state()["moves"] == 0
    key = "ArrowRight" if o & 2 else "ArrowDown"
    g.page.keyboard.press(key)
    st = g.state()
    assert st["player"] == ([1, 0] if o & 2 else [0, 1]) and st["moves"] == 1 and st["movesLeft"] == 399
    # a perfect maze: cells - 1 passages
    passages = sum(bin(v).count("1") for row in st["open"] for v in row) // 2
    assert passages == 15 * 11 - 1


def test_lights_out_click_toggles_a_plus(open_game):
    g = open_game("lights-out", seed=9)
    st = g.state()
    before = [list(row) for row in st["lights"]]
    act(g, cell_click(st, 2, 0))
    after = g.state()["lights"]
    flipped = {(r, c) for r in range(5) for c in range(5) if after[r][c] != before[r][c]}
    assert flipped == {(2, 0), (1, 0), (3, 0), (2, 1)}
    assert g.state()["moves"] == 1


def test_pipes_click_rotates(open_game):
    from hybridgym.tasks.players.pipes import rot_cw

    g = open_game("pipes", seed=9)
    st = g.state()
    # find a tile that changes under rotation (not a cross)
    r, c = next((r, c) for r in range(5) for c in range(7) if st["tiles"][r][c] != 15)
    m = st["tiles"][r][c]
    act(g, cell_click(st, r, c))
    assert g.state()["tiles"][r][c] == rot_cw(m)
    act(g, cell_click(st, r, c, "right_single"))
    assert g.state()["tiles"][r][c] == m and g.state()["moves"] == 2
