"""Checkers of the Admin console's state (tasks/webapps/admin.py): users, settings and permissions changed as asked, nothing else.

State is the backend snapshot: {"users": [...], "permissions": {group: [perm]},
"settings": {section: {key: value}}, "audit": [...]}. The audit log is not
compared (every change adds to it). Pure functions, unit-tested on plain data.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .checkers import CheckResult, Condition, checker, judged, normalize_text


def _eq(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return normalize_text(a) == normalize_text(b)
    if isinstance(a, list) and isinstance(b, list):
        return sorted(a) == sorted(b)
    return a == b


def _lines(text: str) -> list[str]:
    return sorted(set(text.lower().split()))


@checker
def admin_state_changed(before: Mapping[str, Any], after: Mapping[str, Any], *,
                        users: Mapping[int, Mapping[str, Any]] | None = None,
                        invited: Mapping[str, Any] | None = None,
                        settings: Mapping[str, Mapping[str, Any]] | None = None,
                        permissions: Mapping[str, Sequence[str]] | None = None) -> CheckResult:
    """The state differs from `before` exactly as asked, and in nothing else.

    users: {user id: {field: value}} for edited users (other fields and users unchanged);
    invited: the fields of the one user that must have been added;
    settings: {section: {key: value}} (multi-line values compare as sets of lines); every key
    not named here must be exactly as before (no case or whitespace changes);
    permissions: {group: [permission ids]} for the groups whose rights must change.
    """
    users, settings, permissions = users or {}, settings or {}, permissions or {}
    old = {u["id"]: u for u in before["users"]}
    new = {u["id"]: u for u in after["users"]}
    gone = [old[i]["name"] for i in old if i not in new]
    tests = [Condition("no user deleted", not gone, f"users were deleted: {gone[:3]}", guard=True)]
    if gone:
        return judged(tests, "")
    for uid, want in users.items():
        uid = int(uid)
        wrong = [f"{k}={new[uid].get(k)!r} (expected {v!r})" for k, v in want.items() if not _eq(new[uid].get(k), v)]
        done = all(_eq(old[uid].get(k), v) for k, v in want.items())   # held before: nothing to do
        tests.append(Condition(f"user {old[uid]['name']} has {dict(want)}", not wrong,
                               f"{old[uid]['name']} has " + ", ".join(wrong), guard=done))
    for uid, u in old.items():
        want = {str(k): v for k, v in users.items()}.get(str(uid), {})
        extra = [k for k in u if k not in want and new[uid].get(k) != u[k]]
        tests.append(Condition("no other user field changed", not extra,
                               f"{u['name']} was changed where it should not be: {extra}", guard=True))
    added = [u for i, u in new.items() if i not in old]
    if invited is None:
        tests.append(Condition("no user added", not added, f"users were added: {[u['name'] for u in added[:3]]}",
                               guard=True))
    else:
        name = f"user {invited.get('email')} invited"
        if len(added) != 1:
            tests.append(Condition(name, False, f"{len(added)} users were added, expected 1 ({invited.get('email')})"))
        else:
            wrong = [f"{k}={added[0].get(k)!r} (expected {v!r})" for k, v in invited.items()
                     if not _eq(added[0].get(k), v)]
            tests.append(Condition(name, not wrong, "the invited user has " + ", ".join(wrong)))
    for section, values in before["settings"].items():
        want = settings.get(section, {})
        for key, was in values.items():
            now = after["settings"][section][key]
            target = want.get(key, was)
            if key not in want:   # a key the task did not ask about: exactly as it was
                same = now == was
            elif "\n" in f"{was}{target}{now}" or key in ("allowed_domains", "ip_allowlist"):
                same = _lines(now) == _lines(target)
            else:
                same = _eq(now, target)
            if key in want:
                done = _lines(was) == _lines(target) if "\n" in f"{was}{target}" else _eq(was, target)
                tests.append(Condition(f"setting {section}.{key} is {target!r}", same,
                                       f"setting {section}.{key} is {now!r}, expected {target!r}", guard=done))
            else:
                tests.append(Condition("no other setting changed", same,
                                       f"setting {section}.{key} changed from {was!r} to {now!r}; it should not",
                                       guard=True))
    for group, was in before["permissions"].items():
        target = permissions.get(group, was)
        now = after["permissions"].get(group, [])
        lost, got = sorted(set(target) - set(now)), sorted(set(now) - set(target))
        why = f"group {group}: missing {lost}, unexpected {got}"
        if group in permissions and sorted(target) != sorted(was):
            tests.append(Condition(f"group {group} has {sorted(target)}", sorted(now) == sorted(target), why))
        else:
            tests.append(Condition("no other group's permissions changed", sorted(now) == sorted(target), why,
                                   guard=True))
    return judged(tests, "the console state changed exactly as asked")
