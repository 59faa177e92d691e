"""Scripted Pipes player and game card: solves the rotation puzzle by constraint search, then turns each tile.

A tile is a bitmask of pipe ends (1 up, 2 right, 4 down, 8 left) and a click
turns it a quarter turn clockwise. :func:`solve` gives every tile the set of
its distinct rotations that point nowhere off the board, then searches with
forward checking (always branching on the tile with the fewest rotations left,
pruning the neighbours' rotations that disagree about the shared side) for
layouts where every pipe end meets one. Of the layouts found (at most 64) it
keeps the one needing the fewest clicks. The policy clicks the first tile
(row-major) not yet in its solved rotation.
"""

from __future__ import annotations

from ._common import WAIT, card, cell_click, or_wait

CARD = card("pipes")

UP, RIGHT, DOWN, LEFT = 1, 2, 4, 8
_SIDES = ((UP, 0, -1, DOWN), (RIGHT, 1, 0, LEFT), (DOWN, 0, 1, UP), (LEFT, -1, 0, RIGHT))


def rot_cw(mask: int) -> int:
    return ((mask << 1) | (mask >> 3)) & 15


def clicks_between(current: int, target: int) -> int:
    """Clockwise quarter turns (clicks) that turn ``current`` into ``target``."""
    m = current
    for k in range(4):
        if m == target:
            return k
        m = rot_cw(m)
    raise ValueError(f"{target} is not a rotation of {current}")


@or_wait
def policy(state: dict) -> dict:
    """A click on the first tile that is not yet turned as in the solution."""
    tiles = tuple(tuple(row) for row in state["tiles"])
    target = solve(tiles)
    if target is None:
        return WAIT
    for r, row in enumerate(tiles):
        for c, m in enumerate(row):
            if m != target[r][c]:
                return cell_click(state["grid"], r, c)
    return WAIT


_SOLUTIONS: dict = {}


def _canonical(tiles) -> tuple:
    """The puzzle up to the tiles' rotations: each tile as its smallest rotation."""
    out = []
    for row in tiles:
        canon = []
        for m in row:
            rots = [m]
            for _ in range(3):
                rots.append(rot_cw(rots[-1]))
            canon.append(min(rots))
        out.append(tuple(canon))
    return tuple(out)


def solve(tiles, max_solutions: int = 64):
    """Target rotation of every tile (rows of masks) with all ends matched; fewest clicks from ``tiles``."""
    key = _canonical(tiles)
    if key in _SOLUTIONS:
        return _SOLUTIONS[key]
    rows, cols = len(tiles), len(tiles[0])
    n = rows * cols
    domains = []
    for r in range(rows):
        for c in range(cols):
            m, opts = tiles[r][c], []
            for _ in range(4):
                ok = all(0 <= r + dy < rows and 0 <= c + dx < cols for bit, dx, dy, _o in _SIDES if m & bit)
                if ok and m not in opts:
                    opts.append(m)
                m = rot_cw(m)
            domains.append(opts)
    neighbours = []
    for i in range(n):
        r, c = divmod(i, cols)
        neighbours.append([(bit, (r + dy) * cols + c + dx, opp) for bit, dx, dy, opp in _SIDES
                           if 0 <= r + dy < rows and 0 <= c + dx < cols])
    found: list[list[int]] = []

    def search(doms):
        if len(found) >= max_solutions:
            return
        best = None
        for i in range(n):
            if len(doms[i]) > 1 and (best is None or len(doms[i]) < len(doms[best])):
                best = i
        if best is None:
            found.append([d[0] for d in doms])
            return
        for choice in doms[best]:
            new = list(doms)
            new[best] = [choice]
            if _propagate(new, neighbours, [best]):
                search(new)

    start = list(domains)
    if _propagate(start, neighbours, list(range(n))):
        search(start)
    if not found:
        _SOLUTIONS[key] = None
        return None
    flat = [m for row in tiles for m in row]
    best = min(found, key=lambda sol: sum(clicks_between(a, b) for a, b in zip(flat, sol)))
    result = tuple(tuple(best[r * cols:(r + 1) * cols]) for r in range(rows))
    if len(_SOLUTIONS) > 1000:
        _SOLUTIONS.clear()
    _SOLUTIONS[key] = result
    return result


def _propagate(doms, neighbours, queue) -> bool:
    """Arc consistency on shared sides; False if some tile has no rotation left."""
    queue = list(queue)
    while queue:
        i = queue.pop()
        for bit, j, opp in neighbours[i]:
            # the side i shares with j is open in every / no remaining rotation of i?
            states_i = {bool(m & bit) for m in doms[i]}
            keep = [m for m in doms[j] if bool(m & opp) in states_i]
            if len(keep) != len(doms[j]):
                if not keep:
                    return False
                doms[j] = keep
                queue.append(j)
    return True
