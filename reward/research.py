"""Checkers of the file-sharing browser tasks: downloads (exactly the asked files), the rest of the workspace, file records.

Answers are judged by `reward.answers.match_answer`."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .checkers import CheckResult, checker


@checker
def downloaded(files: Mapping[str, bytes], name: str, expected: bytes, folder: str = "Downloads") -> CheckResult:
    """The workspace's download folder holds exactly one file, `name`, with exactly the expected
    bytes: any other file there fails, and so does a browser-renamed second copy ("name (1).ext")
    or a partial download (".crdownload"). `files` is the workspace snapshot (or its `folder/` part)."""
    return downloads_exactly(files, {name: expected}, folder)


@checker
def downloads_exactly(files: Mapping[str, bytes], expected: Mapping[str, bytes],
                      folder: str = "Downloads") -> CheckResult:
    """The download folder holds exactly the `expected` files (name -> bytes) and nothing else."""
    here = {p[len(folder) + 1:]: b for p, b in files.items() if p.startswith(folder + "/")}
    missing = sorted(set(expected) - set(here))
    if missing:
        return CheckResult.failed(f"{folder}/{missing[0]} was not downloaded (files there: {sorted(here)[:5]})")
    extra = sorted(set(here) - set(expected))
    if extra:
        return CheckResult.failed(f"{folder}/ holds more than was asked for: {extra[:5]}")
    wrong = sorted(n for n in expected if here[n] != expected[n])
    if wrong:
        return CheckResult.failed(f"{folder}/{wrong[0]} differs from the file on the server")
    return CheckResult.passed(f"{folder}/ holds exactly {sorted(expected)}")


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
