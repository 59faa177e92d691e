"""Browser tasks on the Admin console (assets/web/admin/, backend tasks/webapps/admin.py): tables, bulk actions, settings forms.

## Description
An organisation's admin console: a users table (64-75 seeded users; search, filters,
sortable columns, pagination, row selection and confirmed bulk actions), a user form
(role and department dropdowns, status switches, groups), a group × permission
checkbox matrix, three settings pages (text, number, select, radio, switch and textarea
fields; server-side validation; a confirmation dialog on Security) and an audit log
whose user links open a new tab. Each episode's organisation comes from a data seed
drawn from the reset seed.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when `admin_state_changed` (reward/admin.py) finds exactly the asked-for changes to
users, settings or permissions and nothing else, and, for questions, the
`finished(content=...)` answer is right.

## Starting State
The backend installed fresh at setup; the page opens on the users table.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from hybridgym.reward.admin import admin_state_changed
from hybridgym.reward.checkers import all_of, answer_matches
from hybridgym.tasks.webapps import admin as adm

from .base import Task, register_task
from .browser_calendar import choose, click, fill, open_app, wait_idle


def _sample_data(rng: np.random.Generator) -> tuple[int, dict]:
    seed = int(rng.integers(0, 2**31 - 1))
    return seed, adm.generate(seed)


def _pick(rng: np.random.Generator, items: list):
    return items[int(rng.integers(len(items)))]


def _user(u: dict) -> dict:
    """The part of a user a task's parameters keep."""
    return {k: u[k] for k in ("id", "name", "email", "department", "role", "active", "groups")}


class AdminTask(Task):
    """Shared parts: seed the backend, open the users page, read the whole state."""

    suite = "browser"
    start_hash = "#users"

    def setup(self, sb, params: dict) -> None:
        adm.install(sb, adm.generate(params["data_seed"]))
        open_app(sb, "/admin/index.html", self.start_hash, "#users-table tbody tr")

    def read_state(self, sb, params: dict) -> dict:
        return adm.backend_of(sb).state()

    def unchanged(self, state, baseline):
        return admin_state_changed(baseline, state)

    # oracle pieces
    def nav(self, sb, name: str, ready: str) -> Iterator[dict]:
        yield click(sb, f".side a[data-nav=\"{name}\"]")
        wait_idle(sb, f"document.querySelector('{ready}') !== null")

    def open_user(self, sb, user: dict) -> Iterator[dict]:
        yield from fill(sb, "#user-search", user["name"])
        yield click(sb, f"tr[data-user-id=\"{user['id']}\"] .user-link")
        wait_idle(sb, "document.querySelector('#user-form') !== null")

    def save_user(self, sb) -> Iterator[dict]:
        yield click(sb, "#u-save")
        wait_idle(sb, "document.querySelector('#users-table') !== null")


@register_task
class AdminChangeRole(AdminTask):
    """Change one user's role (find them by search or paging, edit, pick the role, save).

    The checker wants that user's role changed and nothing else in the console.
    """

    id = "browser.admin-change-role-v0"
    max_steps = 12

    def sample(self, rng):
        seed, data = _sample_data(rng)
        u = _pick(rng, data["users"])
        role = _pick(rng, [r for r in adm.ROLES if r != u["role"]])
        return {"data_seed": seed, "user": _user(u), "role": role}

    def instruction(self, p):
        return f"In the admin console, change the role of {p['user']['name']} ({p['user']['email']}) to {p['role']}."

    def check(self, state, p, answer, baseline):
        return admin_state_changed(baseline, state, users={p["user"]["id"]: {"role": p["role"]}})

    def oracle(self, sb, p):
        yield from self.open_user(sb, p["user"])
        yield from choose(sb, "#u-role", p["role"])
        yield from self.save_user(sb)
        yield {"action_type": "finished", "content": ""}


