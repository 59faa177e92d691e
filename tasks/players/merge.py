"""Scripted player and game card for merge (a 5x5 "2248"-like number puzzle): a depth-limited search over merges.

A merge moves a tile onto an equal neighbour, which doubles; the column of the
tile that moved closes up and a new tile (unknown to the player: it comes from
the game's seeded PRNG) drops in at its top. The player searches the merges two
deep on a copy of the board, with each new tile as an unknown that matches
nothing, and scores a line of play by the points it makes plus a heuristic of
the board it leaves: many possible merges (so the game goes on), equal values
kept close together, and big tiles low on the board and away from the falling
new tiles.

A merge takes two clicks (one per env step): the tile, then its neighbour. The
policy is stateless: it reads the selection from the state.
"""

from __future__ import annotations

import math

from ._common import adjacent, card, or_wait, two_click_move

CARD = card("merge")

UNKNOWN = 0
Cell = tuple[int, int]
Board = tuple[tuple[int, ...], ...]


@or_wait
def policy(state: dict) -> dict | None:
    """Next click: the tile of the best merge, or its target if the tile is already selected (or the
    selection, to drop it, if a click on the tile would merge the selection into it)."""
    board = tuple(tuple(int(math.log2(v)) for v in row) for row in state["board"])
    move = best_merge(board)
    return two_click_move(state, move, lambda sel: adjacent(sel, move[0]) and _at(board, sel) == _at(board, move[0]))


def merges(board: Board) -> list[tuple[Cell, Cell]]:
    """All legal merges (tile, target)."""
    rows, cols = len(board), len(board[0])
    out = []
    for r in range(rows):
        for c in range(cols):
            e = board[r][c]
            if e == UNKNOWN:
                continue
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < rows and 0 <= c2 < cols and board[r2][c2] == e:
                    out.append(((r, c), (r2, c2)))
    return out


def apply_merge(board: Board, a: Cell, z: Cell) -> tuple[Board, int]:
    """The board after merging `a` into `z` (the new top tile unknown) and the points made."""
    b = [list(row) for row in board]
    e = b[z[0]][z[1]] + 1
    b[z[0]][z[1]] = e
    c = a[1]
    for r in range(a[0], 0, -1):
        b[r][c] = b[r - 1][c]
    b[0][c] = UNKNOWN
    return tuple(tuple(row) for row in b), 2**e


def best_merge(board: Board, depth: int = 2) -> tuple[Cell, Cell] | None:
    best, best_value = None, -math.inf
    for a, z in merges(board):
        after, gain = apply_merge(board, a, z)
        value = gain + _value(after, depth - 1)
        if value > best_value:
            best, best_value = (a, z), value
    return best


def _value(board: Board, depth: int) -> float:
    if depth == 0:
        return heuristic(board)
    best = -math.inf
    for a, z in merges(board):
        after, gain = apply_merge(board, a, z)
        best = max(best, 0.9 * gain + _value(after, depth - 1))
    # no known merge: the unknown new tiles may still give one, but it is a bad sign
    return best if best > -math.inf else heuristic(board) - 400.0


def heuristic(board: Board) -> float:
    rows, cols = len(board), len(board[0])
    n_merges = 0
    rough = 0.0
    weight = 0.0
    for r in range(rows):
        for c in range(cols):
            e = board[r][c]
            if e == UNKNOWN:
                continue
            weight += (r + 1) * 2**e
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < rows and c2 < cols and board[r2][c2] != UNKNOWN:
                    f = board[r2][c2]
                    if f == e:
                        n_merges += 1
                    else:
                        rough += abs(f - e)
    return 30.0 * min(n_merges, 6) - 4.0 * rough + 0.02 * weight


def _at(board: Board, cell: Cell) -> int:
    return board[cell[0]][cell[1]]
