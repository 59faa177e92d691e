"""Spaces for agent text: gymnasium's Text needs an enumerated charset; agent text is any Unicode."""

from __future__ import annotations

import string
from typing import Any

from gymnasium.spaces import Text


class UnicodeText(Text):
    """Any str of at most `max_length` characters (samples are printable ASCII)."""

    def __init__(self, max_length: int, seed: Any = None):
        super().__init__(max_length=max_length, min_length=0, charset=string.printable, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and other.max_length == self.max_length
