"""Scripted player and game card for Falling Blocks (a Tetris-like game): a placement search with a stack heuristic.

For the falling piece it tries every rotation and column that can be reached
from where the piece is (rotate first, with the game's kicks, then slide),
drops it, and scores the resulting well with the weights of Yiyuan Lee's
"Tetris AI" (aggregate height, cleared lines, holes, bumpiness), looking one
piece ahead (the first piece of ``next``). Each step it presses one key
towards the best placement: up until the rotation matches, left/right until
the column matches, then space to hard-drop.
"""

from __future__ import annotations

from functools import lru_cache

from ..kit import actions as act
from ._common import WAIT, card, or_wait

CARD = card("falling-blocks")

COLS, ROWS = 10, 20
_SHAPES = {
    "I": ("....", "IIII", "....", "...."),
    "J": ("J..", "JJJ", "..."),
    "L": ("..L", "LLL", "..."),
    "O": ("OO", "OO"),
    "S": (".SS", "SS.", "..."),
    "T": (".T.", "TTT", "..."),
    "Z": ("ZZ.", ".ZZ", "..."),
}
_KICKS = (0, -1, 1, -2, 2)

# weights of the heuristic (Yiyuan Lee, "Tetris AI - the (near) perfect bot")
_W_HEIGHT, _W_LINES, _W_HOLES, _W_BUMP = -0.510066, 0.760666, -0.35663, -0.184483


def _rotations(rows: tuple[str, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    n = len(rows)
    m = [[ch != "." for ch in row] for row in rows]
    out = []
    for _ in range(4):
        out.append(tuple((x, y) for y in range(n) for x in range(n) if m[y][x]))
        m = [[m[n - 1 - x][y] for x in range(n)] for y in range(n)]
    return tuple(out)


ROT = {t: _rotations(rows) for t, rows in _SHAPES.items()}

Board = tuple[int, ...]  # one bit mask per row, bit x set = filled


# per (type, rotation): the columns spanned and one bit mask per row offset
_MASKS = {
    t: tuple(
        (
            min(dx for dx, _ in cells),
            max(dx for dx, _ in cells),
            tuple((dy, sum(1 << dx for dx, y in cells if y == dy)) for dy in sorted({y for _, y in cells})),
        )
        for cells in rots
    )
    for t, rots in ROT.items()
}


def _fits(board: Board, t: str, rot: int, x: int, y: int) -> bool:
    lo, hi, rows = _MASKS[t][rot]
    if x + lo < 0 or x + hi >= COLS:
        return False
    for dy, bits in rows:
        cy = y + dy
        if cy >= ROWS:
            return False
        if cy >= 0 and board[cy] & (bits << x if x >= 0 else bits >> -x):
            return False
    return True


def _drop(board: Board, t: str, rot: int, x: int, y: int) -> int:
    while _fits(board, t, rot, x, y + 1):
        y += 1
    return y


_FULL = (1 << COLS) - 1


def _lock(board: Board, t: str, rot: int, x: int, y: int) -> tuple[Board, int]:
    rows = list(board)
    for dy, bits in _MASKS[t][rot][2]:
        if y + dy >= 0:
            rows[y + dy] |= bits << x if x >= 0 else bits >> -x
    kept = [r for r in rows if r != _FULL]
    cleared = ROWS - len(kept)
    return tuple([0] * cleared + kept), cleared


_POPCOUNT = tuple(bin(i).count("1") for i in range(1 << COLS))


def _evaluate(board: Board, cleared: int) -> float:
    heights = [0] * COLS
    holes = 0
    covered = 0
    for y, row in enumerate(board):
        holes += _POPCOUNT[covered & ~row & _FULL]
        new = row & ~covered
        if new:
            covered |= new
            for x in range(COLS):
                if new >> x & 1:
                    heights[x] = ROWS - y
    bump = sum(abs(a - b) for a, b in zip(heights, heights[1:]))
    return _W_HEIGHT * sum(heights) + _W_LINES * cleared + _W_HOLES * holes + _W_BUMP * bump


def _placements(board: Board, t: str, rot: int, x: int, y: int):
    """(final rot, final x, board after, lines) for every placement reachable by rotate-then-slide."""
    seen = set()
    for turns in range(1 if t == "O" else 4):
        r, cx, ok = rot, x, True
        for _ in range(turns):
            for k in _KICKS:
                if _fits(board, t, (r + 1) % 4, cx + k, y):
                    r, cx = (r + 1) % 4, cx + k
                    break
            else:
                ok = False
                break
        if not ok:
            continue
        for step in (-1, 1):
            sx = cx
            while True:
                key = (r, sx)
                if key not in seen:
                    seen.add(key)
                    after, lines = _lock(board, t, r, sx, _drop(board, t, r, sx, y))
                    yield r, sx, after, lines
                if not _fits(board, t, r, sx + step, y):
                    break
                sx += step


def _spawn(t: str) -> tuple[int, int, int]:
    n = len(_SHAPES[t])
    return 0, (COLS - n) // 2, -min(dy for _, dy in ROT[t][0])


@lru_cache(maxsize=4096)
def _best_value(board: Board, t: str) -> float:
    """Value of the best placement of a freshly spawned piece of type ``t``."""
    rot, x, y = _spawn(t)
    if not _fits(board, t, rot, x, y):
        return -1e9
    best = -1e9
    for _, _, after, lines in _placements(board, t, rot, x, y):
        best = max(best, _evaluate(after, lines))
    return best


@lru_cache(maxsize=4096)
def _plan(board: Board, t: str, rot: int, x: int, y: int, nxt: str | None) -> tuple[int, int] | None:
    best, best_key = None, None
    for r, sx, after, lines in _placements(board, t, rot, x, y):
        value = _evaluate(after, lines)
        if nxt is not None:
            value = _best_value(after, nxt) + _W_LINES * lines
        key = (value, -abs(sx - x), -r)
        if best_key is None or key > best_key:
            best, best_key = (r, sx), key
    return best


def _board_bits(rows: list[str]) -> Board:
    return tuple(sum(1 << x for x, ch in enumerate(row) if ch != ".") for row in rows)


@or_wait
def policy(state: dict) -> dict:
    """One key towards the best placement of the falling piece (a wait if there is none)."""
    piece = state.get("piece")
    if not piece:
        return WAIT
    board = _board_bits(state["board"])
    nxt = state["next"][0] if state.get("next") else None
    plan = _plan(board, piece["type"], int(piece["rot"]), int(piece["x"]), int(piece["y"]), nxt)
    if plan is None:
        return act.keys("space")
    rot, x = plan
    if piece["rot"] != rot:
        key = "up"
    elif piece["x"] < x:
        key = "right"
    elif piece["x"] > x:
        key = "left"
    else:
        key = "space"
    return act.keys(key)
