"""Scripted player and game card for Breakout: predicts where the ball meets the paddle and aims it at the bricks.

The player moves the paddle with mouse clicks (the paddle jumps to the
pointer's x; a click also launches a waiting ball). While the ball rises the
paddle follows it. Once it falls, the player replays the game's own fixed-step
physics (walls and bricks) to find where the ball will cross the paddle line,
then tries paddle positions around that point: for each, the bounce angle the
game would give and a coarse trace of the rebound up to the first brick it
would hit. It digs a tunnel: it prefers a rebound that gets above the wall
through a gap, then one that hits the column with the fewest bricks left,
then the soonest hit.
"""

from __future__ import annotations

import math

from ..kit import actions as act
from ._common import WAIT, card, or_wait

CARD = card("breakout")

_CLICK_Y = 575  # below the paddle, inside the field


def _sim_to_paddle(state: dict, max_substeps: int = 2400):
    """Exact replay of the game's sub-steps until the ball crosses the paddle line; its x there, or None."""
    ball, field, brick, pad = state["ball"], state["field"], state["brick"], state["paddle"]
    x, y, vx, vy, r = ball["x"], ball["y"], ball["vx"], ball["vy"], ball["r"]
    dt = state["subMs"] / 1000
    fx0, fx1, fy0 = field["x0"], field["x1"], field["y0"]
    bx0, by0, bw, bh, cols, rows = brick["x0"], brick["y0"], brick["w"], brick["h"], brick["cols"], brick["rows"]
    bricks = [list(row) for row in state["bricks"]]
    py = pad["y"]

    def brick_hit():
        c0 = max(0, math.floor((x - r - bx0) / bw))
        c1 = min(cols - 1, math.floor((x + r - bx0) / bw))
        r0 = max(0, math.floor((y - r - by0) / bh))
        r1 = min(rows - 1, math.floor((y + r - by0) / bh))
        for i in range(r0, r1 + 1):
            for j in range(c0, c1 + 1):
                if not bricks[i][j]:
                    continue
                left, top = bx0 + j * bw, by0 + i * bh
                if x + r > left and x - r < left + bw and y + r > top and y - r < top + bh:
                    return i, j
        return None

    zone = by0 + rows * bh + r

    def off_a_brick(p, v):
        """A ball in a brick (near the wall) hits it once and takes the sub-step back along this axis,
        reversed: the new (position, velocity) on the axis of p and v."""
        hit = brick_hit() if y - r < zone else None
        if not hit:
            return p, v
        bricks[hit[0]][hit[1]] -= 1
        return p - v * dt, -v

    for _ in range(max_substeps):
        x += vx * dt
        if x < fx0 + r:
            x, vx = fx0 + r, abs(vx)
        elif x > fx1 - r:
            x, vx = fx1 - r, -abs(vx)
        x, vx = off_a_brick(x, vx)
        y += vy * dt
        if y < fy0 + r:
            y, vy = fy0 + r, abs(vy)
        y, vy = off_a_brick(y, vy)
        if vy > 0 and y + r >= py and y + r - vy * dt <= py:
            return x
    return None


def _first_brick(state: dict, x: float, angle: float):
    """Coarse trace of a ball leaving the paddle at ``x`` and ``angle``: (seconds, row, col, from_above) of
    the first brick it meets, or None if it comes back down without meeting one."""
    field, brick, pad = state["field"], state["brick"], state["paddle"]
    r, speed = state["ball"]["r"], state["speed"]
    bx0, by0, bw, bh, cols, rows = brick["x0"], brick["y0"], brick["w"], brick["h"], brick["cols"], brick["rows"]
    bricks = state["bricks"]
    dt = 0.005
    vx, vy = speed * math.sin(angle), -speed * math.cos(angle)
    y = pad["y"] - r
    t = 0.0
    while t < 3.0:
        x += vx * dt
        y += vy * dt
        t += dt
        if x < field["x0"] + r:
            x, vx = field["x0"] + r, abs(vx)
        elif x > field["x1"] - r:
            x, vx = field["x1"] - r, -abs(vx)
        if y < field["y0"] + r:
            y, vy = field["y0"] + r, abs(vy)
        if vy > 0 and y > by0 + rows * bh + r:
            return None
        col = math.floor((x - bx0) / bw)
        row = math.floor(((y - r) if vy < 0 else (y + r)) - by0) // bh
        if 0 <= col < cols and 0 <= row < rows and bricks[row][col]:
            return t, row, col, vy > 0
    return None


def _aim(state: dict, xc: float) -> int:
    """Paddle centre (a whole pixel) for a ball crossing the paddle line at ``xc``.

    Ranks the rebounds by: reaching the bricks from above (the ball got through
    a gap), then hitting the column with the fewest bricks left (to open a
    gap), then the time to the hit, then a gentle angle."""
    pad, field = state["paddle"], state["field"]
    half = pad["w"] / 2
    lo, hi = field["x0"] + half, field["x1"] - half
    left = [sum(1 for row in state["bricks"] if row[c]) for c in range(state["brick"]["cols"])]
    best, best_key = None, None
    for k in range(-8, 9):
        px = round(min(hi, max(lo, xc - k / 10 * half)))
        off = (xc - px) / half
        if abs(off) > 0.85:
            continue
        hit = _first_brick(state, xc, off * state["maxAngle"])
        if hit is None:
            key = (2, 0, math.inf, abs(off))
        else:
            t, _, col, above = hit
            key = (0 if above else 1, 0 if above else left[col], t, abs(off))
        if best_key is None or key < best_key:
            best, best_key = px, key
    if best is None:
        best = round(min(hi, max(lo, xc)))
    return best


@or_wait
def policy(state: dict) -> dict:
    """A click that puts the paddle where it should be (and launches a waiting ball), or a wait."""
    ball, pad = state["ball"], state["paddle"]
    if ball["stuck"]:
        return act.click(round(pad["x"]), _CLICK_Y)
    target = None
    if ball["vy"] > 0:
        xc = _sim_to_paddle(state)
        if xc is not None:
            target = _aim(state, xc)
    if target is None:
        half = pad["w"] / 2
        target = round(min(state["field"]["x1"] - half, max(state["field"]["x0"] + half, ball["x"])))
    if abs(target - pad["x"]) < 0.5:
        return WAIT
    return act.click(target, _CLICK_Y)
