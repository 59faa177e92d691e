"""The real-time HTML5 games (falling-blocks, breakout, flappy, whack-a-mole) in headless Chromium on a fake clock.

For each game: the ``window.hybridgym`` API, determinism (same seed + same
inputs at the same game times -> same state and same screenshot bytes, with
either way of pausing the clock), that seeds matter, that doing nothing does
not reach the card's target within its step budget, and that the scripted
player in ``tasks/players/<game>.py``, driven through real keyboard and mouse
input one env step (``step_ms`` of game time) at a time, reaches the target
within ``max_steps``. A few checks of each game's rules and inputs come last.
"""

from __future__ import annotations

import pytest

from tests.gamejs import browser, open_game  # noqa: F401  (fixtures)
from tests.gamejs import (NEEDS_CHROMIUM, act, check_api, check_card, check_same_run_twice, check_seeds_differ, idle,
                          play, player, sending)

pytestmark = NEEDS_CHROMIUM

GAMES = ["falling-blocks", "breakout", "flappy", "whack-a-mole"]
# ------------------------------------------------------------------------ cards


@pytest.mark.parametrize("name", GAMES)
def test_card(name):
    check_card(name)


# -------------------------------------------------------------------------- API


@pytest.mark.parametrize("name", GAMES)
def test_api(open_game, name):
    api, st = check_api(open_game(name, seed=3))
    assert api["level"] == 1 and api["lives"] == (3 if name in ("breakout", "whack-a-mole") else 1)
    if name == "falling-blocks":
        assert (st["cols"], st["rows"]) == (10, 20) and len(st["board"]) == 20
        assert all(row == "." * 10 for row in st["board"])
        assert st["piece"]["type"] in "IJLOSTZ" and len(st["piece"]["cells"]) == 4 and len(st["next"]) == 3
    elif name == "breakout":
        assert st["ball"]["stuck"] is True and st["bricksLeft"] == 96
        assert sum(map(sum, st["silver"])) == 8
    elif name == "flappy":
        assert st["started"] is False and st["pipes"] == []
    else:
        assert len(st["holes"]) == 9 and st["moles"] == [] and st["timeLeftMs"] == 60000
        grid = player(name).CARD["grid"]
        assert (grid["x0"], grid["y0"], grid["cell_w"], grid["cell_h"]) == (
            st["grid"]["x0"], st["grid"]["y0"], st["grid"]["cellW"], st["grid"]["cellH"])


# ------------------------------------------------------------------ determinism

# (clock ms to run, action or None) pairs; the times are deliberately uneven
K = {k: {"action_type": "hotkey", "keys": [k]} for k in ("up", "down", "left", "right", "space")}


def _click(x, y):
    return {"action_type": "click", "x": x, "y": y}


SCRIPTS = {
    "falling-blocks": [(0, K["left"]), (130, K["up"]), (75, K["space"]), (500, K["right"]), (30, K["right"]),
                       (260, K["down"]), (905, K["space"]), (1000, None)],
    "breakout": [(0, K["left"]), (150, K["space"]), (333, _click(500, 580)), (410, K["right"]), (95, None),
                 (700, _click(250, 300)), (1210, K["left"])],
    "flappy": [(40, K["space"]), (210, K["space"]), (125, _click(400, 300)), (330, None), (180, K["up"]),
               (640, K["space"]), (505, None)],
    "whack-a-mole": [(300, _click(220, 190)), (700, None), (110, _click(400, 340)), (430, _click(580, 490)),
                     (905, _click(220, 490)), (2000, None)],
}


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_inputs_same_run(open_game, name):
    check_same_run_twice(open_game, name, [(ms, action and sending(action)) for ms, action in SCRIPTS[name]])


@pytest.mark.parametrize("name", GAMES)
def test_seeds_differ(open_game, name):
    first, second = open_game(name, seed=1), open_game(name, seed=2)
    for g in (first, second):
        if name == "flappy":
            act(g, K["space"])  # the pipes start to come after the first flap
        g.run(1500)
    check_seeds_differ(first, second)


# ---------------------------------------------------------- doing nothing / player


@pytest.mark.parametrize("name", GAMES)
def test_doing_nothing_does_not_reach_the_target(open_game, name):
    st = idle(open_game(name, seed=0), player(name).CARD, check_every=50)
    if name == "whack-a-mole":  # the round is over after 60 s of game time
        assert st["gameOver"] is True and st["cause"] == "time" and st["timeLeftMs"] == 0 and st["escaped"] > 60


PLAYER_SEEDS = {"falling-blocks": [0, 1], "breakout": [0, 1], "flappy": [0, 1], "whack-a-mole": [0, 1]}