@register_task
class AdminOffboardUser(AdminTask):
    """Deactivate a leaving user's account and take them out of every group (a confirmation dialog follows).

    The checker wants that user inactive with no groups, and nothing else changed.
    """

    id = "browser.admin-offboard-user-v0"
    max_steps = 16

    def sample(self, rng):
        seed, data = _sample_data(rng)
        u = _pick(rng, [u for u in data["users"] if u["active"] and u["groups"]])
        return {"data_seed": seed, "user": _user(u)}

    def instruction(self, p):
        return (f"{p['user']['name']} ({p['user']['email']}) has left the company. In the admin console, "
                "deactivate their account and remove them from all of their groups.")

    def check(self, state, p, answer, baseline):
        return admin_state_changed(baseline, state, users={p["user"]["id"]: {"active": False, "groups": []}})

    def oracle(self, sb, p):
        yield from self.open_user(sb, p["user"])
        yield click(sb, "label.switch:has(#u-active)")
        for g in p["user"]["groups"]:
            yield click(sb, f"input[name=grp][value=\"{g}\"]")
        yield click(sb, "#u-save")
        yield click(sb, "#modal-confirm")
        wait_idle(sb, "document.querySelector('#users-table') !== null")
        yield {"action_type": "finished", "content": ""}


@register_task
class AdminBulkDeactivate(AdminTask):
    """In one department, deactivate every active user who has not signed in since a date (or never did) and make them Viewers.

    Done with filters, sorting by last login, row checkboxes and two bulk actions
    (each confirmed in a dialog). Active colleagues who signed in later, and stale
    users of other departments, must stay as they are.
    """

    id = "browser.admin-bulk-deactivate-v0"
    max_steps = 40

    def sample(self, rng):
        seed, data = _sample_data(rng)
        options = []
        for dept in adm.DEPARTMENTS:
            active = sorted((u for u in data["users"] if u["department"] == dept and u["active"]),
                            key=lambda u: (u["last_login"] or "0000", u["id"]))
            for n in range(3, 7):
                if n < len(active) and active[n]["last_login"] and (
                        active[n - 1]["last_login"] or "0000") < active[n]["last_login"] and len(active) <= 15:
                    options.append((dept, active[n]["last_login"], [u["id"] for u in active[:n]]))
        dept, cutoff, ids = _pick(rng, options)
        return {"data_seed": seed, "department": dept, "cutoff": cutoff, "ids": ids}

    def instruction(self, p):
        return (f"In the admin console, find every active user in {p['department']} who has not signed in since "
                f"{p['cutoff']} (last login before that day, or never). Deactivate all of them and change their "
                "role to Viewer. Leave everyone else as they are.")

    def check(self, state, p, answer, baseline):
        return admin_state_changed(baseline, state, users={i: {"active": False, "role": "Viewer"} for i in p["ids"]})

    def oracle(self, sb, p):
        yield from choose(sb, "#filter-dept", p["department"])
        yield from choose(sb, "#filter-status", "Active")
        yield click(sb, "th[data-sort=last_login]")
        for uid in p["ids"]:
            yield click(sb, f".row-check[data-id=\"{uid}\"]")
        for action, confirm in (("Change role", "Viewer"), ("Deactivate", None)):
            yield from choose(sb, "#bulk-action", action)
            if confirm:
                yield from choose(sb, "#bulk-role", confirm)
            yield click(sb, "#bulk-apply")
            yield click(sb, "#modal-confirm")
            wait_idle(sb, "document.querySelector('#modal-root').children.length === 0")
        yield {"action_type": "finished", "content": ""}


