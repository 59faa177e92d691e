"""Seeded sampling for task parameters: one `pick`, split pools, and the word lists several families draw from.

The test split holds out: a `Pool` is a word list cut into two disjoint halves, one per split,
and `pick` draws from the half of the generator's split (`SplitRng.split`, set by `Task.draw`
from the reset seed). A task whose instructions and answers are made from pools therefore never
shows a test instance that a training seed also gives. `split_of(rng)` tells a task which split
it draws for (to pick a year, a corpus seed, a range of values of its own).
"""

from __future__ import annotations

from typing import Sequence, TypeVar

import numpy as np

T = TypeVar("T")

WORDS = ["amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
         "kelp", "lumen", "meadow", "nectar", "onyx", "pepper", "quartz", "raven", "sierra", "tundra"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]


class Pool(tuple):
    """A word list cut into two disjoint halves: "train" draws the even-indexed items, "test" the
    odd-indexed ones. `pick(rng, pool)` draws from the half of `rng`'s split."""

    def half(self, split: str) -> tuple:
        if split not in ("train", "test"):
            raise ValueError(f"split must be 'train' or 'test', got {split!r}")
        return tuple(self[0::2] if split == "train" else self[1::2])


def split_of(rng: np.random.Generator) -> str:
    """The split a generator draws for: its `split` (a `SplitRng` from `Task.draw`), else "train"
    (a plain generator, as in older code and unit tests)."""
    return getattr(rng, "split", "train")


def pool_of(rng: np.random.Generator, items: Sequence[T]) -> Sequence[T]:
    """The items `rng` may draw: a `Pool`'s half of its split, any other sequence whole."""
    return items.half(split_of(rng)) if isinstance(items, Pool) else items


def pick(rng: np.random.Generator, items: Sequence[T], k: int | None = None):
    """One item of `items` (k None), or `k` distinct items in drawn order; the items themselves
    (Python objects, not numpy scalars), drawn from `rng` only. From a `Pool`, only the half of
    `rng`'s split."""
    items = pool_of(rng, items)
    if k is None:
        return items[int(rng.integers(len(items)))]
    return [items[int(i)] for i in rng.choice(len(items), size=k, replace=False)]


def split_int(rng: np.random.Generator, lo: int, hi: int) -> int:
    """An integer of [lo, hi): of its lower half for a training draw, of its upper half for a test one (codes,
    numbers, years: a test instance never shows a training one's)."""
    mid = (lo + hi) // 2
    return int(rng.integers(lo, mid)) if split_of(rng) == "train" else int(rng.integers(mid, hi))


def money(rng: np.random.Generator, lo: float, hi: float) -> float:
    """An amount of money between lo and hi, in cents."""
    return round(float(rng.uniform(lo, hi)), 2)
