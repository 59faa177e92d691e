"""Scripted players and game card for pong: meet the ball where it arrives, aim where the opponent cannot follow.

``policy`` plays the left paddle (W / S), ``policy_right`` the right one (Up /
Down); in the single-agent task the right paddle is the game's own computer
player (``?ai=right``).

A key press moves a paddle a fixed 48 px (``paddleSpeed * moveMs``), so the
centres a paddle can reach before the ball arrives form a lattice ``cy + 48 k``
(clipped by the walls). When the ball comes its way, the player follows the
ball's straight path with its wall bounces to the paddle's face, and among the
reachable centres that still hit the ball (not too near the paddle's edge) it
picks the one whose return is hardest for the other side: where the ball hits
the paddle sets its angle, so it plays each candidate return forward against a
model of the opponent (the built-in computer player: it follows the ball's
height at ``aiSpeed``) and takes the one that beats it by the widest margin.
Then it presses towards that centre. When the ball goes away it moves back to
the middle.

Pong's card has two entries beyond the common ones: ``query``, the page's query
for the single-agent task (the computer plays right), and ``players``, the
two-player game's agents, each with its keys and policy.
"""

from __future__ import annotations

import math

from ..kit import actions as act
from ._common import WAIT, card, or_wait

CARD = card("pong")

SUB_MS = 4          # the game's physics sub-step
EDGE = 0.8          # hit the ball at most this far out on the paddle (1 = the very edge)


def policy(state: dict) -> dict:
    """The left player's next action: W, S or nothing."""
    return _policy(state, "left", {"up": "w", "down": "s"})


def policy_right(state: dict) -> dict:
    """The right player's next action: Up, Down or nothing."""
    return _policy(state, "right", {"up": "up", "down": "down"})


@or_wait
def _policy(state: dict, side: str, keys: dict[str, str]) -> dict:
    me = state["paddles"][side]
    other = state["paddles"]["left" if side == "right" else "right"]
    field = state["field"]
    ball = state["ball"]
    r = ball["r"]
    lo, hi = field["top"] + r, field["bottom"] - r
    step = state["paddleSpeed"] * state["moveMs"]
    cy = me["cy"] + me["moving"] * me["moveLeftMs"] * state["paddleSpeed"]
    cy_min, cy_max = field["top"] + me["h"] / 2, field["bottom"] - me["h"] / 2
    cy = min(cy_max, max(cy_min, cy))
    sign = -1 if side == "left" else 1          # the direction the ball comes in from
    hit_x = me["face"] - sign * r                # the ball's centre x when it bounces off me

    coming = ball["vx"] * sign > 0
    if not coming:
        return _press_towards(cy, (field["top"] + field["bottom"]) / 2, step, cy_min, cy_max, keys)

    wait_ms = state.get("serveInMs", 0) if state.get("serving") else 0
    t_hit = (hit_x - ball["x"]) / ball["vx"]
    if t_hit < 0:                                # past me already: the point is lost
        return WAIT
    y_hit = _fold(ball["y"] + ball["vy"] * t_hit, lo, hi)
    reach = me["h"] / 2 + r                      # |ball y - paddle centre| that still hits
    presses = int((t_hit + wait_ms) // 100) + 1  # presses there is time for (one per step of 100 ms or more)

    candidates = set()
    for k in range(-presses, presses + 1):
        candidates.add(round(min(cy_max, max(cy_min, cy + k * step)), 3))
    best, best_key = None, None
    for c in candidates:
        offset = (y_hit - c) / reach
        if abs(offset) > EDGE:
            continue
        moves = abs(c - cy) / step
        margin = _return_margin(state, side, other, y_hit, offset, t_hit + wait_ms)
        key = (margin, -moves)
        if best_key is None or key > best_key:
            best, best_key = c, key
    if best is None:
        # no reachable centre is safe: get as close to the ball as possible
        best = min(candidates, key=lambda c: abs(y_hit - c))
    return _press_towards(cy, best, step, cy_min, cy_max, keys)


def _press_towards(cy: float, goal: float, step: float, lo: float, hi: float, keys: dict[str, str]) -> dict:
    """The press (or none) that leaves the paddle's centre nearest to `goal` (a press stops at the walls)."""
    options = [(abs(goal - cy), 0, WAIT)]
    for d, name in ((-step, "up"), (step, "down")):
        options.append((abs(goal - min(hi, max(lo, cy + d))), 1, act.keys(keys[name])))
    return min(options, key=lambda o: o[:2])[2]


def _fold(y: float, lo: float, hi: float) -> float:
    """A straight path's height folded into [lo, hi] by the wall bounces."""
    span = hi - lo
    m = (y - lo) % (2 * span)
    return lo + (m if m <= span else 2 * span - m)


def _return_margin(state: dict, side: str, other: dict, y_hit: float, offset: float, t_hit: float) -> float:
    """How far (px) the opponent's paddle edge misses the ball after a return hit at `offset`; < 0: it gets there."""
    field, ball = state["field"], state["ball"]
    r = ball["r"]
    lo, hi = field["top"] + r, field["bottom"] - r
    speed = min(state["ballMax"], ball["speed"] * state["ballGain"])
    angle = offset * state["maxAngle"]
    vx, vy = speed * math.cos(angle), speed * math.sin(angle)
    sign = 1 if side == "left" else -1
    other_hit_x = other["face"] - sign * r
    t_back = abs(other_hit_x - (state["paddles"][side]["face"] + sign * r)) / vx
    ai_speed = state["aiSpeed"]
    middle = (field["top"] + field["bottom"]) / 2
    half_h = other["h"] / 2
    o_min, o_max = field["top"] + half_h, field["bottom"] - half_h
    # the opponent drifts to the middle while the ball comes to me ...
    oy = other["cy"]
    oy = _toward(oy, middle, ai_speed * t_hit)
    oy = min(o_max, max(o_min, oy))
    # ... and on, until the ball passes the middle; then it follows the ball's height
    n = int(t_back // SUB_MS)
    t_mid = abs(state["width"] / 2 - (state["paddles"][side]["face"] + sign * r)) / vx
    for i in range(1, n + 1):
        if i * SUB_MS < t_mid:
            oy = _toward(oy, middle, ai_speed * SUB_MS)
            continue
        y = _fold(y_hit + vy * i * SUB_MS, lo, hi)
        if abs(y - oy) > 6:
            oy += ai_speed * SUB_MS * (1 if y > oy else -1)
            oy = min(o_max, max(o_min, oy))
    y = _fold(y_hit + vy * t_back, lo, hi)
    return abs(y - oy) - (half_h + r)


def _toward(x: float, goal: float, dist: float) -> float:
    if abs(goal - x) <= dist:
        return goal
    return x + dist * (1 if goal > x else -1)