@register_task
class AdminCountUsers(AdminTask):
    """Answer how many active users of a department have a given role (finished(content=<number>)).

    The department also has deactivated users or users with other roles, so both
    filters matter. The checker also confirms that nothing changed.
    """

    id = "browser.admin-count-users-v0"
    max_steps = 16

    def sample(self, rng):
        seed, data = _sample_data(rng)
        while True:
            dept, role = _pick(rng, adm.DEPARTMENTS), _pick(rng, adm.ROLES[:3])
            same = [u for u in data["users"] if u["department"] == dept and u["role"] == role]
            n = sum(u["active"] for u in same)
            if n >= 1 and len([u for u in data["users"] if u["department"] == dept]) > n:
                break
        return {"data_seed": seed, "department": dept, "role": role, "count": n}

    def instruction(self, p):
        return (f"How many active users in the {p['department']} department have the role {p['role']}? "
                "Answer with a number.")

    def check(self, state, p, answer, baseline):
        return all_of(answer_matches(answer, str(p["count"]), numeric=True), self.unchanged(state, baseline))

    def oracle(self, sb, p):
        yield from choose(sb, "#filter-dept", p["department"])
        yield from choose(sb, "#filter-role", p["role"])
        yield from choose(sb, "#filter-status", "Active")
        wait_idle(sb)
        info = sb.browser.page.inner_text("#page-info")     # "Showing 1–4 of 4"
        yield {"action_type": "finished", "content": info.rsplit(" ", 1)[-1]}


@register_task
class AdminStalestUser(AdminTask):
    """Answer with the email of the active user of a department whose last sign-in is the oldest (never-signed-in users excluded).

    Sorting the table by last login is the quick way. The checker compares the
    email and confirms that nothing changed.
    """

    id = "browser.admin-stalest-user-v0"
    max_steps = 14

    def sample(self, rng):
        seed, data = _sample_data(rng)
        while True:
            dept = _pick(rng, adm.DEPARTMENTS)
            seen = sorted((u for u in data["users"] if u["department"] == dept and u["active"] and u["last_login"]),
                          key=lambda u: u["last_login"])
            if len(seen) >= 3 and seen[0]["last_login"] < seen[1]["last_login"]:
                break
        return {"data_seed": seed, "department": dept, "email": seen[0]["email"], "id": seen[0]["id"]}

    def instruction(self, p):
        return (f"Among the active users in {p['department']} who have signed in at least once, who has gone the "
                "longest without signing in? Answer with their email address.")

    def check(self, state, p, answer, baseline):
        return all_of(answer_matches(answer, p["email"]), self.unchanged(state, baseline))

    def oracle(self, sb, p):
        yield from choose(sb, "#filter-dept", p["department"])
        yield from choose(sb, "#filter-status", "Active")
        yield click(sb, "th[data-sort=last_login]")
        wait_idle(sb)
        rows = sb.browser.page.locator("#users-table tbody tr")
        for i in range(rows.count()):
            cells = rows.nth(i).locator("td")
            if cells.nth(5).inner_text().strip() != "Never":
                email = cells.nth(1).locator("small").inner_text().strip()
                break
        yield {"action_type": "finished", "content": email}


@register_task
class AdminPermissions(AdminTask):
    """Grant one permission to a group and revoke another from a second group in the permission matrix (confirmed in a dialog).

    The checker wants exactly those two cells changed and nothing else.
    """

    id = "browser.admin-permissions-v0"
    max_steps = 10

    def sample(self, rng):
        seed, data = _sample_data(rng)
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
        return {"data_seed": seed, "grant": [g1, _pick(rng, grant)], "revoke": [g2, _pick(rng, revoke)],
                "names": {g1: names[g1], g2: names[g2]}, "matrix": {g1: m[g1], g2: m[g2]}}

    def instruction(self, p):
        (g1, pg), (g2, pr) = p["grant"], p["revoke"]
        return (f"In the admin console's permissions, give the group \"{p['names'][g1]}\" the permission {pg} and "
                f"take the permission {pr} away from \"{p['names'][g2]}\". Change nothing else.")

    def check(self, state, p, answer, baseline):
        (g1, pg), (g2, pr) = p["grant"], p["revoke"]
        return admin_state_changed(baseline, state, permissions={
            g1: sorted(p["matrix"][g1] + [pg]), g2: sorted(x for x in p["matrix"][g2] if x != pr)})

    def oracle(self, sb, p):
        yield from self.nav(sb, "groups", "#perm-table")
        for g, perm in (p["grant"], p["revoke"]):
            yield click(sb, f"input.perm[data-group=\"{g}\"][data-perm=\"{perm}\"]")
        yield click(sb, "#perm-save")
        yield click(sb, "#modal-confirm")
        wait_idle(sb, "document.querySelector('#modal-root').children.length === 0")
        yield {"action_type": "finished", "content": ""}


