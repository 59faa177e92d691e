"""2048: the game card and its scripted player (depth-2 expectimax).

A step (the card's step_ms, 100) is a slide and its pop animation.
"""

from ..game_players import policy_2048
from ..kit import actions as act
from ._common import card

CARD = card("2048")


def policy(state: dict) -> dict:
    return act.keys(policy_2048(state))
