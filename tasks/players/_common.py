"""What the scripted players share: their game's card, and the actions they answer with.

A game's card is data beside its page: ``assets/games/<name>/card.json`` (title, step_ms,
max_steps, target, instruction, keys, grid and, for some games, more). Actions are the
env's own (``tasks/kit/actions.py``); a player's clicks are in page pixels.
"""

from __future__ import annotations

import functools
import json
from typing import Callable

from hybridgym.assets import ASSETS

from ..kit import actions as act

WAIT = act.wait(0)   # a step of game time without input


def card(name: str) -> dict:
    """The card of game `name`, its name first."""
    return {"name": name, **json.loads((ASSETS / "games" / name / "card.json").read_text())}


def cell_centre(grid: dict, r: int, c: int) -> tuple[float, float]:
    """The page point at the centre of cell (row r, column c) of a state's `grid`."""
    return grid["x0"] + (c + 0.5) * grid["cell_w"], grid["y0"] + (r + 0.5) * grid["cell_h"]


def cell_click(grid: dict, r: int, c: int, button: str = "left") -> dict:
    """A click at the centre of cell (r, c), rounded to the nearest pixel."""
    x, y = cell_centre(grid, r, c)
    return act.click(round(x), round(y), button)


def adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two cells (row, col) are side by side."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def or_wait(policy: Callable[..., dict | None]) -> Callable[..., dict]:
    """A player's policy (state, ...) -> action that has nothing to do once the game is over, nor
    where it answers None: it waits (WAIT) then."""
    @functools.wraps(policy)
    def play(state: dict, *args) -> dict:
        action = None if state.get("gameOver") else policy(state, *args)
        return WAIT if action is None else action
    return play


def two_click_move(state: dict, move: tuple[tuple[int, int], tuple[int, int]] | None,
                   interferes: Callable[[tuple[int, int]], bool], either_way: bool = False) -> dict | None:
    """The next click towards a move made of clicks on two grid cells, a then b (a swap, a merge), or
    None without a move: b once a is selected (or a once b is, for a move that goes either way);
    the selection itself, to drop it, when a click on a would make a move with it (interferes(sel));
    else a. The click is at the cell's centre, truncated to the page's pixel."""
    if move is None:
        return None
    a, b = move
    sel = tuple(state["selected"]) if state.get("selected") else None
    if sel == a:
        target = b
    elif either_way and sel == b:
        target = a
    elif sel is not None and interferes(sel):
        target = sel
    else:
        target = a
    return act.click(*cell_centre(state["grid"], *target))
