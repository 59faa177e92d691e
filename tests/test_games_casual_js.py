"""The casual HTML5 games (match-3, memory, merge, pong) in headless Chromium on a fake clock.

For each game: its card, the ``window.hybridgym`` API, determinism (same seed +
same inputs at the same game times -> same state and same screenshot bytes,
with either way of pausing the clock), that seeds matter, that doing nothing
does not reach the card's target within its step budget, and that the
scripted player in ``tasks/players/<game>.py``, driven through real mouse and
keyboard input one env step (``step_ms`` of game time) at a time, reaches the
target within ``max_steps``. A few checks of each game's rules come last
(memory's state must not leak faces never seen; pong's two players).
"""

from __future__ import annotations

import pytest

from tests.gamejs import browser, open_game  # noqa: F401  (fixtures)
from tests.gamejs import (NEEDS_CHROMIUM, act, check_api, check_card, check_same_run_twice, check_seeds_differ, idle,
                          play, player)

pytestmark = NEEDS_CHROMIUM

GAMES = ["match-3", "memory", "merge", "pong"]


def cell_point(card: dict, r: int, c: int) -> tuple[int, int]:
    grid = card["grid"]
    return int(grid["x0"] + (c + 0.5) * grid["cell_w"]), int(grid["y0"] + (r + 0.5) * grid["cell_h"])


# ------------------------------------------------------------------------ cards


@pytest.mark.parametrize("name", GAMES)
def test_card(name):
    card = check_card(name)
    if name == "pong":
        assert card["grid"] is None and card["keys"] == ["w", "s"] and card["query"] == {"ai": "right"}
        assert callable(player(name).policy_right)
        assert set(card["players"]["right"]["keys"]) == {"up", "down"}
    else:
        assert card["keys"] == [] and card["grid"] is not None


# -------------------------------------------------------------------------- API


@pytest.mark.parametrize("name", GAMES)
def test_api(open_game, name):
    g = open_game(name, seed=3)
    api, st = check_api(g)
    assert (api["level"], api["lives"]) == (1, 1)
    card = player(name).CARD
    if card["grid"] is not None:
        assert st["grid"] == card["grid"]
    if name == "match-3":
        assert (st["rows"], st["cols"]) == (8, 8) and len(st["colors"]) == 6
        assert {v for row in st["board"] for v in row} <= set(range(6))
        assert st["movesLeft"] == st["maxMoves"] == 30 and st["selected"] is None
        from hybridgym.tasks.players.match_3 import best_swap, find_matches
        assert not find_matches(st["board"]) and best_swap(st["board"]) is not None
    elif name == "memory":
        assert len(st["cards"]) == 16 and st["totalPairs"] == 8
        assert all(c["face"] is None and c["status"] == "down" and not c["seen"] for c in st["cards"])
    elif name == "merge":
        assert (st["rows"], st["cols"]) == (5, 5)
        assert {v for row in st["board"] for v in row} <= {2, 4, 8}
        assert st["merges"] == 0 and st["maxTile"] <= 8
    else:
        assert st["scores"] == [0, 0] and g.page.evaluate("hybridgym.scores()") == [0, 0]
        assert st["serving"] is True and st["ai"] == "right" and st["paddles"]["right"]["ai"] is True
        assert st["field"]["top"] < st["ball"]["y"] < st["field"]["bottom"]


# ----------------------------------------------------------------- determinism

