"""Seeded sampling for task parameters: one `pick`, and the word lists several families draw from."""

from __future__ import annotations

from typing import Sequence, TypeVar

import numpy as np

T = TypeVar("T")

WORDS = ["amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
         "kelp", "lumen", "meadow", "nectar", "onyx", "pepper", "quartz", "raven", "sierra", "tundra"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]


def pick(rng: np.random.Generator, items: Sequence[T], k: int | None = None):
    """One item of `items` (k None), or `k` distinct items in drawn order; the items themselves
    (Python objects, not numpy scalars), drawn from `rng` only."""
    if k is None:
        return items[int(rng.integers(len(items)))]
    return [items[int(i)] for i in rng.choice(len(items), size=k, replace=False)]


def money(rng: np.random.Generator, lo: float, hi: float) -> float:
    """An amount of money between lo and hi, in cents."""
    return round(float(rng.uniform(lo, hi)), 2)
