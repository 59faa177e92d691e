"""Scripted Maze player and game card: walks the shortest path (BFS) from the player to the exit, one arrow key a step.

The maze is read from ``hybridgym.state()``: ``open[row][col]`` is a bitmask of
the open sides of a cell (1 up, 2 right, 4 down, 8 left), ``player`` and
``exit`` are ``[col, row]``. In a perfect maze the BFS path is the only path.
"""

from __future__ import annotations

from collections import deque

from ..kit import actions as act
from ._common import WAIT, card, or_wait

CARD = card("maze")

# name, (dx, dy), bit of the open side
_MOVES = (("up", 0, -1, 1), ("right", 1, 0, 2), ("down", 0, 1, 4), ("left", -1, 0, 8))


@or_wait
def policy(state: dict) -> dict:
    """The first step of the shortest path to the exit."""
    path = shortest_path(state["open"], tuple(state["player"]), tuple(state["exit"]))
    if not path:
        return WAIT
    return act.keys(path[0])


def shortest_path(open_sides: list[list[int]], start: tuple[int, int], goal: tuple[int, int]) -> list[str] | None:
    """Directions from ``start`` to ``goal`` (cells are (col, row)), None if unreachable."""
    rows, cols = len(open_sides), len(open_sides[0])
    parent: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            out = []
            while parent[cell] is not None:
                cell, name = parent[cell][0], parent[cell][1]
                out.append(name)
            return out[::-1]
        x, y = cell
        for name, dx, dy, bit in _MOVES:
            nxt = (x + dx, y + dy)
            if open_sides[y][x] & bit and 0 <= nxt[0] < cols and 0 <= nxt[1] < rows and nxt not in parent:
                parent[nxt] = (cell, name)
                queue.append(nxt)
    return None
