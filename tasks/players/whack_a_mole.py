"""Scripted player and game card for Whack-a-Mole: clicks the mole that will go down soonest.

Each step it looks at the moles that are up in the state() snapshot and
clicks the centre of the hole whose mole has the least time left (a mole
that is up at the snapshot is still up when the click arrives, since no game
time passes in between). It never clicks an empty hole, which would cost a
life; with no mole up it waits.
"""

from __future__ import annotations

from ..kit import actions as act
from ._common import WAIT, card, or_wait

CARD = card("whack-a-mole")


@or_wait
def policy(state: dict) -> dict:
    """A click on the mole with the least time left, or a wait if no mole is up."""
    if not state.get("moles"):
        return WAIT
    mole = min(state["moles"], key=lambda m: (m["msLeft"], m["hole"]))
    return act.click(round(mole["x"]), round(mole["y"]))
