"""Browser tasks on the Admin console (assets/web/admin/, backend tasks/webapps/admin.py): users, bulk actions, permissions, audit log.

## Description
An organisation's admin console: a users table (64-75 seeded users; search, filters,
sortable columns, pagination, row selection and confirmed bulk actions), a user form
(role and department dropdowns, status switches, groups), a group × permission
checkbox matrix, three settings pages and an audit log whose user links open a new
tab. Each episode's organisation comes from a data seed drawn from the reset seed. The
tasks here change users and permissions and answer from the table and the audit log;
the settings pages and invites: `browser_admin_settings.py`.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when `admin_state_changed` (reward/admin.py) finds exactly the asked-for changes to
users or permissions and nothing else, and, for questions, the `finished(content=...)`
answer is right (`reward.answers.match_answer` on the task's `expected_answer`). Each
organisation belongs to the reset seed's split (its data seed's parity): test seeds show
organisations, people and dates no training seed shows.

## Starting State
The backend loaded fresh at setup; the page opens on the users table.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1: the answer tasks judge with `match_answer` (one whole answer: no list of candidates, no
  substring); unasked settings must be exactly as they were (no case changes); test seeds draw
  test organisations, people and a 2027 "now"; count-users draws its answer first, spread over
  1-20 (uneven departments; "any role" questions too), audit-answer's actors are all admins and
  managers (the signed-in admin is no longer a likely answer); the questions name the organisation.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from hybridgym.reward.admin import admin_state_changed
from hybridgym.reward.answers import Answer, match_answer
from hybridgym.reward.checkers import all_of
from hybridgym.tasks.webapps import admin as adm

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import pick
from .kit.web import AdminTask, choose, click, click_until, fill, present, wait_ready, wait_tabs

_NO_MODAL = "document.querySelector('#modal-root').children.length === 0"


def _user(u: dict) -> dict:
    """The part of a user a task's parameters keep."""
    return {k: u[k] for k in ("id", "name", "email", "department", "role", "active", "groups")}


class UsersTask(AdminTask):
    """Base of these admin tasks: finding and opening users, confirmed actions; answers."""

    def check(self, state, p, outcome: Outcome, baseline):
        """For the question tasks: the answer (`expected_answer`), and nothing changed."""
        return all_of(match_answer(outcome.answer, self.expected_answer(p)), admin_state_changed(baseline, state))

    # oracle pieces
    def nav(self, sb, name: str, ready: str) -> Iterator[dict]:
        yield from click_until(sb, f".side a[data-nav=\"{name}\"]", present(ready))

    def open_user(self, sb, user: dict) -> Iterator[dict]:
        yield from fill(sb, "#user-search", user["name"])
        yield from click_until(sb, f"tr[data-user-id=\"{user['id']}\"] .user-link", present("#user-form"))

    def confirm(self, sb, button: str, until: str = _NO_MODAL) -> Iterator[dict]:
        """Press `button`, then the confirmation dialog's OK, and wait until `until`."""
        yield click(sb, button)
        yield from click_until(sb, "#modal-confirm", until)


@register_task(id="browser.admin-change-role-v1", max_steps=12)
class AdminChangeRole(UsersTask):
    """Change one user's role (find them by search or paging, edit, pick the role, save).

    The checker wants that user's role changed and nothing else in the console.
    """

    def sample_for(self, rng, data):
        u = pick(rng, data["users"])
        role = pick(rng, [r for r in adm.ROLES if r != u["role"]])
        return {"user": _user(u), "role": role}

    def instruction(self, p):
        return f"In the admin console, change the role of {p['user']['name']} ({p['user']['email']}) to {p['role']}."

    def check(self, state, p, outcome: Outcome, baseline):
        return admin_state_changed(baseline, state, users={p["user"]["id"]: {"role": p["role"]}})

    def oracle(self, sb, p):
        yield from self.open_user(sb, p["user"])
        yield from choose(sb, "#u-role", p["role"])
        yield from click_until(sb, "#u-save", present("#users-table"))
        yield act.finish()


