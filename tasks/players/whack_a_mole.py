"""Scripted player and game card for Whack-a-Mole: clicks the mole that will go down soonest.

Each step it looks at the moles that are up in the state() snapshot and
clicks the centre of the hole whose mole has the least time left (a mole
that is up at the snapshot is still up when the click arrives, since no game
time passes in between). It never clicks an empty hole, which would cost a
life; with no mole up it waits.
"""

from __future__ import annotations

CARD = {
    "name": "whack-a-mole",
    "title": "Whack-a-Mole",
    "step_ms": 100,
    "max_steps": 600,
    "target": 20,
    "instruction": (
        "Play Whack-a-Mole. Moles pop up from the 9 holes for a moment: click a mole to whack it (+1). A mole "
        "that goes back down costs nothing, but clicking a hole with no mole in it costs one of your 3 lives. "
        "The round lasts 60 seconds. Reach a score of 20."
    ),
    "keys": [],
    "grid": {"x0": 130, "y0": 115, "cols": 3, "rows": 3, "cell_w": 180, "cell_h": 150},
}


def policy(state: dict) -> dict:
    """A click on the mole with the least time left, or a wait if no mole is up."""
    if state.get("gameOver") or not state.get("moles"):
        return {"action_type": "wait", "seconds": 0}
    mole = min(state["moles"], key=lambda m: (m["msLeft"], m["hole"]))
    return {"action_type": "click", "x": round(mole["x"]), "y": round(mole["y"])}
