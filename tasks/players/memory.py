"""Scripted player and game card for memory (pairs): perfect recall of every card it has seen, nothing more.

The state only shows the faces of cards that are up or were seen before, so
the player knows exactly what a person with a perfect memory would. Each turn:

- if two unmatched cards seen before show the same symbol, turn them over;
- otherwise turn a card never seen; if its partner was seen before, turn the
  partner, else turn another card never seen (which may match by luck, and
  tells more about the layout either way).

One click per env step. A miss on show is turned back by the game on the next
click, so the player never has to wait for it.
"""

from __future__ import annotations

from ..kit import actions as act
from ._common import WAIT, card, or_wait

CARD = card("memory")


@or_wait
def policy(state: dict) -> dict:
    """The next card to click, from what has been seen so far."""
    cards = state["cards"]
    # A miss on show is turned back by the next click, so it counts as no card open.
    open_ = [] if state.get("missPending") else list(state.get("open", []))
    unmatched = [c for c in cards if c["status"] != "matched"]
    known: dict[int, list[int]] = {}
    for c in unmatched:
        if c["face"] is not None:
            known.setdefault(c["face"], []).append(c["index"])
    unseen = [c["index"] for c in unmatched if c["face"] is None]

    if len(open_) == 1:
        first = open_[0]
        face = cards[first]["face"]
        partner = [i for i in known.get(face, []) if i != first]
        if partner:
            return _click(cards[partner[0]])
        choice = unseen[0] if unseen else next(c["index"] for c in unmatched if c["index"] != first)
        return _click(cards[choice])

    for face in sorted(known):
        if len(known[face]) >= 2:
            return _click(cards[known[face][0]])
    if unseen:
        return _click(cards[unseen[0]])
    return WAIT


def _click(card: dict) -> dict:
    return act.click(card["x"], card["y"])