@register_task
class AdminRevertRole(AdminTask):
    """Undo the latest role change of a user recorded in the audit log (the log's user links open a new tab).

    The log's detail reads "role <before> → <after>"; the checker wants the user's
    role back at <before> and nothing else changed.
    """

    id = "browser.admin-revert-role-v0"
    max_steps = 16

    def sample(self, rng):
        seed, data = _sample_data(rng)
        users = {u["email"]: u for u in data["users"]}
        latest = {}
        for e in data["audit"]:
            if e["action"] == "user.role":
                latest[e["target"]] = e
        options = [e for e in latest.values() if e["detail"].split()[1] != users[e["target"]]["role"]]
        e = _pick(rng, options)
        return {"data_seed": seed, "user": _user(users[e["target"]]), "role": e["detail"].split()[1]}

    def instruction(self, p):
        return (f"The role of {p['user']['email']} was changed recently. Using the admin console's audit log, "
                "find the most recent role change of that account and undo it (give back the role it had before).")

    def check(self, state, p, answer, baseline):
        return admin_state_changed(baseline, state, users={p["user"]["id"]: {"role": p["role"]}})

    def oracle(self, sb, p):
        yield from self.nav(sb, "audit", "#audit-table")
        yield from choose(sb, "#audit-action", "user.role")
        yield from fill(sb, "#audit-search", p["user"]["email"])
        wait_idle(sb, "document.querySelectorAll('#audit-table tbody tr').length >= 1")
        role = sb.browser.page.inner_text("#audit-table tbody tr td:nth-child(5)").split()[1]
        with sb.browser.context.expect_page() as new_tab:
            yield click(sb, "#audit-table tbody tr a.audit-user")
        tab = new_tab.value
        tab.wait_for_selector("#user-form", timeout=8000)
        yield from choose(sb, "#u-role", role, page=tab)
        yield click(sb, "#u-save", page=tab)
        wait_idle(sb, "document.querySelector('#users-table') !== null", page=tab)
        yield {"action_type": "finished", "content": ""}


_NEW_ORG_NAMES = ["Northwind Group", "Globex International", "Initech Holdings", "Umbrella Care", "Stark Insights",
                  "Wayne Trust", "Acme Cloud", "Blue Harbor Labs"]


class SettingsTask(AdminTask):
    """Settings pages: open a section, save (with the confirmation dialog on Security)."""

    def open_section(self, sb, section: str) -> Iterator[dict]:
        yield from self.nav(sb, f"settings/{section}", f"#settings-form[data-section={section}]")

    def save_section(self, sb, section: str, expect_ok: bool = True) -> Iterator[dict]:
        yield click(sb, "#settings-save")
        if section == "security":
            yield click(sb, "#modal-confirm")
        wait_idle(sb, "document.querySelector('#banner-ok') !== null" if expect_ok
                  else "document.querySelector('#banner-error') !== null")