# (game ms to run, then the input) pairs; "P" = the scripted player's action for the state then,
# which is the same in both runs exactly when the runs agree.
_M3 = player("match-3").CARD
_MEM = player("memory").CARD
_MRG = player("merge").CARD
SCRIPTS = {
    "match-3": [(0, "P"), (30, "P"), (40, "P"), (10, "P"), (100, ("click", cell_point(_M3, 0, 0))),
                (20, ("click", cell_point(_M3, 0, 2))), (50, ("click", cell_point(_M3, 0, 0))),
                (16, ("click", cell_point(_M3, 0, 1))), (200, "P"), (60, "P"), (90, None), (300, None)],
    "memory": [(0, "P"), (50, "P"), (60, "P"), (500, "P"), (700, "P"), (16, "P"), (1000, "P"), (30, "P"),
               (999, None), (1, None), (200, None)],
    "merge": [(0, "P"), (30, "P"), (45, "P"), (100, ("click", cell_point(_MRG, 2, 2))), (16, "P"), (60, "P"),
              (250, "P"), (33, "P"), (41, None), (200, None)],
    "pong": [(0, "P"), (37, ("key", "w")), (100, "P"), (250, ("key", "s")), (500, "P"), (333, "P"),
             (100, ("key", "ArrowDown")), (700, "P"), (41, "P"), (900, None), (1200, "P"), (100, None)],
}


def _sender(name: str, what):
    """The script step's send(): the player's action ("P"), a click or a key press."""
    if what is None:
        return None
    if what == "P":
        return lambda g, i: act(g, player(name).policy(g.state()))
    if what[0] == "click":
        return lambda g, i: g.page.mouse.click(*what[1])
    return lambda g, i: g.page.keyboard.press(what[1])


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_inputs_same_run(open_game, name):
    check_same_run_twice(open_game, name, [(ms, _sender(name, what)) for ms, what in SCRIPTS[name]])


@pytest.mark.parametrize("name", GAMES)
def test_seeds_differ(open_game, name):
    first, second = open_game(name, seed=1), open_game(name, seed=2)
    if name == "memory":  # all cards start face down: turn one over to see the layouts differ
        for g in (first, second):
            g.page.mouse.click(*cell_point(_MEM, 0, 0))
            g.run(200)  # past the flip
        assert first.state()["cards"][0]["face"] != second.state()["cards"][0]["face"]
    check_seeds_differ(first, second)


# --------------------------------------------------------- the card's target


@pytest.mark.parametrize("name", GAMES)
def test_doing_nothing_does_not_reach_the_target(open_game, name):
    st = idle(open_game(name, seed=0), player(name).CARD)
    if name == "pong":  # the computer wins
        assert st["scores"] == [0, 5] and st["gameOver"] is True


PLAYER_SEEDS = {"match-3": [0, 1], "memory": [0, 1], "merge": [0, 1], "pong": [0, 1]}


@pytest.mark.parametrize("name,seed", [(n, s) for n in GAMES for s in PLAYER_SEEDS[n]])
def test_player_reaches_target(open_game, name, seed):
    play(open_game(name, seed=seed), name, until_over=False)


# --------------------------------------------------------------- game rules


def test_match3_swaps(open_game):
    from hybridgym.tasks.players.match_3 import best_swap, find_matches
    g = open_game("match-3", seed=5)
    st = g.state()
    board = st["board"]
    # a swap that makes no match is undone and costs no move
    bad = next(((r, c), (r, c + 1)) for r in range(8) for c in range(7)
               if not find_matches([row[:c] + [row[c + 1], row[c]] + row[c + 2:] if i == r else row
                                    for i, row in enumerate(board)]))
    g.page.mouse.click(*cell_point(_M3, *bad[0]))
    assert g.state()["selected"] == list(bad[0])
    g.page.mouse.click(*cell_point(_M3, *bad[1]))
    after = g.state()
    assert after["board"] == board and after["movesLeft"] == 30 and after["invalidSwaps"] == 1
    assert after["selected"] is None
    # a click on the selected gem unselects it
    g.page.mouse.click(*cell_point(_M3, 3, 3))
    g.page.mouse.click(*cell_point(_M3, 3, 3))
    assert g.state()["selected"] is None
    # a scoring swap, by dragging one gem onto its neighbour
    a, b = best_swap(board)
    g.drag(cell_point(_M3, *a), cell_point(_M3, *b), steps=5)
    after = g.state()
    assert after["movesLeft"] == 29 and after["score"] > 0 and after["score"] == after["lastGain"]
    assert not find_matches(after["board"])  # everything that matched has been cleared


