"""Scripted Minesweeper player and game card: reveals the cell least likely to hide a mine, from the visible board only.

The player sees what a person sees: the ``board`` rows of ``hybridgym.state()``
('#' hidden, 'F' flag, '0'-'8' revealed) and the number of mines; it never
reads the hidden mine positions. It opens in the middle (the first click is
always safe and opens an area), then enumerates every mine layout consistent
with the revealed numbers (component by component, weighted by the ways to put
the remaining mines on the unconstrained cells) and clicks the hidden cell with
the lowest mine probability: a certainly safe one whenever logic finds one,
otherwise the best guess. It never flags (flags are not needed to win), and
right-clicks away flags that someone else put on cells logic shows to be safe.
"""

from __future__ import annotations

from math import comb

from ._common import WAIT, card, cell_click, or_wait

CARD = card("minesweeper")


@or_wait
def policy(state: dict) -> dict:
    """The next action: a left click on the safest hidden cell (the centre before the first click)."""
    rows, cols = state["rows"], state["cols"]
    if not state.get("started"):  # the first click is safe: the unflagged cell nearest the centre
        free = [(r, c) for r in range(rows) for c in range(cols) if state["board"][r][c] == "#"]
        if free:
            centre = min(free, key=lambda rc: (abs(rc[0] - rows // 2) + abs(rc[1] - cols // 2), rc))
            return cell_click(state["grid"], *centre)
    board = state["board"]
    cell = best_cell(board, state["mines"])
    flagged = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] == "F"]
    if flagged:
        # flags placed by someone else: take off any that logic shows to be wrong (or all, if nothing else is left)
        probs = mine_probabilities(board, state["mines"])
        wrong = [f for f in flagged if probs[f] < 1e-9 or (cell is None and probs[f] < 1 - 1e-9)]
        if wrong:
            return cell_click(state["grid"], *min(wrong, key=lambda f: probs[f]), button="right")
    if cell is None:
        return WAIT
    return cell_click(state["grid"], *cell)


def _neighbours(r: int, c: int, rows: int, cols: int):
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols:
                yield r + dr, c + dc


def mine_probabilities(board: list[str], mines: int) -> dict[tuple[int, int], float]:
    """Exact probability that each unrevealed cell (hidden or flagged) holds a mine, given the numbers shown."""
    rows, cols = len(board), len(board[0])
    unknown = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] in "#F"]
    unknown_set = set(unknown)
    constraints: list[tuple[list[tuple[int, int]], int]] = []
    for r in range(rows):
        for c in range(cols):
            ch = board[r][c]
            if ch.isdigit():
                cells = [n for n in _neighbours(r, c, rows, cols) if n in unknown_set]
                if cells:
                    constraints.append((cells, int(ch)))

    # Connected components of frontier cells (cells sharing a constraint).
    frontier = sorted({cell for cells, _ in constraints for cell in cells})
    parent = {cell: cell for cell in frontier}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for cells, _ in constraints:
        for other in cells[1:]:
            parent[find(other)] = find(cells[0])
    groups: dict = {}
    for cell in frontier:
        groups.setdefault(find(cell), []).append(cell)

    components = []  # per component: (cells, {k: (ways, [mine counts per cell])})
    for cells in groups.values():
        cell_set = set(cells)
        cons = [(cs, n) for cs, n in constraints if cs[0] in cell_set]
        components.append((cells, _enumerate(cells, cons, mines)))

    others = [cell for cell in unknown if cell not in set(frontier)]
    n_other = len(others)

    def convolve(dists):
        total = {0: 1}
        for dist in dists:
            nxt: dict[int, int] = {}
            for k1, w1 in total.items():
                for k2, (w2, _) in dist.items():
                    if k1 + k2 <= mines:
                        nxt[k1 + k2] = nxt.get(k1 + k2, 0) + w1 * w2
            total = nxt
        return total

    dists = [d for _, d in components]
    everything = convolve(dists)
    weight = sum(w * comb(n_other, mines - k) for k, w in everything.items() if 0 <= mines - k <= n_other)
    probs: dict[tuple[int, int], float] = {}
    if weight == 0:  # inconsistent view (e.g. wrong flags): fall back to a uniform guess
        return {cell: mines / max(1, len(unknown)) for cell in unknown}
    for i, (cells, dist) in enumerate(components):
        rest = convolve(dists[:i] + dists[i + 1:])
        for j, cell in enumerate(cells):
            num = 0
            for k, (ways, counts) in dist.items():
                f = sum(w * comb(n_other, mines - k - kk) for kk, w in rest.items() if 0 <= mines - k - kk <= n_other)
                num += counts[j] * f
            probs[cell] = num / weight
    if n_other:
        expected_other = sum(w * comb(n_other, mines - k) * (mines - k)
                             for k, w in everything.items() if 0 <= mines - k <= n_other)
        for cell in others:
            probs[cell] = expected_other / weight / n_other
    return probs


def _enumerate(cells, constraints, max_mines):
    """All mine layouts of one frontier component: {mines used: (layouts, per-cell mine counts)}."""
    index = {cell: i for i, cell in enumerate(cells)}
    cons = [([index[c] for c in cs], n) for cs, n in constraints]
    by_var = [[] for _ in cells]
    for ci, (vs, _) in enumerate(cons):
        for v in vs:
            by_var[v].append(ci)
    assigned_mines = [0] * len(cons)
    unassigned = [len(vs) for vs, _ in cons]
    value = [0] * len(cells)
    result: dict[int, list] = {}

    def rec(v, used):
        if v == len(cells):
            entry = result.setdefault(used, [0, [0] * len(cells)])
            entry[0] += 1
            for i in range(len(cells)):
                entry[1][i] += value[i]
            return
        for x in (0, 1):
            if used + x > max_mines:
                continue
            ok = True
            for ci in by_var[v]:
                m, left, n = assigned_mines[ci] + x, unassigned[ci] - 1, cons[ci][1]
                if m > n or m + left < n:
                    ok = False
                    break
            if not ok:
                continue
            for ci in by_var[v]:
                assigned_mines[ci] += x
                unassigned[ci] -= 1
            value[v] = x
            rec(v + 1, used + x)
            for ci in by_var[v]:
                assigned_mines[ci] -= x
                unassigned[ci] += 1
        value[v] = 0

    rec(0, 0)
    return {k: (w, counts) for k, (w, counts) in result.items()}


def best_cell(board: list[str], mines: int) -> tuple[int, int] | None:
    """The hidden (unflagged) cell with the lowest mine probability; ties go to corners, then edges."""
    rows, cols = len(board), len(board[0])
    probs = mine_probabilities(board, mines)
    candidates = [cell for cell in probs if board[cell[0]][cell[1]] == "#"]
    if not candidates:
        return None

    def key(cell):
        r, c = cell
        edges = (r in (0, rows - 1)) + (c in (0, cols - 1))
        return (round(probs[cell], 9), -edges, r, c)

    return min(candidates, key=key)
