"""Spaces for agent text: gymnasium's Text needs an enumerated charset; agent text is any Unicode.

`UnicodeText` is registered with gymnasium's space utilities, so that every path through gymnasium
takes any Unicode text: `gymnasium.spaces.flatten`/`unflatten`/`flatten_space` (a text flattens to
its code points, each plus one, padded with 0: `Box(0, 0x110000, (max_length,), int32)`) and the
shared memory of `AsyncVectorEnv` (`gym.make_vec(..., vectorization_mode="async")`, whose default
`shared_memory=True` copies observations through it). Gymnasium's own `Text` handlers index a
character set, which loses or rejects every character outside it, and its shared-memory reader returns
the text of the moment the buffer was made (empty) at every step.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.spaces import Box, Text
from gymnasium.spaces import utils as space_utils
from gymnasium.vector.utils import shared_memory as shm

#: the padding of a flattened text; a character c is stored as ord(c) + 1
PAD = 0
CODE_POINTS = 0x110000


class NoArrayShape(tuple):
    """The `shape` of a text space: empty, but a library that makes an array of that shape for the text
    (Stable-Baselines3's DummyVecEnv does, and fails with "'NoneType' object is not iterable" on gymnasium's
    own Text) is told instead what to use. Gymnasium itself never reads a Text space's shape."""

    HINT = ("this observation holds text (the instruction, SDK output, errors), which has no array shape; "
            "a pixels-and-discrete-actions learner such as Stable-Baselines3 wants "
            "hybridgym.wrappers.make_classic(id) (a game, Discrete actions, a small picture) or "
            "hybridgym.wrappers.PixelsOnly(env) (the screenshot alone)")

    def __iter__(self):
        raise TypeError(self.HINT)

    def __reduce__(self):
        return (NoArrayShape, ())

    def __repr__(self) -> str:
        return "NoArrayShape()"


class UnicodeText(Text):
    """Any str of at most `max_length` characters (samples are printable ASCII)."""

    def __init__(self, max_length: int, seed: Any = None):
        super().__init__(max_length=max_length, min_length=0, charset=string.printable, seed=seed)
        self._shape = NoArrayShape()

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and other.max_length == self.max_length

    __hash__ = Text.__hash__


def encode_text(space: UnicodeText, x: str) -> np.ndarray:
    """`x` as int32 code points plus one, padded with 0 to the space's length."""
    if not isinstance(x, str):
        raise TypeError(f"a {space!r} holds a str, got {type(x).__name__}")
    if len(x) > space.max_length:
        raise ValueError(f"text of {len(x)} characters does not fit {space!r}")
    arr = np.zeros(space.max_length, dtype=np.int32)
    if x:
        arr[:len(x)] = np.frombuffer(x.encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(np.int32) + 1
    return arr


def decode_text(row: np.ndarray) -> str:
    """The text `encode_text` stored in `row` (padding and out-of-range values skipped)."""
    row = np.asarray(row, dtype=np.int64)
    cps = row[(row > PAD) & (row <= CODE_POINTS)] - 1
    return cps.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


@space_utils.flatten.register(UnicodeText)
def _flatten(space: UnicodeText, x: str) -> np.ndarray:
    return encode_text(space, x)


@space_utils.unflatten.register(UnicodeText)
def _unflatten(space: UnicodeText, x: np.ndarray) -> str:
    return decode_text(x)


@space_utils.flatten_space.register(UnicodeText)
def _flatten_space(space: UnicodeText) -> Box:
    return Box(low=0, high=CODE_POINTS, shape=(space.max_length,), dtype=np.int32)


@space_utils.flatdim.register(UnicodeText)
def _flatdim(space: UnicodeText) -> int:
    return space.max_length


class SharedTexts(Sequence):
    """The texts of n sub-envs in an AsyncVectorEnv's shared memory, read when indexed.

    AsyncVectorEnv reads its observation buffer once, when it is made, and then relies on the buffer
    being a live view (as numpy arrays of shared memory are); gymnasium's own Text handler returns the
    strings of that moment instead, so every later observation showed empty text. A deep copy (what
    AsyncVectorEnv returns with its default `copy=True`) is a plain tuple of str."""

    def __init__(self, shared_memory, n: int, max_length: int):
        self._rows = np.frombuffer(shared_memory.get_obj(), dtype=np.int32).reshape((n, max_length))

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(decode_text(row) for row in self._rows[i])
        return decode_text(self._rows[i])

    def __deepcopy__(self, memo) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, Sequence) else other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r})"


@shm.read_from_shared_memory.register(UnicodeText)
def _read_shared(space: UnicodeText, shared_memory, n: int = 1) -> SharedTexts:
    return SharedTexts(shared_memory, n, space.max_length)


@shm.write_to_shared_memory.register(UnicodeText)
def _write_shared(space: UnicodeText, index: int, values: str, shared_memory) -> None:
    size = space.max_length
    destination = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)
    np.copyto(destination[index * size:(index + 1) * size], encode_text(space, values))
