"""Snake: the game card and its scripted player (BFS to the apple, keeping the tail reachable)."""

from ..game_players import snake_policy

CARD = {
    "name": "snake",
    "title": "Snake",
    "step_ms": 150,          # one tick of the snake per step
    "max_steps": 400,
    "target": 5,
    "instruction": ("Play Snake. Steer with the arrow keys to eat the red apples; avoid the walls and "
                    "your own tail. Reach a score of 5."),
    "keys": ["up", "down", "left", "right"],
    "grid": None,
}


def policy(state: dict) -> dict:
    return {"action_type": "hotkey", "keys": [snake_policy(state)]}
