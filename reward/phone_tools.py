"""Checkers for the phone's tool apps (notes, settings, files, gallery, expenses): volatile fields, settings
within a tolerance, appended text, and answers that are an amount of money or a date."""

from __future__ import annotations

from typing import Any, Mapping

from .answers import Answer, match_answer
from .checkers import CheckResult, checker, normalize_text
from .phone import Rows, collections_changed

#: fields an app rewrites without being asked: a note's edit time, a message's read mark
VOLATILE = {"notes": ("updated",), "messages": ("read",)}

@checker
def phone_changed(before: Mapping[str, Rows], after: Mapping[str, Rows],
                  expected: Mapping[str, Mapping[str, Any]] | None = None) -> CheckResult:
    """`collections_changed` on the snapshots without their volatile fields (note edit times, read marks)."""
    return collections_changed(before, after, expected, ignore=VOLATILE)


@checker
def setting_near(before: Rows, after: Rows, key: str, target: float, tolerance: float) -> CheckResult:
    """The one settings record's `key` is within `tolerance` of `target`, and no other setting changed."""
    if len(before) != 1 or len(after) != 1:
        return CheckResult.failed(f"expected one settings record before and after, got {len(before)} and {len(after)}")
    old, new = before[0], after[0]
    value = new.get(key)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return CheckResult.failed(f"setting {key} is {value!r}, not a number")
    if abs(value - target) > tolerance:
        return CheckResult.failed(f"setting {key} is {value}, expected {target} ± {tolerance}")
    stray = sorted(k for k in set(old) | set(new) if k != key and old.get(k) != new.get(k))
    if stray:
        return CheckResult.failed(f"other settings changed too: {stray}")
    return CheckResult.passed(f"setting {key} is {value} (target {target} ± {tolerance})")


@checker
def settings_set(before: Rows, after: Rows, values: Mapping[str, Any], near: Mapping[str, float] | None = None,
                 tolerance: float = 4) -> CheckResult:
    """The one settings record has exactly `values`, each key of `near` within `tolerance` of its target, and
    every other setting as it was (turning every option on fails)."""
    if len(before) != 1 or len(after) != 1:
        return CheckResult.failed(f"expected one settings record before and after, got {len(before)} and {len(after)}")
    old, new, near = before[0], after[0], dict(near or {})
    for key, want in values.items():
        if new.get(key) != want:
            return CheckResult.failed(f"setting {key} is {new.get(key)!r}, expected {want!r}")
    for key, target in near.items():
        value = new.get(key)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return CheckResult.failed(f"setting {key} is {value!r}, not a number")
        if abs(value - target) > tolerance:
            return CheckResult.failed(f"setting {key} is {value}, expected {target} ± {tolerance}")
    stray = sorted(k for k in set(old) | set(new) if k not in values and k not in near and old.get(k) != new.get(k))
    if stray:
        return CheckResult.failed(f"other settings changed too: {stray}")
    asked = {**values, **{k: f"{t}±{tolerance}" for k, t in near.items()}}
    return CheckResult.passed(f"settings {asked}, nothing else changed")


@checker
def text_appended(old: str, new: str, addition: str) -> CheckResult:
    """`new` is `old` with `addition` at its end (any whitespace between; case and spacing as `normalize_text`)."""
    o, n, a = normalize_text(old), normalize_text(new), normalize_text(addition)
    if not n.endswith(a):
        return CheckResult.failed(f"the text does not end with {addition!r}: {new[-80:]!r}")
    if normalize_text(n[: len(n) - len(a)]) != o:
        return CheckResult.failed(f"the text before {addition!r} is not the old text {old[:60]!r}: {new[:80]!r}")
    return CheckResult.passed(f"{addition!r} appended")


def answer_amount(answer: str | None, amount: float) -> CheckResult:
    """The answer states one amount of dollars equal to `amount` (to the cent): `match_answer` on a number
    `Answer` in "$" ("$42.50", "42.5", "USD 42.50"; another currency or a second number fails)."""
    return match_answer(answer, Answer(round(amount, 2), "number", currency="$"))


def answer_date(answer: str | None, iso: str) -> CheckResult:
    """The answer is the date `iso` ("YYYY-MM-DD"): `match_answer` on a date `Answer` (2026-03-12,
    "12 March 2026", "March 12, 2026", "Mar 12 2026")."""
    return match_answer(answer, Answer(iso, "date"))
