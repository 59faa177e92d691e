"""Checkers for the phone's tool apps (notes, settings, files, gallery, expenses): volatile fields, settings
within a tolerance, appended text, and answers that are an amount of money or a date."""

from __future__ import annotations

from typing import Any, Mapping

from .answers import Answer, match_answer
from .checkers import CheckResult, Condition, checker, goal, judged, normalize_text, not_judged
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
    return settings_set(before, after, {}, {key: target}, tolerance)


def _near(value: Any, target: float, tolerance: float) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value - target) <= tolerance


@checker
def settings_set(before: Rows, after: Rows, values: Mapping[str, Any], near: Mapping[str, float] | None = None,
                 tolerance: float = 4) -> CheckResult:
    """The one settings record has exactly `values`, each key of `near` within `tolerance` of its target, and
    every other setting as it was (turning every option on fails).

    Conditions: guard "one settings record"; a goal per setting asked for ("setting K", a guard when it was
    already so before); guard "other settings unchanged"."""
    near = dict(near or {})
    if len(before) != 1 or len(after) != 1:
        why = f"expected one settings record before and after, got {len(before)} and {len(after)}"
        return judged([Condition("one settings record", False, why, guard=True),
                       *not_judged([f"setting {k}" for k in [*values, *near]], why)], "")
    old, new = before[0], after[0]
    conditions = [goal(f"setting {key}", new.get(key) == want, f"setting {key} is {new.get(key)!r}, expected {want!r}",
                       already=old.get(key) == want) for key, want in values.items()]
    for key, target in near.items():
        value = new.get(key)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        conditions.append(goal(f"setting {key}", _near(value, target, tolerance),
                               f"setting {key} is {value}, expected {target} ± {tolerance}" if number else
                               f"setting {key} is {value!r}, not a number",
                               already=_near(old.get(key), target, tolerance)))
    stray = sorted(k for k in set(old) | set(new) if k not in values and k not in near and old.get(k) != new.get(k))
    conditions.append(Condition("other settings unchanged", not stray, f"other settings changed too: {stray}", guard=True))
    asked = {**values, **{k: f"{t}±{tolerance}" for k, t in near.items()}}
    if not values and len(near) == 1:
        (key, target), = near.items()
        return judged(conditions, f"setting {key} is {new.get(key)} (target {target} ± {tolerance})")
    return judged(conditions, f"settings {asked}, nothing else changed")


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
