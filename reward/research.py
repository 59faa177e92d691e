"""Checkers of the information-seeking and file-sharing browser tasks: answers against a computed truth, downloads, file records."""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from .checkers import CheckResult, checker, normalize_text

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _plain(text: str) -> str:
    t = normalize_text(text)
    t = re.sub(r"^(the|a|an)\s+", "", t)
    return t.strip(" \"'“”‘’")


@checker
def research_answer(answer: str | None, truth: str | int | float, numeric: bool = False,
                    rel_tol: float = 0.0) -> CheckResult:
    """The final answer states the truth.

    numeric: the answer holds exactly one distinct number (thousands separators and units
    allowed, e.g. "1,400 km") within `rel_tol` of the truth. Text: equal after case folding,
    whitespace, a leading article, quotes and trailing punctuation are normalized away.
    """
    if answer is None or not answer.strip():
        return CheckResult.failed("no answer given (finish with finished(content='...'))")
    if numeric:
        nums = {float(n) for n in _NUMBER.findall(re.sub(r"(?<=\d),(?=\d{3})", "", answer))}
        if len(nums) != 1:
            return CheckResult.failed(f"answer {answer[:80]!r} must hold exactly one number, found {len(nums)}")
        got, want = nums.pop(), float(truth)
        if abs(got - want) <= max(1e-9, rel_tol * abs(want)):
            return CheckResult.passed(f"answer {answer!r} matches {truth}")
        return CheckResult.failed(f"answer {answer[:80]!r} is not {truth}")
    if _plain(answer) == _plain(str(truth)):
        return CheckResult.passed(f"answer {answer!r} is right")
    return CheckResult.failed(f"answer {answer[:80]!r} is not {truth!r}")


@checker
def downloaded(files: Mapping[str, bytes], name: str, expected: bytes, folder: str = "Downloads") -> CheckResult:
    """The workspace's download folder holds `name` (or a browser-renamed copy such as "name (1).ext")
    with exactly the expected bytes."""
    stem, dot, ext = name.rpartition(".")
    pattern = re.compile(re.escape(folder + "/" + (stem if dot else name)) + r"(?: \(\d+\))?" +
                         (re.escape("." + ext) if dot else "") + "$")
    hits = [p for p in files if pattern.match(p)]
    if not hits:
        return CheckResult.failed(f"{folder}/{name} was not downloaded (files there: "
                                  f"{sorted(p for p in files if p.startswith(folder + '/'))[:5]})")
    if not any(files[p] == expected for p in hits):
        return CheckResult.failed(f"{folder}/{name} differs from the file on the server")
    return CheckResult.passed(f"{name} is in {folder}/")


@checker
def records_changed_exactly(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                            changes: Mapping[int, Mapping[str, Any]], key: str = "id") -> CheckResult:
    """Each record in `changes` (id -> expected values) now has those values and nothing else of it
    changed; no record was added or removed, and every other record is unchanged."""
    old = {r[key]: dict(r) for r in before}
    new = {r[key]: dict(r) for r in after}
    if set(old) != set(new):
        return CheckResult.failed(f"records were added {sorted(set(new) - set(old))[:5]} "
                                  f"or removed {sorted(set(old) - set(new))[:5]}")
    for rid, expected in changes.items():
        if rid not in new:
            return CheckResult.failed(f"no record {rid}")
        got = new[rid]
        wrong = {k: got.get(k) for k, v in expected.items() if got.get(k) != v}
        if wrong:
            return CheckResult.failed(f"record {rid} has {wrong}, expected {dict(expected)}")
        if got != {**old[rid], **expected}:
            return CheckResult.failed(f"record {rid} changed more than asked: {got}")
    damaged = [k for k in old if k not in changes and old[k] != new[k]]
    if damaged:
        return CheckResult.failed(f"other records {damaged[:5]} were changed")
    return CheckResult.passed(f"records {sorted(changes)} updated as asked, nothing else changed")


@checker
def records_changed_only(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                         record_id: int, expected: Mapping[str, Any], key: str = "id") -> CheckResult:
    """The record `record_id` now has the expected values; no record was added or removed and every
    other record (and every other field of this one) is unchanged."""
    return records_changed_exactly(before, after, {record_id: expected}, key)
