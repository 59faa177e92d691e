"""Scripted Sokoban player and game card: an A* solver (fewest moves) over box pushes, replayed one arrow key a step.

The state of a level is the ``map`` of ``hybridgym.state()`` in the usual XSB
notation ('#' wall, ' ' floor, '.' goal, '$' box, '*' box on a goal, '@'
player, '+' player on a goal). :func:`solve` searches push by push: a state is
the set of box cells and the player's cell just after a push, its cost the
moves made (walk to the box + the push), the heuristic the sum of each box's
push distance to its nearest goal; boxes are never pushed onto cells from which
no goal can be reached. Solutions are cached per map, so after the first call
on a level each step is a dictionary lookup. If the level is stuck (a box
pushed into a dead corner by someone else) the player presses 'r' to restart it.
"""

from __future__ import annotations

import heapq
from collections import deque
from functools import lru_cache

from ..kit import actions as act
from ._common import card, or_wait

CARD = card("sokoban")

DIRS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}

Cell = tuple[int, int]


@or_wait
def policy(state: dict) -> dict:
    """The next arrow key of a fewest-moves solution of the current level."""
    key = tuple(state["map"])
    move = _next_move(key)
    if move is None:
        return act.keys("r")
    return act.keys(move)


_PLANS: dict[tuple[str, ...], str | None] = {}


def _next_move(level: tuple[str, ...]) -> str | None:
    if level not in _PLANS:
        walls, goals, boxes, player = parse(level)
        moves = solve(level)
        if moves is None:
            _PLANS[level] = None
        else:
            # remember the move to make in every state along the solution
            cur_boxes, cur_player = set(boxes), player
            for m in moves:
                _PLANS[render(level, cur_boxes, cur_player)] = m
                cur_boxes, cur_player = _step(walls, cur_boxes, cur_player, m)
        if len(_PLANS) > 200000:
            _PLANS.clear()
            return _next_move(level)
    return _PLANS.get(level)


def _step(walls, boxes, player, move):
    dx, dy = DIRS[move]
    nxt = (player[0] + dx, player[1] + dy)
    if nxt in walls:
        return boxes, player
    if nxt in boxes:
        beyond = (nxt[0] + dx, nxt[1] + dy)
        if beyond in walls or beyond in boxes:
            return boxes, player
        boxes = (boxes - {nxt}) | {beyond}
    return boxes, nxt


def parse(level) -> tuple[frozenset, frozenset, frozenset, Cell]:
    """Walls, goals, boxes and the player's cell of an XSB map; cells are (x, y)."""
    walls, goals, boxes, player = set(), set(), set(), None
    for y, row in enumerate(level):
        for x, ch in enumerate(row):
            if ch == "#":
                walls.add((x, y))
            if ch in ".*+":
                goals.add((x, y))
            if ch in "$*":
                boxes.add((x, y))
            if ch in "@+":
                player = (x, y)
    return frozenset(walls), frozenset(goals), frozenset(boxes), player


def render(level, boxes, player) -> tuple[str, ...]:
    """The XSB map of ``level`` with the boxes and the player moved."""
    out = []
    for y, row in enumerate(level):
        chars = []
        for x, ch in enumerate(row):
            goal = ch in ".*+"
            if ch == "#":
                chars.append("#")
            elif (x, y) == player:
                chars.append("+" if goal else "@")
            elif (x, y) in boxes:
                chars.append("*" if goal else "$")
            else:
                chars.append("." if goal else " ")
        out.append("".join(chars))
    return tuple(out)


def _floor(level, walls, player) -> frozenset:
    """Cells reachable from the player ignoring boxes: the inside of the level."""
    seen = {player}
    queue = deque([player])
    while queue:
        x, y = queue.popleft()
        for dx, dy in DIRS.values():
            n = (x + dx, y + dy)
            if n not in seen and n not in walls and 0 <= n[1] < len(level) and 0 <= n[0] < len(level[n[1]]):
                seen.add(n)
                queue.append(n)
    return frozenset(seen)