@register_task
class AdminGeneralSettings(SettingsTask):
    """Change five general organisation settings: name, time zone, date format, first day of the week, fiscal year start.

    Text, select and radio fields on one form. The checker wants exactly those
    settings changed.
    """

    id = "browser.admin-general-settings-v0"
    max_steps = 22

    def sample(self, rng):
        seed, data = _sample_data(rng)
        g = data["settings"]["general"]
        return {"data_seed": seed,
                "org_name": _pick(rng, [n for n in _NEW_ORG_NAMES if n != g["org_name"]]),
                "timezone": _pick(rng, [t for t in adm.TIMEZONES if t != g["timezone"]]),
                "date_format": _pick(rng, [f for f in adm.DATE_FORMATS if f != g["date_format"]]),
                "week_start": "sunday" if g["week_start"] == "monday" else "monday",
                "fiscal_year_start": _pick(rng, [m for m in adm.MONTHS if m != g["fiscal_year_start"]])}

    def instruction(self, p):
        return (f"In the admin console's general organisation settings, rename the organisation to "
                f"\"{p['org_name']}\", set the default time zone to {p['timezone']}, the date format to "
                f"{p['date_format']}, the week to start on {p['week_start'].capitalize()}, and the fiscal year to "
                f"start in {p['fiscal_year_start']}. Save the changes.")

    def check(self, state, p, answer, baseline):
        keys = ("org_name", "timezone", "date_format", "week_start", "fiscal_year_start")
        return admin_state_changed(baseline, state, settings={"general": {k: p[k] for k in keys}})

    def oracle(self, sb, p):
        yield from self.open_section(sb, "general")
        yield from fill(sb, "#s-org_name", p["org_name"])
        yield from choose(sb, "#s-timezone", p["timezone"])
        yield click(sb, f"input[name=date_format][value=\"{p['date_format']}\"]")
        yield click(sb, f"input[name=week_start][value=\"{p['week_start']}\"]")
        yield from choose(sb, "#s-fiscal_year_start", p["fiscal_year_start"])
        yield from self.save_section(sb, "general")
        yield {"action_type": "finished", "content": ""}


_IP_RANGES = ["192.168.10.0/24", "172.16.4.0/22", "203.0.113.0/24", "198.51.100.64/26", "100.64.0.0/16"]


@register_task
class AdminSecuritySettings(SettingsTask):
    """Tighten security: minimum password length, password expiry, 2FA for everyone, one more IP range.

    Number fields, a toggle and a multi-line allowlist (the old ranges stay), then
    a confirmation dialog. The checker wants exactly those settings changed.
    """

    id = "browser.admin-security-settings-v0"
    max_steps = 22

    def sample(self, rng):
        seed, data = _sample_data(rng)
        s = data["settings"]["security"]
        return {"data_seed": seed,
                "min_password_length": _pick(rng, [n for n in (12, 14, 16, 20) if n != s["min_password_length"]]),
                "password_expiry_days": _pick(rng, [n for n in (30, 45, 60, 120) if n != s["password_expiry_days"]]),
                "ip_range": _pick(rng, _IP_RANGES), "ip_before": s["ip_allowlist"]}

    def instruction(self, p):
        return (f"In the admin console's security settings, set the minimum password length to "
                f"{p['min_password_length']}, make passwords expire after {p['password_expiry_days']} days, require "
                f"two-factor sign-in for everyone, and add {p['ip_range']} to the IP allowlist (keep the ranges "
                "already there). Save the changes.")

    def check(self, state, p, answer, baseline):
        return admin_state_changed(baseline, state, settings={"security": {
            "min_password_length": p["min_password_length"], "password_expiry_days": p["password_expiry_days"],
            "require_2fa": True, "ip_allowlist": p["ip_before"] + "\n" + p["ip_range"]}})

    def oracle(self, sb, p):
        yield from self.open_section(sb, "security")
        yield from fill(sb, "#s-min_password_length", str(p["min_password_length"]))
        yield from fill(sb, "#s-password_expiry_days", str(p["password_expiry_days"]))
        yield click(sb, "label.switch:has(#s-require_2fa)")
        yield from self.append_line(sb, "#s-ip_allowlist", p["ip_range"])
        yield from self.save_section(sb, "security")
        yield {"action_type": "finished", "content": ""}

    @staticmethod
    def append_line(sb, selector: str, line: str) -> Iterator[dict]:
        yield click(sb, selector)
        yield {"action_type": "hotkey", "keys": ["ctrl", "end"]}
        yield {"action_type": "type", "text": "\n" + line}