@pytest.mark.parametrize("name,seed", [(n, s) for n in GAMES for s in PLAYER_SEEDS[n]])
def test_player_reaches_the_target(open_game, name, seed):
    play(open_game(name, seed=seed), name)


# ------------------------------------------------------------- rules and inputs


def test_falling_blocks_gravity_moves_and_drop(open_game):
    g = open_game("falling-blocks", seed=5)
    st = g.state()
    assert st["gravityMs"] == 800
    y0, x0 = st["piece"]["y"], st["piece"]["x"]
    g.run(799)
    assert g.state()["piece"]["y"] == y0
    g.run(1)
    assert g.state()["piece"]["y"] == y0 + 1
    g.page.keyboard.press("ArrowLeft")
    g.page.keyboard.press("a")
    assert g.state()["piece"]["x"] == x0 - 2
    g.page.keyboard.press("ArrowDown")
    assert g.state()["piece"]["y"] == y0 + 2
    g.page.keyboard.press(" ")
    after = g.state()
    assert after["pieces"] == 2 and sum(row.count(".") for row in after["board"]) == 200 - 4
    assert after["piece"]["type"] == st["next"][0]
    # a tap rotates (except the O piece)
    rot, typ = after["piece"]["rot"], after["piece"]["type"]
    g.page.mouse.click(400, 300)
    assert g.state()["piece"]["rot"] == (rot if typ == "O" else (rot + 1) % 4)


def test_falling_blocks_stack_to_the_top_ends_the_game(open_game):
    g = open_game("falling-blocks", seed=2)
    for _ in range(60):
        g.page.keyboard.press(" ")
        if g.state()["gameOver"]:
            break
    st = g.state()
    assert st["gameOver"] is True and st["piece"] is None and st["score"] == 0
    g.run(2000)
    later = g.state()
    assert later.pop("timeMs") == st.pop("timeMs") + 2000 and later == st


def test_breakout_keys_mouse_launch_and_lives(open_game):
    g = open_game("breakout", seed=4)
    assert g.state()["paddle"]["x"] == 400
    g.page.keyboard.press("ArrowLeft")
    assert g.state()["paddle"]["x"] == 360
    g.page.keyboard.down("ArrowRight")  # held: keeps moving at 600 px/s of game time
    g.run(100)
    g.page.keyboard.up("ArrowRight")
    st = g.state()
    assert st["paddle"]["x"] == pytest.approx(460) and st["ball"]["stuck"] is True
    g.page.mouse.move(200, 400)
    assert g.state()["paddle"]["x"] == 200
    g.page.keyboard.press(" ")
    st = g.state()
    assert st["ball"]["stuck"] is False and st["ball"]["vy"] < 0
    g.page.mouse.move(700, 400)  # away from the ball: it is lost
    for _ in range(100):
        g.run(100)
        if g.state()["lives"] < 3:
            break
    st = g.state()
    assert st["lives"] == 2 and st["ball"]["stuck"] is True
    g.run(3000)  # a waiting ball launches by itself after 3 s
    assert g.state()["ball"]["stuck"] is False


def test_flappy_waits_then_flaps_and_falls(open_game):
    g = open_game("flappy", seed=0)
    g.run(2000)
    st = g.state()
    assert st["started"] is False and st["bird"]["y"] == 260
    g.page.mouse.click(400, 300)
    st = g.state()
    assert st["started"] is True and st["bird"]["vy"] == st["flapV"]
    g.run(200)
    assert g.state()["bird"]["y"] < 260
    for _ in range(30):
        g.run(100)
    st = g.state()
    assert st["gameOver"] is True and st["cause"] == "ground" and st["score"] == 0


def test_whack_a_mole_hits_and_empty_clicks(open_game):
    g = open_game("whack-a-mole", seed=6)
    st = g.state()
    while not st["moles"]:
        g.run(100)
        st = g.state()
    mole = st["moles"][0]
    empty = next(h for h in st["holes"] if not h["mole"])
    g.page.mouse.click(mole["x"], mole["y"])
    st = g.state()
    assert st["score"] == 1 and st["lives"] == 3 and st["holes"][mole["hole"]]["whacked"] is True
    g.page.mouse.click(mole["x"], mole["y"])  # the whacked mole: nothing
    g.page.mouse.click(20, 580)  # outside the holes: nothing
    assert (g.state()["score"], g.state()["lives"]) == (1, 3)
    x, y, w, h = empty["rect"]
    for lives in (2, 1, 0):
        g.page.mouse.click(x + w / 2, y + h / 2)
        assert g.state()["lives"] == lives
    st = g.state()
    assert st["gameOver"] is True and st["cause"] == "lives" and st["emptyClicks"] == 3