@register_task(id="browser.admin-offboard-user-v1", max_steps=16)
class AdminOffboardUser(UsersTask):
    """Deactivate a leaving user's account and take them out of every group (a confirmation dialog follows).

    The checker wants that user inactive with no groups, and nothing else changed.
    """

    def sample_for(self, rng, data):
        u = pick(rng, [u for u in data["users"] if u["active"] and u["groups"]])
        return {"user": _user(u)}

    def instruction(self, p):
        return (f"{p['user']['name']} ({p['user']['email']}) has left the company. In the admin console, "
                "deactivate their account and remove them from all of their groups.")

    def check(self, state, p, outcome: Outcome, baseline):
        return admin_state_changed(baseline, state, users={p["user"]["id"]: {"active": False, "groups": []}})

    def oracle(self, sb, p):
        yield from self.open_user(sb, p["user"])
        yield click(sb, "label.switch:has(#u-active)")
        for g in p["user"]["groups"]:
            yield click(sb, f"input[name=grp][value=\"{g}\"]")
        yield from self.confirm(sb, "#u-save", present("#users-table"))
        yield act.finish()


@register_task(id="browser.admin-bulk-deactivate-v1", max_steps=40)
class AdminBulkDeactivate(UsersTask):
    """In one department, deactivate every active user who has not signed in since a date (or never did) and make them Viewers.

    Done with filters, sorting by last login, row checkboxes and two bulk actions
    (each confirmed in a dialog). Active colleagues who signed in later, and stale
    users of other departments, must stay as they are.
    """

    def sample_for(self, rng, data):
        options = []
        for dept in adm.DEPARTMENTS:
            active = sorted((u for u in data["users"] if u["department"] == dept and u["active"]),
                            key=lambda u: (u["last_login"] or "0000", u["id"]))
            for n in range(3, 7):
                if n < len(active) and active[n]["last_login"] and (
                        active[n - 1]["last_login"] or "0000") < active[n]["last_login"] and len(active) <= 15:
                    options.append((dept, active[n]["last_login"], [u["id"] for u in active[:n]]))
        if not options:
            return None
        dept, cutoff, ids = pick(rng, options)
        return {"org": data["org"], "department": dept, "cutoff": cutoff, "ids": ids}

    def instruction(self, p):
        return (f"In the {p['org']} admin console, find every active user in {p['department']} who has not signed in since "
                f"{p['cutoff']} (last login before that day, or never). Deactivate all of them and change their "
                "role to Viewer. Leave everyone else as they are.")

    def check(self, state, p, outcome: Outcome, baseline):
        return admin_state_changed(baseline, state, users={i: {"active": False, "role": "Viewer"} for i in p["ids"]})

    def oracle(self, sb, p):
        yield from choose(sb, "#filter-dept", p["department"])
        yield from choose(sb, "#filter-status", "Active")
        yield click(sb, "th[data-sort=last_login]")
        for uid in p["ids"]:
            yield click(sb, f".row-check[data-id=\"{uid}\"]")
        for action, role in (("Change role", "Viewer"), ("Deactivate", None)):
            yield from choose(sb, "#bulk-action", action)
            if role:
                yield from choose(sb, "#bulk-role", role)
            yield from self.confirm(sb, "#bulk-apply")
        yield act.finish()


