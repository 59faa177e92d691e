"""Checkers for the phone's tool apps (notes, settings, files, gallery, expenses): volatile fields, settings
within a tolerance, appended text, and answers that are an amount of money or a date."""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Mapping

from .checkers import CheckResult, answer_matches, checker, normalize_text
from .phone import Rows, collections_changed

#: fields an app rewrites without being asked: a note's edit time, a message's read mark
VOLATILE = {"notes": ("updated",), "messages": ("read",)}

_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december"]


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
def text_appended(old: str, new: str, addition: str) -> CheckResult:
    """`new` is `old` with `addition` at its end (any whitespace between; case and spacing as `normalize_text`)."""
    o, n, a = normalize_text(old), normalize_text(new), normalize_text(addition)
    if not n.endswith(a):
        return CheckResult.failed(f"the text does not end with {addition!r}: {new[-80:]!r}")
    if normalize_text(n[: len(n) - len(a)]) != o:
        return CheckResult.failed(f"the text before {addition!r} is not the old text {old[:60]!r}: {new[:80]!r}")
    return CheckResult.passed(f"{addition!r} appended")


@checker
def answer_amount(answer: str | None, amount: float) -> CheckResult:
    """The answer names one amount of money equal to `amount` (to the cent): "$42.50", "42.5", "USD 42.50"."""
    return answer_matches(answer, f"{amount:.2f}", numeric=True)


def _answer_date(answer: str) -> date | None:
    text = answer.strip().lower()
    m = re.search(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
    if m:
        y, mo, d = map(int, m.groups())
    else:
        month = next((i + 1 for i, n in enumerate(_MONTHS) if re.search(rf"\b{n[:3]}[a-z]*\.?\b", text)), None)
        nums = [int(x) for x in re.findall(r"\d+", text)]
        years = [x for x in nums if x >= 1000]
        days = [x for x in nums if 1 <= x <= 31]
        if month is None or len(years) != 1 or len(days) != 1:
            return None
        y, mo, d = years[0], month, days[0]
    try:
        return date(y, mo, d)
    except ValueError:
        return None


@checker
def answer_date(answer: str | None, iso: str) -> CheckResult:
    """The answer names the date `iso` ("YYYY-MM-DD"): as 2026-03-12, "12 March 2026", "March 12, 2026", "Mar 12 2026"."""
    if answer is None or not answer.strip():
        return CheckResult.failed("no answer given (finish with finished(content='...'))")
    got = _answer_date(answer)
    if got is None:
        return CheckResult.failed(f"answer {answer[:80]!r} is not a date with day, month and year")
    if got.isoformat() != iso:
        return CheckResult.failed(f"answer {answer[:80]!r} is {got.isoformat()}, not {iso}")
    return CheckResult.passed(f"answer {answer!r} is {iso}")
