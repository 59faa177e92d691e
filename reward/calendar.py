"""Checkers of the Calendar app's state (tasks/webapps/calendar.py): events created, changed, deleted, and nothing else touched.

Each takes the `events` lists of the baseline and of the final state (all owners)
and is pure, so it is unit-tested on plain data.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .checkers import CheckResult, Condition, as_condition, checker, goal, judged, normalize_text, not_judged

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


def _fields(event: Mapping[str, Any] | None, expected: Mapping[str, Any], what: str, why: str,
            was: Mapping[str, Any] | None = None) -> list[Condition]:
    """One goal per expected field of `event` (not judged, with `why`, when there is no event); a field the
    event already had before (`was`) is a guard."""
    if event is None:
        return not_judged([f"{what}: {k}" for k in expected], why)
    return [goal(f"{what}: {k}", _same(event.get(k), v), f"{what} has {k}={event.get(k)!r} (expected {v!r})",
                 already=was is not None and _same(was.get(k), v)) for k, v in expected.items()]


def _others(before: Events, after: Events, touched: Sequence[int], allow_added: int) -> Condition:
    return as_condition("other events intact", calendar_others_unchanged(before, after, touched, allow_added), guard=True)


@checker
def calendar_event_created(before: Events, after: Events, expected: Mapping[str, Any],
                           touched: Sequence[int] = ()) -> CheckResult:
    """Exactly one event was added, with the expected fields; the others (except `touched`) are unchanged.
    Conditions: "one event created", one per expected field, guard "other events intact"."""
    old = {e["id"] for e in before}
    added = [e for e in after if e["id"] not in old]
    msg = (f"no event was created (expected {expected.get('title')!r})" if not added else
           f"{len(added)} events were created, expected one: {[e['title'] for e in added[:3]]}")
    one = Condition("one event created", len(added) == 1, msg)
    fields = _fields(added[0] if one.held else None, expected, "the new event", msg)
    return judged([one, *fields, _others(before, after, touched, 1)], f"event {expected.get('title')!r} created")


@checker
def calendar_event_changed(before: Events, after: Events, event_id: int, changes: Mapping[str, Any],
                           allow_added: int = 0, touched: Sequence[int] = ()) -> CheckResult:
    """Event `event_id` now has `changes` and every other field exactly as before; other events are untouched.
    Conditions: guard "the event is still there", one goal per change, guards "no other field of the event
    changed" and "other events intact"."""
    was = next((e for e in before if e["id"] == event_id), None)
    if was is None:
        return CheckResult.failed(f"event {event_id} was not in the starting state")
    now = next((e for e in after if e["id"] == event_id), None)
    what = f"the event {was['title']!r}"
    there = Condition("the event is still there", now is not None, f"{what} was deleted instead of changed", guard=True)
    kept = {k: v for k, v in was.items() if k not in changes}
    altered = [f"{k}={now.get(k)!r} (was {v!r})" for k, v in kept.items() if now is not None and now.get(k) != v]
    rest = Condition("no other field of the event changed", not altered, f"{what} also changed: " + ", ".join(altered),
                     guard=True)
    return judged([there, *_fields(now, changes, what, there.message, was), rest,
                   _others(before, after, [event_id, *touched], allow_added)], f"event {was['title']!r} changed")


@checker
def calendar_events_deleted(before: Events, after: Events, ids: Sequence[int]) -> CheckResult:
    """The events `ids` are gone; every other event is unchanged and none was added.
    Conditions: one goal per event to delete, guard "other events intact"."""
    left = {e["id"] for e in after}
    n = sum(i in left for i in ids)
    gone = [Condition(f"event {e['title']!r} deleted", e["id"] not in left,
                      f"{n} of the {len(ids)} events to delete are still there") for e in before if e["id"] in ids]
    return judged([*gone, _others(before, after, ids, 0)], f"{len(ids)} events deleted")


@checker
def calendar_series_created(before: Events, after: Events, expected: Mapping[str, Any],
                            dates: Sequence[str]) -> CheckResult:
    """One new event on each of `dates` (and no other new event), each with the expected fields; others unchanged.
    Conditions: one goal per date (one new event there, with the expected fields), guards "no new event on
    another date" and "other events intact"."""
    old = {e["id"] for e in before}
    added = sorted((e for e in after if e["id"] not in old), key=lambda e: e["date"])
    got = [e["date"] for e in added]
    where = f"new events on {got}, expected one on each of {sorted(dates)}"
    conditions = []
    for d in sorted(dates):
        on = [e for e in added if e["date"] == d]
        wrong = _mismatch(on[0], expected) if len(on) == 1 else []
        conditions.append(Condition(f"one new event on {d} as asked", len(on) == 1 and not wrong,
                                    f"the new event on {d} has " + ", ".join(wrong) if wrong else where))
    stray = [d for d in got if d not in dates]
    conditions.append(Condition("no new event on another date", not stray, where, guard=True))
    conditions.append(_others(before, after, (), len(added)))
    return judged(conditions, f"{len(dates)} events {expected.get('title')!r} created")