@register_task(id="browser.admin-count-users-v1", max_steps=16)
class AdminCountUsers(UsersTask):
    """Answer how many active users of a department have a given role, or any role (finished(content=<number>)).

    The department also has deactivated users or users with other roles, so the
    filters matter. The answer is drawn first among the counts 1-20 the
    organisation offers (weight n: small counts are everywhere), then a department and role with it. The checker also confirms that nothing changed.
    """

    def sample_for(self, rng, data):
        by_count = {}   # count -> the (department, role) pairs with that many active users
        for dept in adm.DEPARTMENTS:
            staff = [u for u in data["users"] if u["department"] == dept]
            for role in (*adm.ROLES[:3], None):   # None: any role
                n = sum(u["active"] and role in (None, u["role"]) for u in staff)
                if n >= 1 and len(staff) > n:
                    by_count.setdefault(n, []).append((dept, role))
        counts = sorted(n for n in by_count if n <= 20)
        if not counts:
            return None
        # the answer first, a count n drawn with weight n: small counts are in every organisation, large
        # ones in a few, so this spreads the answers (no count is right on more than ~8% of the seeds)
        n = counts[int(rng.choice(len(counts), p=np.array(counts) / sum(counts)))]
        dept, role = pick(rng, by_count[n])
        return {"org": data["org"], "department": dept, "role": role, "count": n}

    def instruction(self, p):
        if p["role"] is None:
            return (f"In the {p['org']} admin console: how many active users are in the {p['department']} "
                    "department? Answer with a number.")
        return (f"In the {p['org']} admin console: how many active users in the {p['department']} department "
                f"have the role {p['role']}? Answer with a number.")

    def expected_answer(self, p):
        return Answer(p["count"], "number", context=self.instruction(p))

    def oracle(self, sb, p):
        yield from choose(sb, "#filter-dept", p["department"])
        if p["role"] is not None:
            yield from choose(sb, "#filter-role", p["role"])
        yield from choose(sb, "#filter-status", "Active")
        wait_ready(sb)
        info = sb.browser.page.inner_text("#page-info")     # "Showing 1–4 of 4"
        yield act.finish(info.rsplit(" ", 1)[-1])


@register_task(id="browser.admin-stalest-user-v1", max_steps=14)
class AdminStalestUser(UsersTask):
    """Answer with the email of the active user of a department whose last sign-in is the oldest (never-signed-in users excluded).

    Sorting the table by last login is the quick way. The checker compares the
    email and confirms that nothing changed.
    """

    def sample_for(self, rng, data):
        options = {}
        for dept in adm.DEPARTMENTS:
            seen = sorted((u for u in data["users"] if u["department"] == dept and u["active"] and u["last_login"]),
                          key=lambda u: u["last_login"])
            if len(seen) >= 3 and seen[0]["last_login"] < seen[1]["last_login"]:
                options[dept] = seen
        if not options:
            return None
        dept = pick(rng, sorted(options))
        seen = options[dept]
        return {"org": data["org"], "department": dept, "email": seen[0]["email"], "id": seen[0]["id"]}

    def instruction(self, p):
        return (f"In the {p['org']} admin console: among the active users in {p['department']} who have signed in "
                "at least once, who has gone the longest without signing in? Answer with their email address.")

    def expected_answer(self, p):
        return Answer(p["email"], "text")

    def oracle(self, sb, p):
        yield from choose(sb, "#filter-dept", p["department"])
        yield from choose(sb, "#filter-status", "Active")
        yield from click_until(sb, "th[data-sort=last_login]")
        rows = sb.browser.page.locator("#users-table tbody tr")
        for i in range(rows.count()):
            cells = rows.nth(i).locator("td")
            if cells.nth(5).inner_text().strip() != "Never":
                email = cells.nth(1).locator("small").inner_text().strip()
                break
        yield act.finish(email)


@register_task(id="browser.admin-permissions-v1", max_steps=10)
class AdminPermissions(UsersTask):
    """Grant one permission to a group and revoke another from a second group in the permission matrix (confirmed in a dialog).

    The checker wants exactly those two cells changed and nothing else.
    """

    def sample_for(self, rng, data):
        m = data["permissions"]
        others = [g["id"] for g in data["groups"] if g["id"] != "admins"]
        perms = [p for p, _ in adm.PERMISSIONS]
        while True:
            g1, g2 = (str(x) for x in rng.choice(others, size=2, replace=False))
            grant = [p for p in perms if p not in m[g1]]
            revoke = [p for p in m[g2]]
            if grant and revoke:
                break
        names = {g["id"]: g["name"] for g in data["groups"]}
        return {"org": data["org"], "grant": [g1, pick(rng, grant)], "revoke": [g2, pick(rng, revoke)],
                "names": {g1: names[g1], g2: names[g2]}, "matrix": {g1: m[g1], g2: m[g2]}}

    def instruction(self, p):
        (g1, pg), (g2, pr) = p["grant"], p["revoke"]
        return (f"In the {p['org']} admin console's permissions, give the group \"{p['names'][g1]}\" the permission {pg} and "
                f"take the permission {pr} away from \"{p['names'][g2]}\". Change nothing else.")

    def check(self, state, p, outcome: Outcome, baseline):
        (g1, pg), (g2, pr) = p["grant"], p["revoke"]
        return admin_state_changed(baseline, state, permissions={
            g1: sorted(p["matrix"][g1] + [pg]), g2: sorted(x for x in p["matrix"][g2] if x != pr)})

    def oracle(self, sb, p):
        yield from self.nav(sb, "groups", "#perm-table")
        for g, perm in (p["grant"], p["revoke"]):
            yield click(sb, f"input.perm[data-group=\"{g}\"][data-perm=\"{perm}\"]")
        yield from self.confirm(sb, "#perm-save")
        yield act.finish()


