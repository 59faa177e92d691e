"""2048: the game card and its scripted player (depth-2 expectimax)."""

from ..game_players import policy_2048

CARD = {
    "name": "2048",
    "title": "2048",
    "step_ms": 100,          # a slide and its pop animation take 100 ms
    "max_steps": 400,
    "target": 3000,
    "instruction": ("Play 2048. Slide the tiles with the arrow keys; equal tiles merge and add to the "
                    "score. Reach a score of 3000."),
    "keys": ["up", "down", "left", "right"],
    "grid": None,
}


def policy(state: dict) -> dict:
    return {"action_type": "hotkey", "keys": [policy_2048(state)]}