@register_task
class AdminFixValidation(SettingsTask):
    """Set a session time-out longer than the console allows, read the validation error, and settle on the largest allowed value.

    The instruction asks for N hours (more than 24) and says to use the closest
    value the console accepts; it also asks for a new limit of failed sign-ins.
    The checker wants session_timeout 1440 and that limit, nothing else changed.
    """

    id = "browser.admin-fix-validation-v0"
    max_steps = 24

    def sample(self, rng):
        seed, data = _sample_data(rng)
        s = data["settings"]["security"]
        return {"data_seed": seed, "hours": int(rng.integers(25, 73)),
                "attempts": _pick(rng, [n for n in (3, 4, 6, 7, 12) if n != s["max_login_attempts"]])}

    def instruction(self, p):
        return (f"In the admin console's security settings, set the session timeout to {p['hours']} hours and the "
                f"maximum failed sign-ins to {p['attempts']}. If the console does not accept a value, use the "
                "closest value it does accept. Save the changes.")

    def check(self, state, p, answer, baseline):
        return admin_state_changed(baseline, state, settings={"security": {
            "session_timeout": 1440, "max_login_attempts": p["attempts"]}})

    def oracle(self, sb, p):
        yield from self.open_section(sb, "security")
        yield from fill(sb, "#s-session_timeout", str(p["hours"] * 60))
        yield from fill(sb, "#s-max_login_attempts", str(p["attempts"]))
        yield from self.save_section(sb, "security", expect_ok=False)
        yield from fill(sb, "#s-session_timeout", "1440")    # "Must be between 5 and 1440 minutes."
        yield from self.save_section(sb, "security")
        yield {"action_type": "finished", "content": ""}


@register_task
class AdminNotifications(SettingsTask):
    """Set up notifications: the activity digest frequency, two alert switches and a Slack webhook.

    Radio buttons, switches that may already be on or off, and a text field that
    the backend validates. The checker wants exactly those settings changed.
    """

    id = "browser.admin-notifications-v0"
    max_steps = 16

    def sample(self, rng):
        seed, data = _sample_data(rng)
        n = data["settings"]["notifications"]
        hook = f"https://hooks.slack.com/services/T{int(rng.integers(10**7, 10**8))}/B{int(rng.integers(10**7, 10**8))}"
        return {"data_seed": seed, "digest": _pick(rng, [d for d in adm.DIGESTS if d != n["digest"]]),
                "failed": not n["notify_failed_login"], "billing": not n["notify_billing"], "webhook": hook}

    def instruction(self, p):
        return (f"In the admin console's notification settings, set the activity digest to "
                f"{p['digest'].capitalize()}, turn {'on' if p['failed'] else 'off'} the emails about failed sign-ins, turn "
                f"{'on' if p['billing'] else 'off'} the billing emails, and send alerts to the Slack webhook {p['webhook']}. "
                "Save the changes.")

    def check(self, state, p, answer, baseline):
        return admin_state_changed(baseline, state, settings={"notifications": {
            "digest": p["digest"], "notify_failed_login": p["failed"], "notify_billing": p["billing"],
            "slack_webhook": p["webhook"]}})

    def oracle(self, sb, p):
        yield from self.open_section(sb, "notifications")
        yield click(sb, f"input[name=digest][value=\"{p['digest']}\"]")
        yield click(sb, "label.switch:has(#s-notify_failed_login)")
        yield click(sb, "label.switch:has(#s-notify_billing)")
        yield from fill(sb, "#s-slack_webhook", p["webhook"])
        yield from self.save_section(sb, "notifications")
        yield {"action_type": "finished", "content": ""}


_NEW_PEOPLE = [("Ines Duarte", "ines.duarte"), ("Tomasz Wrona", "tomasz.wrona"), ("Leila Karimi", "leila.karimi"),
               ("Noah Brandt", "noah.brandt"), ("Sofia Lund", "sofia.lund"), ("Arjun Mehta", "arjun.mehta")]
