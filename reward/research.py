"""Checkers of the file-sharing browser tasks: downloads (exactly the asked files), the rest of the workspace, file records.

Answers are judged by `reward.answers.match_answer`."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .checkers import CheckResult, Condition, checker, goal, judged


@checker
def downloaded(files: Mapping[str, bytes], name: str, expected: bytes, folder: str = "Downloads") -> CheckResult:
    """The workspace's download folder holds exactly one file, `name`, with exactly the expected
    bytes: any other file there fails, and so does a browser-renamed second copy ("name (1).ext")
    or a partial download (".crdownload"). `files` is the workspace snapshot (or its `folder/` part)."""
    return downloads_exactly(files, {name: expected}, folder)


@checker
def downloads_exactly(files: Mapping[str, bytes], expected: Mapping[str, bytes],
                      folder: str = "Downloads") -> CheckResult:
    """The download folder holds exactly the `expected` files (name -> bytes) and nothing else.
    Conditions: one goal per expected file (there, with the server's bytes), guard "nothing else downloaded"."""
    here = {p[len(folder) + 1:]: b for p, b in files.items() if p.startswith(folder + "/")}
    got = [Condition(f"{folder}/{n} downloaded", here.get(n) == want,
                     f"{folder}/{n} was not downloaded (files there: {sorted(here)[:5]})" if n not in here else
                     f"{folder}/{n} differs from the file on the server") for n, want in sorted(expected.items())]
    extra = sorted(set(here) - set(expected))
    only = Condition(f"nothing else in {folder}/", not extra, f"{folder}/ holds more than was asked for: {extra[:5]}",
                     guard=True)
    missing = [c for c in got if not c.held and "not downloaded" in c.message]
    return judged([*missing, only, *got], f"{folder}/ holds exactly {sorted(expected)}")


@checker(guard=True)
def workspace_unchanged(before: Mapping[str, bytes], after: Mapping[str, bytes], skip: str = "Downloads") -> CheckResult:
    """Every workspace file outside the folder `skip` is as it was: none added, removed or changed."""
    def rest(files):
        return {p: b for p, b in files.items() if not p.startswith(skip + "/")}
    old, new = rest(before), rest(after)
    changed = sorted(p for p in set(old) | set(new) if old.get(p) != new.get(p))
    if changed:
        return CheckResult.failed(f"workspace files outside {skip}/ were added, removed or changed: {changed[:5]}")
    return CheckResult.passed(f"nothing outside {skip}/ changed")


@checker
def records_changed_exactly(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                            changes: Mapping[int, Mapping[str, Any]], key: str = "id") -> CheckResult:
    """Each record in `changes` (id -> expected values) now has those values and nothing else of it
    changed; no record was added or removed, and every other record is unchanged.

    Conditions: guard "no record added or removed"; per record to change, a goal "record N has its new
    values" (a guard when it had them before) and a guard "nothing else of record N changed"; guard
    "other records unchanged"."""
    old = {r[key]: dict(r) for r in before}
    new = {r[key]: dict(r) for r in after}
    same_ids = Condition("no record added or removed", set(old) == set(new),
                         f"records were added {sorted(set(new) - set(old))[:5]} "
                         f"or removed {sorted(set(old) - set(new))[:5]}", guard=True)
    conditions = [same_ids]
    for rid, expected in changes.items():
        got, was = new.get(rid), old.get(rid, {})
        if got is None:
            conditions.append(Condition(f"record {rid} has its new values", False, f"no record {rid}"))
            continue
        wrong = {k: got.get(k) for k, v in expected.items() if got.get(k) != v}
        conditions.append(goal(f"record {rid} has its new values", not wrong,
                               f"record {rid} has {wrong}, expected {dict(expected)}",
                               already=all(was.get(k) == v for k, v in expected.items())))
        extra = {k: v for k, v in got.items() if k not in expected and was.get(k) != v}
        conditions.append(Condition(f"nothing else of record {rid} changed", not extra and set(got) >= set(was),
                                    f"record {rid} changed more than asked: {got}", guard=True))
    damaged = [k for k in old if k not in changes and k in new and old[k] != new[k]]
    conditions.append(Condition("other records unchanged", not damaged, f"other records {damaged[:5]} were changed",
                                guard=True))
    return judged(conditions, f"records {sorted(changes)} updated as asked, nothing else changed")


@checker
def records_changed_only(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                         record_id: int, expected: Mapping[str, Any], key: str = "id") -> CheckResult:
    """The record `record_id` now has the expected values; no record was added or removed and every
    other record (and every other field of this one) is unchanged."""
    return records_changed_exactly(before, after, {record_id: expected}, key)
