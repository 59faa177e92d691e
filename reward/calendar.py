"""Checkers of the Calendar app's state (tasks/webapps/calendar.py): events created, changed, deleted, and nothing else touched.

Each takes the `events` lists of the baseline and of the final state (all owners)
and is pure, so it is unit-tested on plain data.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .checkers import CheckResult, all_of, checker, normalize_text

Events = Sequence[Mapping[str, Any]]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return normalize_text(a) == normalize_text(b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return sorted(a) == sorted(b)
    return a == b


def _mismatch(event: Mapping[str, Any], expected: Mapping[str, Any]) -> list[str]:
    return [f"{k}={event.get(k)!r} (expected {v!r})" for k, v in expected.items() if not _same(event.get(k), v)]


@checker(guard=True)
def calendar_others_unchanged(before: Events, after: Events, touched: Sequence[int] = (),
                              allow_added: int = 0) -> CheckResult:
    """Every event not in `touched` is still there, unchanged, and at most `allow_added` events were added."""
    now = {e["id"]: e for e in after}
    old = {e["id"] for e in before}
    damaged = [e["id"] for e in before if e["id"] not in touched and now.get(e["id"]) != e]
    added = [e for e in after if e["id"] not in old]
    if damaged:
        titles = [next(e["title"] for e in before if e["id"] == i) for i in damaged[:3]]
        return CheckResult.failed(f"other events were changed or deleted: {titles}")
    if len(added) > allow_added:
        return CheckResult.failed(f"{len(added)} events were added, expected {allow_added}: "
                                  f"{[e['title'] for e in added[:3]]}")
    return CheckResult.passed("other events intact")


@checker
def calendar_event_created(before: Events, after: Events, expected: Mapping[str, Any],
                           touched: Sequence[int] = ()) -> CheckResult:
    """Exactly one event was added, with the expected fields; the others (except `touched`) are unchanged."""
    old = {e["id"] for e in before}
    added = [e for e in after if e["id"] not in old]
    if not added:
        return CheckResult.failed(f"no event was created (expected {expected.get('title')!r})")
    if len(added) > 1:
        return CheckResult.failed(f"{len(added)} events were created, expected one: {[e['title'] for e in added[:3]]}")
    wrong = _mismatch(added[0], expected)
    if wrong:
        return CheckResult.failed("the new event has " + ", ".join(wrong))
    return all_of(CheckResult.passed(f"event {expected.get('title')!r} created"),
                  calendar_others_unchanged(before, after, touched, allow_added=1))


@checker
def calendar_event_changed(before: Events, after: Events, event_id: int, changes: Mapping[str, Any],
                           allow_added: int = 0, touched: Sequence[int] = ()) -> CheckResult:
    """Event `event_id` now has `changes` and every other field exactly as before; other events are untouched."""
    was = next((e for e in before if e["id"] == event_id), None)
    now = next((e for e in after if e["id"] == event_id), None)
    if was is None:
        return CheckResult.failed(f"event {event_id} was not in the starting state")
    if now is None:
        return CheckResult.failed(f"the event {was['title']!r} was deleted instead of changed")
    wrong = _mismatch(now, changes)
    if wrong:
        return CheckResult.failed(f"the event {was['title']!r} has " + ", ".join(wrong))
    kept = {k: v for k, v in was.items() if k not in changes}
    altered = [f"{k}={now.get(k)!r} (was {v!r})" for k, v in kept.items() if now.get(k) != v]   # exactly as was
    if altered:
        return CheckResult.failed(f"the event {was['title']!r} also changed: " + ", ".join(altered))
    return all_of(CheckResult.passed(f"event {was['title']!r} changed"),
                  calendar_others_unchanged(before, after, [event_id, *touched], allow_added))


@checker
def calendar_events_deleted(before: Events, after: Events, ids: Sequence[int]) -> CheckResult:
    """The events `ids` are gone; every other event is unchanged and none was added."""
    left = [e["title"] for e in after if e["id"] in ids]
    if left:
        return CheckResult.failed(f"{len(left)} of the {len(ids)} events to delete are still there")
    return all_of(CheckResult.passed(f"{len(ids)} events deleted"), calendar_others_unchanged(before, after, ids))


@checker
def calendar_series_created(before: Events, after: Events, expected: Mapping[str, Any],
                            dates: Sequence[str]) -> CheckResult:
    """One new event on each of `dates` (and no other new event), each with the expected fields; others unchanged."""
    old = {e["id"] for e in before}
    added = sorted((e for e in after if e["id"] not in old), key=lambda e: e["date"])
    got = [e["date"] for e in added]
    if got != sorted(dates):
        return CheckResult.failed(f"new events on {got}, expected one on each of {sorted(dates)}")
    for e in added:
        wrong = _mismatch(e, expected)
        if wrong:
            return CheckResult.failed(f"the new event on {e['date']} has " + ", ".join(wrong))
    return all_of(CheckResult.passed(f"{len(dates)} events {expected.get('title')!r} created"),
                  calendar_others_unchanged(before, after, allow_added=len(dates)))
