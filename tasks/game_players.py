"""Scripted players for the HTML5 games (snake, 2048): oracles that pick the next key from a state() snapshot.

Each policy is a pure function of the dict that the game's
``window.hybridgym.state()`` returns, and gives the direction to press next:
``'up'``, ``'down'``, ``'left'`` or ``'right'`` (the game maps the arrow keys and
WASD to these). No browser is needed to call them.

- :func:`snake_policy` is meant to be called once per game tick, after the
  tick (the snapshot's ``queue`` of pending turns is then empty). It goes for
  the apple by the shortest path when, after eating, the snake could still
  reach its own tail; otherwise it follows its tail, which keeps it alive until
  a safe path opens.
- :func:`policy_2048` is a depth-2 expectimax (move, random tile, move) over a
  heuristic that rewards empty cells, possible merges and monotonic rows and
  columns, the one popularised by nneonneo's 2048 AI.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

__all__ = ["snake_policy", "policy_2048", "DIRECTIONS"]

DIRECTIONS: dict[str, tuple[int, int]] = {
    "up": (0, -1),
    "down": (0, 1),
    "left": (-1, 0),
    "right": (1, 0),
}
_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}

Cell = tuple[int, int]


# ---------------------------------------------------------------------------
# Snake
# ---------------------------------------------------------------------------


def snake_policy(state: dict) -> str:
    """Next direction for the snake in ``state`` (cells are ``[x, y]``, head first)."""
    cols, rows = state["cols"], state["rows"]
    snake: list[Cell] = [tuple(c) for c in state["snake"]]
    heading: str = state["queue"][-1] if state.get("queue") else state["dir"]
    apple = tuple(state["apple"]) if state.get("apple") else None
    if state.get("gameOver") or not snake:
        return heading

    if apple is not None:
        path = _shortest_path(snake, apple, cols, rows)
        if path is not None:
            after = _follow(snake, path, grows=True)
            if _tail_reachable(after, cols, rows):
                return _direction(snake[0], path[0])

    # No safe way to the apple yet: stall by chasing the tail, as far from the
    # apple as possible, so that the body moves out of the way.
    best, best_key = None, None
    for name, cell in _neighbours(snake[0], cols, rows):
        if name == _OPPOSITE[heading] or not _free_next_tick(snake, cell, apple):
            continue
        after = _follow(snake, [cell], grows=cell == apple)
        safe = _tail_reachable(after, cols, rows)
        far = _manhattan(cell, apple) if apple is not None else 0
        key = (safe, _flood_size(after, cols, rows), far)
        if best_key is None or key > best_key:
            best, best_key = name, key
    return best if best is not None else heading


def _neighbours(cell: Cell, cols: int, rows: int):
    x, y = cell
    for name, (dx, dy) in DIRECTIONS.items():
        nx, ny = x + dx, y + dy
        if 0 <= nx < cols and 0 <= ny < rows:
            yield name, (nx, ny)


def _direction(a: Cell, b: Cell) -> str:
    delta = (b[0] - a[0], b[1] - a[1])
    for name, d in DIRECTIONS.items():
        if d == delta:
            return name
    raise ValueError(f"{a} and {b} are not neighbours")


def _manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _free_next_tick(snake: list[Cell], cell: Cell, apple: Cell | None) -> bool:
    """Whether the head may step onto ``cell`` on the next tick (the tail moves unless the snake eats)."""
    body = snake if cell == apple else snake[:-1]
    return cell not in body


def _shortest_path(snake: list[Cell], goal: Cell, cols: int, rows: int) -> list[Cell] | None:
    """Shortest path from the head to ``goal`` (head excluded), ``None`` if there is none.

    Body segment ``i`` (head = 0) leaves its cell after ``len - i`` moves, so a
    cell may be entered at step ``t`` once ``t >= len - i``.
    """
    n = len(snake)
    frees_at = {cell: n - i for i, cell in enumerate(snake)}
    start = snake[0]
    parent: dict[Cell, Cell | None] = {start: None}
    queue = deque([(start, 0)])
    while queue:
        cell, t = queue.popleft()
        if cell == goal:
            path = []
            while cell != start:
                path.append(cell)
                cell = parent[cell]
            return path[::-1]
        for _, nxt in _neighbours(cell, cols, rows):
            if nxt in parent or frees_at.get(nxt, 0) > t + 1:
                continue
            parent[nxt] = cell
            queue.append((nxt, t + 1))
    return None


def _follow(snake: list[Cell], path: list[Cell], grows: bool) -> list[Cell]:
    """The snake after its head walked ``path``; it grows by one if the last step eats."""
    length = len(snake) + (1 if grows else 0)
    return (path[::-1] + snake)[:length]


def _tail_reachable(snake: list[Cell], cols: int, rows: int) -> bool:
    """Whether the head can reach the tail's cell, i.e. the snake can keep moving forever."""
    if len(snake) < 3:
        return True
    return _shortest_path(snake, snake[-1], cols, rows) is not None


