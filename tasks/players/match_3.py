"""Scripted player and game card for match-3: a greedy swap search that simulates the known part of each cascade.

The board (``state["board"]``, rows of colour indices) is fully visible, but the
gems that drop in after a clear come from the game's seeded PRNG, which the
player does not know. For each of the 112 neighbour swaps the player plays the
swap out on a copy of the board with the new gems as unknowns (they never
match), so it scores the swap's own matches and every cascade that the gems
already on the board would make. It takes the swap with the most points, and
among equals the one lowest on the board (clearing low stirs more gems, so it
gives more chances of lucky cascades with the unknown new gems).

A swap takes two clicks (one per env step): the first gem, then its
neighbour. The policy is stateless: it reads the selection from the state.
"""

from __future__ import annotations

from ._common import adjacent, card, or_wait, two_click_move

CARD = card("match-3")

UNKNOWN = -1
Cell = tuple[int, int]


@or_wait
def policy(state: dict) -> dict | None:
    """Next click: the first gem of the best swap, or its neighbour if the first is already selected
    (or the selection, to drop it, if a click on the first gem would swap it with the selection)."""
    move = best_swap([list(row) for row in state["board"]])
    return two_click_move(state, move, lambda sel: adjacent(sel, move[0]), either_way=True)


def best_swap(board: list[list[int]]) -> tuple[Cell, Cell] | None:
    """The swap with the most sure points (ties: lowest on the board), or None if no swap matches."""
    rows, cols = len(board), len(board[0])
    best, best_key = None, None
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0)):
                r2, c2 = r + dr, c + dc
                if r2 >= rows or c2 >= cols:
                    continue
                b = [row[:] for row in board]
                b[r][c], b[r2][c2] = b[r2][c2], b[r][c]
                points, cleared = simulate(b)
                if not points:
                    continue
                key = (points, cleared, r2, -c)
                if best_key is None or key > best_key:
                    best, best_key = ((r, c), (r2, c2)), key
    return best


def simulate(b: list[list[int]]) -> tuple[int, int]:
    """Clear matches and let gems fall (in place), new gems unknown; returns (points, gems cleared)."""
    rows, cols = len(b), len(b[0])
    points = cleared = 0
    level = 0
    while True:
        hit = find_matches(b)
        if not hit:
            return points, cleared
        level += 1
        points += 10 * level * len(hit)
        cleared += len(hit)
        for c in range(cols):
            col = [b[r][c] for r in range(rows - 1, -1, -1) if (r, c) not in hit]
            for i, r in enumerate(range(rows - 1, -1, -1)):
                b[r][c] = col[i] if i < len(col) else UNKNOWN


def find_matches(b: list[list[int]]) -> set[Cell]:
    """Cells in runs of 3+ equal known gems, in rows or columns."""
    rows, cols = len(b), len(b[0])
    hit: set[Cell] = set()
    for r in range(rows):
        c = 0
        while c < cols:
            n = 1
            while c + n < cols and b[r][c] != UNKNOWN and b[r][c + n] == b[r][c]:
                n += 1
            if n >= 3:
                hit.update((r, c + k) for k in range(n))
            c += n
    for c in range(cols):
        r = 0
        while r < rows:
            n = 1
            while r + n < rows and b[r][c] != UNKNOWN and b[r + n][c] == b[r][c]:
                n += 1
            if n >= 3:
                hit.update((r + k, c) for k in range(n))
            r += n
    return hit
