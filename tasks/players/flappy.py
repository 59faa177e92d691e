"""Scripted player and game card for Flappy (a flappy-bird-style game): a short look-ahead search over flaps.

At each step the player replays the game's fixed-step physics (gravity, flap
speed, pipe scrolling and the circle-against-rectangle collision test) for
every sequence of "flap" / "don't flap" decisions over the next few steps,
drops the sequences that crash, and picks the first decision of the surviving
sequence that keeps the bird closest to a point a little below the centre of
the next gap (flaps push the bird up, so riding low in the gap is safest).
"""

from __future__ import annotations

import math

from ..kit import actions as act
from ._common import WAIT, card, or_wait

CARD = card("flappy")

_DEPTH = 7          # decisions looked ahead (steps)
_BELOW_CENTRE = 18  # px below the gap centre to aim for


def _hits(cx: float, cy: float, r: float, x0: float, y0: float, x1: float, y1: float) -> bool:
    nx, ny = max(x0, min(cx, x1)), max(y0, min(cy, y1))
    dx, dy = cx - nx, cy - ny
    return dx * dx + dy * dy < r * r


class _Model:
    def __init__(self, state: dict, step_ms: int):
        self.bx = state["bird"]["x"]
        self.r = state["bird"]["r"]
        self.g, self.flap_v, self.max_fall = state["gravity"], state["flapV"], state["maxFall"]
        self.speed, self.gap, self.ground = state["speed"], state["gap"], state["groundY"]
        self.dt = state["subMs"] / 1000
        self.subs = max(1, round(step_ms / state["subMs"]))
        self.pipes = [(p["x"], p["w"], p["gapTop"]) for p in state["pipes"]]

    def target(self, k: int) -> float:
        """Where the bird should be after ``k`` sub-steps: low in the next gap it has not cleared."""
        shift = self.speed * self.dt * k
        for x, w, top in self.pipes:
            if x - shift + w + self.r > self.bx:
                return top + self.gap / 2 + _BELOW_CENTRE
        return 300.0

    def run(self, y: float, vy: float, k: int, flap: bool):
        """(y, vy) after one step starting at sub-step ``k``, or None if the bird crashes."""
        if flap:
            vy = self.flap_v
        dt = self.dt
        for i in range(k + 1, k + self.subs + 1):
            vy = min(self.max_fall, vy + self.g * dt)
            y += vy * dt
            if y < self.r:
                y, vy = self.r, 0.0
            shift = self.speed * dt * i
            for x, w, top in self.pipes:
                px = x - shift
                if px > self.bx + self.r or px + w < self.bx - self.r:
                    continue
                if _hits(self.bx, y, self.r, px, -1000, px + w, top) or _hits(
                    self.bx, y, self.r, px, top + self.gap, px + w, self.ground
                ):
                    return None
            if y + self.r >= self.ground:
                return None
        return y, vy

    def best(self, y: float, vy: float, k: int, depth: int) -> float:
        """Least cost of a surviving sequence of ``depth`` decisions (inf if every one crashes)."""
        best = math.inf
        for flap in (False, True):
            nxt = self.run(y, vy, k, flap)
            if nxt is None:
                continue
            k2 = k + self.subs
            cost = (nxt[0] - self.target(k2)) ** 2
            if depth > 1:
                cost += self.best(nxt[0], nxt[1], k2, depth - 1)
            best = min(best, cost)
        return best


@or_wait
def policy(state: dict) -> dict:
    """Flap (space) or wait, whichever leads to the better surviving future."""
    if not state.get("started"):
        return act.keys("space")
    model = _Model(state, CARD["step_ms"])
    y, vy = state["bird"]["y"], state["bird"]["vy"]
    costs = {}
    for flap in (False, True):
        nxt = model.run(y, vy, 0, flap)
        if nxt is None:
            costs[flap] = math.inf
            continue
        costs[flap] = (nxt[0] - model.target(model.subs)) ** 2 + model.best(nxt[0], nxt[1], model.subs, _DEPTH - 1)
    if costs[True] < costs[False] or (costs[True] == costs[False] == math.inf and y > model.target(0)):
        return act.keys("space")
    return WAIT