def _flood_size(snake: list[Cell], cols: int, rows: int) -> int:
    """Cells reachable from the head, with the body (but its tail) in the way."""
    blocked = set(snake[:-1])
    seen = {snake[0]}
    queue = deque([snake[0]])
    while queue:
        cell = queue.popleft()
        for _, nxt in _neighbours(cell, cols, rows):
            if nxt not in seen and nxt not in blocked:
                seen.add(nxt)
                queue.append(nxt)
    return len(seen)


# ---------------------------------------------------------------------------
# 2048
# ---------------------------------------------------------------------------

# A board is a tuple of 16 exponents, row-major (0 = empty, 1 = tile 2, 2 = tile 4, ...).
Board = tuple[int, ...]

_ROWS = tuple(tuple(range(r * 4, r * 4 + 4)) for r in range(4))
_COLS = tuple(tuple(range(c, 16, 4)) for c in range(4))
# For each move, the four lines of cell indices, listed from the side tiles move towards.
_LINES = {
    "left": _ROWS,
    "right": tuple(line[::-1] for line in _ROWS),
    "up": _COLS,
    "down": tuple(line[::-1] for line in _COLS),
}
_MOVE_ORDER = ("left", "up", "right", "down")  # ties go to the earlier move


def policy_2048(state: dict) -> str:
    """Next direction for the 2048 board in ``state`` (``board`` is 4 rows of tile values)."""
    board = _to_exponents(state["board"])
    best, best_value = None, float("-inf")
    for move in _MOVE_ORDER:
        after = _apply(board, move)
        if after is None:
            continue
        value = _chance_value(after, depth=1)
        if value > best_value:
            best, best_value = move, value
    return best if best is not None else "up"


def _to_exponents(rows: list[list[int]]) -> Board:
    return tuple(0 if v == 0 else int(v).bit_length() - 1 for row in rows for v in row)


@lru_cache(maxsize=None)
def _slide_line(line: tuple[int, ...]) -> tuple[int, ...]:
    """One line of exponents slid towards index 0, equal neighbours merged once."""
    tiles = [e for e in line if e]
    out: list[int] = []
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(tiles[i] + 1)
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return tuple(out + [0] * (len(line) - len(out)))


def _apply(board: Board, move: str) -> Board | None:
    """The board after ``move`` (before the new tile), or ``None`` if nothing moves."""
    cells = list(board)
    for line in _LINES[move]:
        slid = _slide_line(tuple(board[i] for i in line))
        for i, e in zip(line, slid):
            cells[i] = e
    after = tuple(cells)
    return None if after == board else after


def _chance_value(board: Board, depth: int) -> float:
    """Expected value over the new tile: a 2 (p=0.9) or a 4 (p=0.1) on a uniformly chosen empty cell."""
    empty = [i for i, e in enumerate(board) if e == 0]
    if not empty:
        return _heuristic(board)
    total = 0.0
    for i in empty:
        for exponent, p in ((1, 0.9), (2, 0.1)):
            cells = list(board)
            cells[i] = exponent
            total += p * _max_value(tuple(cells), depth)
    return total / len(empty)


def _max_value(board: Board, depth: int) -> float:
    """Value of the best move; at depth 0 (or with no move left) the heuristic itself."""
    if depth == 0:
        return _heuristic(board)
    best = None
    for move in _MOVE_ORDER:
        after = _apply(board, move)
        if after is None:
            continue
        value = _heuristic(after) if depth == 1 else _chance_value(after, depth - 1)
        if best is None or value > best:
            best = value
    return best if best is not None else _heuristic(board) - _LOST_PENALTY


_LOST_PENALTY = 200000.0


def _heuristic(board: Board) -> float:
    return sum(_line_score(tuple(board[i] for i in line)) for line in _ROWS + _COLS)


@lru_cache(maxsize=None)
def _line_score(line: tuple[int, ...]) -> float:
    """Heuristic of one row or column: empty cells and merges are good, big unsorted tiles bad."""
    empty = line.count(0)
    merges, prev, run = 0, 0, 0
    for e in line:
        if e == 0:
            continue
        if e == prev:
            run += 1
        else:
            if run:
                merges += 1 + run
            run, prev = 0, e
    if run:
        merges += 1 + run
    mono_left = mono_right = 0.0
    for a, b in zip(line, line[1:]):
        if a > b:
            mono_left += a**4 - b**4
        else:
            mono_right += b**4 - a**4
    total = sum(e**3.5 for e in line)
    return (
        270.0 * empty
        + 700.0 * merges
        - 47.0 * min(mono_left, mono_right)
        - 11.0 * total
    )
