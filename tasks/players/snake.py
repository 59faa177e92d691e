"""Snake: the game card and its scripted player (BFS to the apple, keeping the tail reachable).

A step (the card's step_ms, 150) is one tick of the snake.
"""

from ..game_players import snake_policy
from ..kit import actions as act
from ._common import card

CARD = card("snake")


def policy(state: dict) -> dict:
    return act.keys(snake_policy(state))