_PARTNER_DOMAINS = ["contractors.example", "partner-labs.example", "agency.example", "consult.example"]


@register_task
class AdminInviteUser(SettingsTask):
    """Invite a contractor whose email domain is not yet allowed: add the domain under Security, then send the invite.

    Two pages, a refused-invite error, a textarea, a confirmation dialog and the
    invite form with department, role and a group. The checker wants the new
    user with those fields, the domain added to the allowed ones (the old ones
    kept), and nothing else changed.
    """

    id = "browser.admin-invite-user-v0"
    max_steps = 36

    def sample(self, rng):
        seed, data = _sample_data(rng)
        name, local = _pick(rng, _NEW_PEOPLE)
        domain = _pick(rng, _PARTNER_DOMAINS)
        group = _pick(rng, data["groups"][1:])
        return {"data_seed": seed, "name": name, "email": f"{local}@{domain}", "domain": domain,
                "department": _pick(rng, adm.DEPARTMENTS), "role": _pick(rng, adm.ROLES[:3]),
                "group": group["id"], "group_name": group["name"],
                "domains_before": data["settings"]["security"]["allowed_domains"]}

    def instruction(self, p):
        return (f"Invite {p['name']} ({p['email']}) to the admin console as a {p['role']} in {p['department']}, "
                f"member of the group \"{p['group_name']}\". If the console refuses the email's domain, first add "
                "that domain to the allowed email domains in the security settings (keep the existing ones).")

    def check(self, state, p, answer, baseline):
        return admin_state_changed(
            baseline, state,
            invited={"name": p["name"], "email": p["email"], "department": p["department"], "role": p["role"],
                     "groups": [p["group"]], "active": True},
            settings={"security": {"allowed_domains": p["domains_before"] + "\n" + p["domain"]}})

    def oracle(self, sb, p):
        yield from self.open_section(sb, "security")
        yield from AdminSecuritySettings.append_line(sb, "#s-allowed_domains", p["domain"])
        yield from self.save_section(sb, "security")
        yield from self.nav(sb, "users", "#users-table")
        yield click(sb, "#invite")
        wait_idle(sb, "document.querySelector('#user-form') !== null")
        yield from fill(sb, "#u-name", p["name"])
        yield from fill(sb, "#u-email", p["email"])
        yield from choose(sb, "#u-department", p["department"])
        yield from choose(sb, "#u-role", p["role"])
        yield click(sb, f"input[name=grp][value=\"{p['group']}\"]")
        yield from self.save_user(sb)
        yield {"action_type": "finished", "content": ""}


@register_task
class AdminAuditAnswer(AdminTask):
    """Answer, from the audit log, who deactivated a given user's account (finished(content=<actor name>)).

    The log has 110 entries over eight pages; filters by action and a search help.
    The checker compares the name and confirms that nothing changed.
    """

    id = "browser.admin-audit-answer-v0"
    max_steps = 12

    def sample(self, rng):
        seed, data = _sample_data(rng)
        hits = [e for e in data["audit"] if e["action"] == "user.deactivate"]
        unique = [e for e in hits if sum(h["target"] == e["target"] for h in hits) == 1]
        e = _pick(rng, unique)
        return {"data_seed": seed, "target": e["target"], "actor": e["actor"], "time": e["time"]}

    def instruction(self, p):
        return (f"According to the admin console's audit log, who deactivated the account {p['target']}? "
                "Answer with that person's name.")

    def check(self, state, p, answer, baseline):
        return all_of(answer_matches(answer, p["actor"]), self.unchanged(state, baseline))

    def oracle(self, sb, p):
        yield from self.nav(sb, "audit", "#audit-table")
        yield from choose(sb, "#audit-action", "user.deactivate")
        yield from fill(sb, "#audit-search", p["target"])
        wait_idle(sb)
        actor = sb.browser.page.inner_text("#audit-table tbody tr td:nth-child(2)").strip()
        yield {"action_type": "finished", "content": actor}