def test_memory_state_shows_only_what_was_seen(open_game):
    g = open_game("memory", seed=4)
    g.page.mouse.click(*cell_point(_MEM, 0, 0))
    st = g.state()
    assert st["open"] == [0] and st["cards"][0]["status"] == "up" and st["cards"][0]["face"] is not None
    assert all(c["face"] is None for c in st["cards"][1:])
    # turn over cards until a miss: it stays on show for 1000 ms of game time, then turns back
    for i in range(1, 16):
        g.page.mouse.click(*cell_point(_MEM, i // 4, i % 4))
        st = g.state()
        if st["missPending"]:
            break
        if len(st["open"]) == 0:  # a lucky pair: start the next turn
            continue
    a, b = st["open"]
    g.run(999)
    assert g.state()["missPending"] is True
    g.run(1)
    st = g.state()
    assert not st["missPending"] and st["cards"][a]["status"] == st["cards"][b]["status"] == "down"
    seen = {c["index"] for c in st["cards"] if c["seen"]}
    assert seen == set(range(i + 1))
    assert all((c["face"] is not None) == (c["index"] in seen) for c in st["cards"])
    # the hidden layout is nowhere on the page's globals
    assert g.page.evaluate("Object.keys(window).filter(k => /face|card|layout/i.test(k))") == []


def test_merge_click_and_drag(open_game):
    import math

    from hybridgym.tasks.players.merge import apply_merge, merges

    def exponents(board):
        return tuple(tuple(int(math.log2(v)) for v in row) for row in board)

    g = open_game("merge", seed=6)
    st = g.state()
    a, z = merges(exponents(st["board"]))[0]
    expected, gain = apply_merge(exponents(st["board"]), a, z)
    g.page.mouse.click(*cell_point(_MRG, *a))
    assert g.state()["selected"] == list(a)
    g.page.mouse.click(*cell_point(_MRG, *z))
    after = g.state()
    assert after["merges"] == 1 and after["score"] == gain and after["selected"] is None
    # the merged tile doubled, the moved tile's column closed up, a new tile dropped in at its top
    got = exponents(after["board"])
    for r in range(5):
        for c in range(5):
            if (r, c) == (0, a[1]):
                assert got[r][c] in (1, 2, 3)
            else:
                assert got[r][c] == expected[r][c]
    # a drag of a tile onto an equal neighbour merges it too
    a2, z2 = merges(got)[-1]
    g.drag(cell_point(_MRG, *a2), cell_point(_MRG, *z2))
    assert g.state()["merges"] == 2


def test_pong_key_press_moves_a_fixed_distance(open_game):
    g = open_game("pong", seed=0, query={})   # no computer player: both paddles are keyboard players
    st = g.state()
    y_left, y_right = st["paddles"]["left"]["y"], st["paddles"]["right"]["y"]
    g.page.keyboard.press("w")
    g.page.keyboard.press("ArrowDown")
    g.run(30)
    st = g.state()
    assert st["paddles"]["left"]["moving"] == -1 and st["paddles"]["right"]["moving"] == 1
    g.run(170)
    st = g.state()
    step = st["paddleSpeed"] * st["moveMs"]
    assert st["paddles"]["left"]["y"] == pytest.approx(y_left - step)
    assert st["paddles"]["right"]["y"] == pytest.approx(y_right + step)
    assert st["paddles"]["left"]["moving"] == 0 and st["paddles"]["right"]["moving"] == 0


def test_pong_two_scripted_players_keep_a_rally(open_game):
    mod = player("pong")
    g = open_game("pong", seed=2, query={})
    for _ in range(150):
        st = g.state()
        act(g, mod.policy(st))
        act(g, mod.policy_right(st))
        g.run(100)
    st = g.state()
    assert st["hits"] >= 6 and st["scores"] == [0, 0]   # both return every ball (so far)
    assert g.page.evaluate("hybridgym.score()") == 0
