"""Scripted players and cards of the HTML5 games: one module per game in assets/games.

Each module has `CARD`, the game's card (name, title, step_ms, max_steps, target,
instruction, keys, grid), which is data beside the game's page
(assets/games/<name>/card.json, read by `_common.card`), and
`policy(state) -> action dict`: the reference player that the game's oracle plays
through the env's own actions, and that defines 100 on the normalized score.
What the players share is in `_common` (a module without a card).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

_REQUIRED = ("name", "title", "step_ms", "max_steps", "target", "instruction", "keys", "grid")


def discover() -> dict[str, ModuleType]:
    """Game name -> its player module, for every module of this package."""
    found: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        mod = importlib.import_module(f"{__name__}.{info.name}")
        card = getattr(mod, "CARD", None)
        if card is None or not callable(getattr(mod, "policy", None)):
            continue
        missing = [k for k in _REQUIRED if k not in card]
        if missing:
            raise ValueError(f"{mod.__name__}.CARD lacks {missing}")
        found[card["name"]] = mod
    return found
