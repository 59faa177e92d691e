"""Checkers of the Admin console's state (tasks/webapps/admin.py): users, settings and permissions changed as asked, nothing else.

State is the backend snapshot: {"users": [...], "permissions": {group: [perm]},
"settings": {section: {key: value}}, "audit": [...]}. The audit log is not
compared (every change adds to it). Pure functions, unit-tested on plain data.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .checkers import CheckResult, checker, normalize_text


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
    if gone:
        return CheckResult.failed(f"users were deleted: {gone[:3]}")
    for uid, want in users.items():
        uid = int(uid)
        wrong = [f"{k}={new[uid].get(k)!r} (expected {v!r})" for k, v in want.items() if not _eq(new[uid].get(k), v)]
        if wrong:
            return CheckResult.failed(f"{old[uid]['name']} has " + ", ".join(wrong))
    for uid, u in old.items():
        want = {str(k): v for k, v in users.items()}.get(str(uid), {})
        extra = [k for k in u if k not in want and new[uid].get(k) != u[k]]
        if extra:
            return CheckResult.failed(f"{u['name']} was changed where it should not be: {extra}")
    added = [u for i, u in new.items() if i not in old]
    if invited is None and added:
        return CheckResult.failed(f"users were added: {[u['name'] for u in added[:3]]}")
    if invited is not None:
        if len(added) != 1:
            return CheckResult.failed(f"{len(added)} users were added, expected 1 ({invited.get('email')})")
        wrong = [f"{k}={added[0].get(k)!r} (expected {v!r})" for k, v in invited.items() if not _eq(added[0].get(k), v)]
        if wrong:
            return CheckResult.failed("the invited user has " + ", ".join(wrong))
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
            if not same:
                if key in want:
                    return CheckResult.failed(f"setting {section}.{key} is {now!r}, expected {target!r}")
                return CheckResult.failed(f"setting {section}.{key} changed from {was!r} to {now!r}; it should not")
    for group, was in before["permissions"].items():
        target = permissions.get(group, was)
        now = after["permissions"].get(group, [])
        if sorted(now) != sorted(target):
            lost, got = sorted(set(target) - set(now)), sorted(set(now) - set(target))
            return CheckResult.failed(f"group {group}: missing {lost}, unexpected {got}")
    return CheckResult.passed("the console state changed exactly as asked")