def _goal_distances(floor, goals) -> dict[Cell, int]:
    """For each cell, the fewest pushes that bring a lone box from it to some goal (absent = dead cell)."""
    dist = {g: 0 for g in goals}
    queue = deque(goals)
    while queue:
        cell = queue.popleft()
        for dx, dy in DIRS.values():
            prev = (cell[0] - dx, cell[1] - dy)         # box came from here
            stand = (cell[0] - 2 * dx, cell[1] - 2 * dy)  # player pushed from here
            if prev in floor and stand in floor and prev not in dist:
                dist[prev] = dist[cell] + 1
                queue.append(prev)
    return dist


def _walk(floor, boxes, start) -> dict[Cell, Cell | None]:
    """BFS parents of every cell the player can walk to without pushing."""
    parent = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for dx, dy in DIRS.values():
            n = (cell[0] + dx, cell[1] + dy)
            if n in floor and n not in boxes and n not in parent:
                parent[n] = cell
                queue.append(n)
    return parent


def _path(parent, goal) -> list[Cell]:
    out = []
    while parent[goal] is not None:
        out.append(goal)
        goal = parent[goal]
    return out[::-1]


def _direction(a: Cell, b: Cell) -> str:
    for name, (dx, dy) in DIRS.items():
        if (a[0] + dx, a[1] + dy) == b:
            return name
    raise ValueError((a, b))


def _frozen(box: Cell, boxes, walls) -> bool:
    """A 2x2 square of walls and boxes containing ``box`` (no box in it can ever move)."""
    x, y = box
    for ox, oy in ((0, 0), (-1, 0), (0, -1), (-1, -1)):
        square = [(x + ox, y + oy), (x + ox + 1, y + oy), (x + ox, y + oy + 1), (x + ox + 1, y + oy + 1)]
        if all(c in walls or c in boxes for c in square):
            return True
    return False


@lru_cache(maxsize=64)
def solve(level: tuple[str, ...], limit: int = 400000) -> list[str] | None:
    """Fewest-moves solution of an XSB map as a list of directions, None if unsolvable (or over ``limit`` states)."""
    walls, goals, boxes, player = parse(level)
    floor = _floor(level, walls, player)
    gdist = _goal_distances(floor, goals)
    if any(b not in gdist for b in boxes):
        return None
    if boxes <= goals:
        return []

    def h(bs):
        return sum(gdist[b] for b in bs)

    start = (boxes, player)
    best = {start: 0}
    came: dict = {start: None}
    tie = 0
    heap = [(h(boxes), 0, tie, start)]
    expanded = 0
    while heap:
        f, g, _, st = heapq.heappop(heap)
        if best.get(st, 1 << 30) < g:
            continue
        bs, pl = st
        if bs <= goals:
            return _moves(floor, came, st)
        expanded += 1
        if expanded > limit:
            return None
        parent = _walk(floor, bs, pl)
        dist = {pl: 0}
        for cell in parent:  # BFS order: parents come first
            if parent[cell] is not None:
                dist[cell] = dist[parent[cell]] + 1
        for b in bs:
            for dx, dy in DIRS.values():
                stand = (b[0] - dx, b[1] - dy)
                to = (b[0] + dx, b[1] + dy)
                if stand not in dist or to not in gdist or to in bs:
                    continue
                nbs = (bs - {b}) | {to}
                if to not in goals and _frozen(to, nbs, walls):
                    continue
                nst = (nbs, b)
                ng = g + dist[stand] + 1
                if ng < best.get(nst, 1 << 30):
                    best[nst] = ng
                    came[nst] = (st, stand, to)
                    tie += 1
                    heapq.heappush(heap, (ng + h(nbs), ng, tie, nst))
    return None


def _moves(floor, came, end) -> list[str]:
    pushes = []
    st = end
    while came[st] is not None:
        prev, stand, to = came[st]
        pushes.append((prev, stand, st[1], to))
        st = prev
    moves: list[str] = []
    for (bs, pl), stand, box, to in reversed(pushes):
        parent = _walk(floor, bs, pl)
        cur = pl
        for cell in _path(parent, stand):
            moves.append(_direction(cur, cell))
            cur = cell
        moves.append(_direction(stand, box))
    return moves
