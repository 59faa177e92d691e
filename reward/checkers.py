"""The checker registry and the checkers shared by the suites."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence


@dataclass(frozen=True)
class CheckResult:
    """`success` is whether the task is done; `reward` may grade partial work (0..1)."""
    success: bool
    reward: float
    message: str
    details: dict = field(default_factory=dict)

    @classmethod
    def passed(cls, message: str = "ok", **details) -> "CheckResult":
        return cls(True, 1.0, message, details)

    @classmethod
    def failed(cls, message: str, reward: float = 0.0, **details) -> "CheckResult":
        return cls(False, reward, message, details)


Checker = Callable[..., CheckResult]
CHECKERS: dict[str, Checker] = {}


def checker(fn: Checker) -> Checker:
    """Register a checker under its function name."""
    if fn.__name__ in CHECKERS:
        raise ValueError(f"checker {fn.__name__!r} is registered twice")
    CHECKERS[fn.__name__] = fn
    return fn


def get_checker(name: str) -> Checker:
    try:
        return CHECKERS[name]
    except KeyError:
        raise KeyError(f"no checker {name!r}; registered: {sorted(CHECKERS)}") from None


def all_of(*results: CheckResult) -> CheckResult:
    """Success only if every result succeeds; the first failure explains why."""
    for r in results:
        if not r.success:
            return r
    return CheckResult.passed("; ".join(r.message for r in results))


def normalize_text(text: str) -> str:
    """Case-folded, NFKC, whitespace collapsed, trailing punctuation dropped."""
    t = unicodedata.normalize("NFKC", text).casefold()
    t = re.sub(r"\s+", " ", t).strip()
    return t.rstrip(" .!。")


@checker
def file_text_equals(files: Mapping[str, bytes], path: str, expected: str,
                     strip_trailing_newline: bool = True) -> CheckResult:
    """The file at `path` holds exactly `expected` (one trailing newline allowed)."""
    if path not in files:
        return CheckResult.failed(f"{path} does not exist")
    try:
        text = files[path].decode("utf-8")
    except UnicodeDecodeError:
        return CheckResult.failed(f"{path} is not UTF-8 text")
    if strip_trailing_newline and text.endswith("\n"):
        text = text[:-1]
    if text != expected:
        return CheckResult.failed(f"{path} holds {text[:80]!r}, expected {expected[:80]!r}")
    return CheckResult.passed(f"{path} holds the expected text")


@checker
def files_unchanged(before: Mapping[str, bytes], after: Mapping[str, bytes],
                    ignore: Sequence[str] = (), ignore_prefixes: Sequence[str] = ()) -> CheckResult:
    """Every file present before is still there with the same bytes (except those ignored)."""
    def skip(p: str) -> bool:
        return p in ignore or any(p.startswith(x) for x in ignore_prefixes)
    missing = [p for p in before if not skip(p) and p not in after]
    changed = [p for p in before if not skip(p) and p in after and after[p] != before[p]]
    if missing or changed:
        return CheckResult.failed(f"other files were damaged: missing {missing[:5]}, changed {changed[:5]}")
    return CheckResult.passed("other files intact")


@checker
def records_contain(records: Sequence[Mapping[str, Any]], expected: Mapping[str, Any],
                    normalize: bool = True) -> CheckResult:
    """Exactly one record has all the expected field values."""
    def eq(a: Any, b: Any) -> bool:
        if normalize and isinstance(a, str) and isinstance(b, str):
            return normalize_text(a) == normalize_text(b)
        return a == b
    hits = [r for r in records if all(k in r and eq(r[k], v) for k, v in expected.items())]
    if len(hits) == 1:
        return CheckResult.passed(f"found the record {dict(expected)}")
    if not hits:
        return CheckResult.failed(f"no record with {dict(expected)}")
    return CheckResult.failed(f"{len(hits)} records with {dict(expected)}, expected exactly one")


@checker
def records_unchanged(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                      key: str = "id") -> CheckResult:
    """Every record present before is present after, unchanged."""
    now = {r[key]: r for r in after}
    damaged = [r[key] for r in before if now.get(r[key]) != r]
    if damaged:
        return CheckResult.failed(f"records {damaged[:5]} were changed or deleted")
    return CheckResult.passed("existing records intact")


@checker
def record_added(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                 expected: Mapping[str, Any], normalize: bool = True, key: str = "id") -> CheckResult:
    """Exactly one record was added, it has the expected values, and the others are untouched."""
    old = {r[key] for r in before}
    new = [r for r in after if r[key] not in old]
    if len(new) != 1:
        return CheckResult.failed(f"{len(new)} records were added, expected 1")
    return all_of(records_contain(new, expected, normalize=normalize), records_unchanged(before, after, key))


@checker
def score_at_least(score: float, target: float) -> CheckResult:
    """A game's score reached the target; reward is the fraction of the target reached."""
    if score >= target:
        return CheckResult.passed(f"score {score} >= {target}")
    return CheckResult.failed(f"score {score} < {target}", reward=max(0.0, min(1.0, score / target)) if target else 0.0)
