"""Checkers of the phone's backend records: the exact difference between two snapshots of its collections."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .checkers import CheckResult, Condition, checker, normalize_text

Rows = Sequence[Mapping[str, Any]]
_PHONE = re.compile(r"\+?[\d\s().-]{6,}")


def same_value(a: Any, b: Any) -> bool:
    """Equal as a person would read them: text case- and space-insensitive, phone numbers by
    their digits, numbers by value (1 == 1.0, "5" != 5), booleans only equal to booleans."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (isinstance(a, bool) and isinstance(b, bool) and a == b)
    if isinstance(a, str) and isinstance(b, str):
        if _PHONE.fullmatch(a.strip()) and _PHONE.fullmatch(b.strip()):
            return re.sub(r"\D", "", a) == re.sub(r"\D", "", b)
        return normalize_text(a) == normalize_text(b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if a in (None, "") and b in (None, ""):
        return True
    return a == b


def matches(row: Mapping[str, Any], expected: Mapping[str, Any]) -> bool:
    """The row has every expected field with the same value (`same_value`)."""
    return all(k in row and same_value(row[k], v) for k, v in expected.items())


@dataclass
class RowDiff:
    """How one collection changed between two snapshots (rows keyed by id)."""
    added: list[dict] = field(default_factory=list)
    removed: list[dict] = field(default_factory=list)
    changed: list[tuple[dict, dict]] = field(default_factory=list)   # (before, after)

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)

    def describe(self) -> str:
        parts = []
        if self.added:
            parts.append(f"added {[_short(r) for r in self.added][:3]}")
        if self.removed:
            parts.append(f"removed {[_short(r) for r in self.removed][:3]}")
        for old, new in self.changed[:3]:
            fields = {k: new.get(k) for k in set(old) | set(new) if old.get(k) != new.get(k)}
            parts.append(f"changed #{old.get('id')} to {fields}")
        return "; ".join(parts) or "no change"


def _short(row: Mapping[str, Any]) -> dict:
    return {k: v for k, v in row.items() if k != "id"}


def row_diff(before: Rows, after: Rows, key: str = "id") -> RowDiff:
    old = {r[key]: dict(r) for r in before}
    new = {r[key]: dict(r) for r in after}
    return RowDiff(added=[new[k] for k in new if k not in old],
                   removed=[old[k] for k in old if k not in new],
                   changed=[(old[k], new[k]) for k in old if k in new and old[k] != new[k]])


def _check_collection(name: str, d: RowDiff, want: Mapping[str, Any]) -> str | None:
    """Why `d` is not exactly `want` ({"added": [...], "changed": {id: {...}}, "removed": [ids]}), or None."""
    added, changed = list(want.get("added", ())), dict(want.get("changed", {}))
    removed = set(want.get("removed", ()))
    if len(d.added) != len(added):
        return f"{name}: {len(d.added)} rows added, expected {len(added)} ({d.describe()})"
    free = list(d.added)
    for exp in added:   # each expected row matches its own added row
        hit = next((r for r in free if matches(r, exp)), None)
        if hit is None:
            return f"{name}: no added row has {dict(exp)} ({d.describe()})"
        free.remove(hit)
    got_removed = {r["id"] for r in d.removed}
    if got_removed != removed:
        return f"{name}: removed rows {sorted(got_removed)}, expected {sorted(removed)}"
    got_changed = {old["id"]: new for old, new in d.changed}
    if set(got_changed) != set(changed):
        return f"{name}: changed rows {sorted(got_changed)}, expected {sorted(changed)} ({d.describe()})"
    for rid, exp in changed.items():
        old = next(o for o, _ in d.changed if o["id"] == rid)
        new = got_changed[rid]
        if not matches(new, exp):
            return f"{name}: row #{rid} is {_short(new)}, expected {dict(exp)}"
        stray = [k for k in set(old) | set(new) if k not in exp and not same_value(old.get(k), new.get(k))]
        if stray:
            return f"{name}: row #{rid} also changed {sorted(stray)}"
    return None


@checker
def collections_changed(before: Mapping[str, Rows], after: Mapping[str, Rows],
                        expected: Mapping[str, Mapping[str, Any]] | None = None,
                        ignore: Mapping[str, Sequence[str]] | None = None) -> CheckResult:
    """Exactly the expected changes were made, and nothing else, in every collection.

    `expected[collection]` = {"added": [partial rows, one per new row],
    "changed": {id: {field: new value}} (other fields must stay), "removed": [ids]};
    a collection not named must be unchanged. Values compare with `same_value`.
    `ignore[collection]`: fields whose changes do not count (e.g. messages' "read", which
    opening a conversation sets).
    """
    expected, ignore = expected or {}, ignore or {}

    def strip(name: str, rows: Rows) -> list[dict]:
        drop = set(ignore.get(name, ()))
        return [{k: v for k, v in r.items() if k not in drop} for r in rows]

    for name in sorted(set(before) | set(after) | set(expected)):
        d = row_diff(strip(name, before.get(name, [])), strip(name, after.get(name, [])))
        why = _check_collection(name, d, expected.get(name, {}))
        if why:
            return CheckResult.failed(why, conditions=[_changes_condition(expected, False, why)])
    what = ", ".join(f"{n}: {'/'.join(k for k in ('added', 'changed', 'removed') if e.get(k))}"
                     for n, e in sorted(expected.items())) or "no change"
    return CheckResult.passed(f"exactly the expected changes ({what})",
                              [_changes_condition(expected, True, f"exactly the expected changes ({what})")])


def _changes_condition(expected: Mapping[str, Mapping[str, Any]], held: bool, message: str) -> Condition:
    """`collections_changed`'s one condition: a goal when changes are expected, else a guard (nothing changed)."""
    if any(e.get(k) for e in expected.values() for k in ("added", "changed", "removed")):
        return Condition("collections_changed", held, message)
    return Condition("nothing changed", held, message, guard=True)


def answer_in(answer: str | None, truths: Sequence[str]) -> CheckResult:
    """The agent's answer is one of the accepted forms: `match_answer` on a text `Answer` (the first truth,
    the others as its aliases). A thin wrapper kept for old callers."""
    from .answers import Answer, match_answer
    return match_answer(answer, Answer(truths[0], "text", aliases=tuple(truths[1:])))


def answer_time(answer: str | None, hhmm: str) -> CheckResult:
    """The answer is the time `hhmm` ("HH:MM"): `match_answer` on a time `Answer` ("9:05", "09:05", "9:05 am")."""
    from .answers import Answer, match_answer
    return match_answer(answer, Answer(hhmm, "time"))