@register_task(id="browser.admin-revert-role-v1", max_steps=16)
class AdminRevertRole(UsersTask):
    """Undo the latest role change of a user recorded in the audit log (the log's user links open a new tab).

    The log's detail reads "role <before> → <after>"; the checker wants the user's
    role back at <before> and nothing else changed.
    """

    def sample_for(self, rng, data):
        users = {u["email"]: u for u in data["users"]}
        latest = {}
        for e in data["audit"]:
            if e["action"] == "user.role":
                latest[e["target"]] = e
        pool = [e for e in latest.values() if e["detail"].split()[1] != users[e["target"]]["role"]]
        if not pool:
            return None
        e = pick(rng, pool)
        return {"user": _user(users[e["target"]]), "role": e["detail"].split()[1]}

    def instruction(self, p):
        return (f"The role of {p['user']['email']} was changed recently. Using the admin console's audit log, "
                "find the most recent role change of that account and undo it (give back the role it had before).")

    def check(self, state, p, outcome: Outcome, baseline):
        return admin_state_changed(baseline, state, users={p["user"]["id"]: {"role": p["role"]}})

    def oracle(self, sb, p):
        yield from self.nav(sb, "audit", "#audit-table")
        yield from choose(sb, "#audit-action", "user.role")
        yield from fill(sb, "#audit-search", p["user"]["email"])
        wait_ready(sb, "document.querySelectorAll('#audit-table tbody tr').length >= 1")
        role = sb.browser.page.inner_text("#audit-table tbody tr td:nth-child(5)").split()[1]
        yield click(sb, "#audit-table tbody tr a.audit-user")
        wait_tabs(sb, 2)
        wait_ready(sb, present("#user-form"), tab=1)
        yield from choose(sb, "#u-role", role, tab=1)
        yield from click_until(sb, "#u-save", present("#users-table"), tab=1)
        yield act.finish()


@register_task(id="browser.admin-audit-answer-v1", max_steps=12)
class AdminAuditAnswer(UsersTask):
    """Answer, from the audit log, who deactivated a given user's account (finished(content=<actor name>)).

    The log has 110 entries over eight pages; filters by action and a search help.
    The checker compares the name and confirms that nothing changed.
    """

    def sample_for(self, rng, data):
        hits = [e for e in data["audit"] if e["action"] == "user.deactivate"]
        pool = [e for e in hits if sum(h["target"] == e["target"] for h in hits) == 1]
        if not pool:
            return None
        e = pick(rng, pool)
        return {"target": e["target"], "actor": e["actor"], "time": e["time"]}

    def instruction(self, p):
        return (f"According to the admin console's audit log, who deactivated the account {p['target']}? "
                "Answer with that person's name.")

    def expected_answer(self, p):
        return Answer(p["actor"], "text")

    def oracle(self, sb, p):
        yield from self.nav(sb, "audit", "#audit-table")
        yield from choose(sb, "#audit-action", "user.deactivate")
        yield from fill(sb, "#audit-search", p["target"])
        wait_ready(sb)
        actor = sb.browser.page.inner_text("#audit-table tbody tr td:nth-child(2)").strip()
        yield act.finish(actor)
