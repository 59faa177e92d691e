"""Scripted Lights Out player and game card: solves the board over GF(2), then clicks the fewest-press solution.

Pressing cell j flips a fixed set of lights (itself and its 4 neighbours), so a
board b is solved by a press set x with A x = b over GF(2), A the 25x25
"flip" matrix. :func:`solve` row-reduces [A | b] (rows as Python int bitmasks),
then tries every combination of the null-space vectors (the 5x5 matrix has
rank 23, so there are 4 solutions) and keeps the one with the fewest presses.
The policy clicks the first cell of that solution; re-solving after the click
gives the same solution minus that cell, so a puzzle takes exactly the minimum
number of clicks.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from ._common import WAIT, card, cell_click, or_wait

CARD = card("lights-out")


@or_wait
def policy(state: dict) -> dict:
    """A click on the first light of the fewest-click solution of the board."""
    n = state["size"]
    board = 0
    for r, row in enumerate(state["lights"]):
        for c, ch in enumerate(row):
            if ch == "1":
                board |= 1 << (r * n + c)
    presses = solve(n, board)
    if not presses:
        return WAIT
    idx = (presses & -presses).bit_length() - 1
    r, c = divmod(idx, n)
    return cell_click(state["grid"], r, c)


def _flip_mask(n: int, idx: int) -> int:
    r, c = divmod(idx, n)
    mask = 1 << idx
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < n and 0 <= cc < n:
            mask |= 1 << (rr * n + cc)
    return mask


@lru_cache(maxsize=8)
def _reduced(n: int):
    """Row-reduced flip matrix: (pivot rows with their combination masks, null-space basis)."""
    size = n * n
    # Column j of A is the flip mask of press j; A is symmetric, so row i = flip mask of i.
    rows = [(_flip_mask(n, i), 1 << i) for i in range(size)]  # (row of A, which original rows were combined)
    picks: list[tuple[int, int]] = []  # (pivot column, row index)
    used = [False] * size
    for col in range(size):
        pick = next((i for i in range(size) if not used[i] and rows[i][0] >> col & 1), None)
        if pick is None:
            continue
        used[pick] = True
        prow, pcomb = rows[pick]
        for i in range(size):
            if i != pick and rows[i][0] >> col & 1:
                rows[i] = (rows[i][0] ^ prow, rows[i][1] ^ pcomb)
        picks.append((col, pick))
    pivots = [(col, rows[i][0], rows[i][1]) for col, i in picks]  # (pivot column, reduced row, combination)
    # free columns give the null space: x with A x = 0
    pivot_cols = {col for col, _, _ in pivots}
    null = []
    for free in range(size):
        if free in pivot_cols:
            continue
        x = 1 << free
        for col, prow, _ in pivots:
            if prow >> free & 1:
                x |= 1 << col
        null.append(x)
    # consistency: combinations of rows that reduced to zero
    zero_combos = [rows[i][1] for i in range(size) if not used[i]]
    return pivots, null, zero_combos


def solve(n: int, board: int) -> int:
    """Bitmask of the presses (fewest of them) that turn ``board`` off; 0 if it is already off or unsolvable."""
    if not board:
        return 0
    pivots, null, zero_combos = _reduced(n)
    for combo in zero_combos:
        if bin(combo & board).count("1") % 2:
            return 0  # unsolvable board
    x = 0
    for col, _, pcomb in pivots:
        if bin(pcomb & board).count("1") % 2:
            x |= 1 << col
    best = None
    for picks in product((0, 1), repeat=len(null)):
        cand = x
        for bit, v in zip(picks, null):
            if bit:
                cand ^= v
        if best is None or bin(cand).count("1") < bin(best).count("1"):
            best = cand
    return best
