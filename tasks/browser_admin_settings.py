"""Browser tasks on the Admin console (assets/web/admin/, backend tasks/webapps/admin.py): settings forms and invites.

## Description
An organisation's admin console with three settings pages: General (text, select and
radio fields), Security (number fields, switches, multi-line allowlists; a confirmation
dialog; server-side range checks) and Notifications (radios, switches, a validated
webhook); and an invite form for new users, limited to the allowed email domains. Each
episode's organisation comes from a data seed drawn from the reset seed. The users
table, permissions and audit log: `browser_admin.py`.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when `admin_state_changed` (reward/admin.py) finds exactly the asked-for changes to
settings (and the invited user) and nothing else: every settings key the task did not ask
about must be exactly as it was ("turn every option on" fails). Each organisation belongs to
the reset seed's split (its data seed's parity), and the new names, ranges, people and domains
come from split pools: test seeds give instructions no training seed gives.

## Starting State
The backend loaded fresh at setup; the page opens on the users table.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1: unasked settings must be exactly as they were (no case changes); test seeds draw test
  organisations and split-pool values; the instructions name the organisation.
"""

from __future__ import annotations

from typing import Iterator

from hybridgym.reward.admin import admin_state_changed
from hybridgym.tasks.webapps import admin as adm

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import Pool, pick, pool_of
from .kit.web import AdminTask, choose, click, click_until, fill, present

# split pools: `pick` draws from the half of the rng's split
_NEW_ORG_NAMES = Pool(["Northwind Group", "Globex International", "Initech Holdings", "Umbrella Care",
                       "Stark Insights", "Wayne Trust", "Acme Cloud", "Blue Harbor Labs", "Redwood Partners",
                       "Silverline Capital", "Copperfield Works", "Lakeside Collective"])
_IP_RANGES = Pool(["192.168.10.0/24", "172.16.4.0/22", "203.0.113.0/24", "198.51.100.64/26", "100.64.0.0/16",
                   "192.168.40.0/24", "172.20.8.0/21", "198.18.0.0/15", "10.200.0.0/16", "192.0.2.128/25"])
_NEW_PEOPLE = Pool([("Ines Duarte", "ines.duarte"), ("Tomasz Wrona", "tomasz.wrona"), ("Leila Karimi", "leila.karimi"),
                    ("Noah Brandt", "noah.brandt"), ("Sofia Lund", "sofia.lund"), ("Arjun Mehta", "arjun.mehta"),
                    ("Greta Holm", "greta.holm"), ("Luis Ortega", "luis.ortega"), ("Mei Chen", "mei.chen"),
                    ("Pavel Novotny", "pavel.novotny"), ("Amina Diallo", "amina.diallo"),
                    ("Rhys Morgan", "rhys.morgan")])
_PARTNER_DOMAINS = Pool(["contractors.example", "partner-labs.example", "agency.example", "consult.example",
                         "freelance.example", "studio-partners.example", "vendors.example", "outsourcing.example"])


class SettingsTask(AdminTask):
    """Base of the settings tasks: open a section, save it."""

    def open_section(self, sb, section: str) -> Iterator[dict]:
        yield from click_until(sb, f".side a[data-nav=\"settings/{section}\"]",
                               present(f"#settings-form[data-section={section}]"))

    def save_section(self, sb, section: str, expect_ok: bool = True) -> Iterator[dict]:
        """Save (confirming on Security) and wait for the saved banner (or, `expect_ok` False, the error one)."""
        done = present("#banner-ok" if expect_ok else "#banner-error")
        if section == "security":
            yield click(sb, "#settings-save")
            yield from click_until(sb, "#modal-confirm", done)
        else:
            yield from click_until(sb, "#settings-save", done)

    @staticmethod
    def append_line(sb, selector: str, line: str) -> Iterator[dict]:
        """Oracle steps: a new last line in a textarea."""
        yield click(sb, selector)
        yield act.keys("ctrl", "end")
        yield act.typed("\n" + line)


@register_task(id="browser.admin-general-settings-v1", max_steps=22)
class AdminGeneralSettings(SettingsTask):
    """Change five general organisation settings: name, time zone, date format, first day of the week, fiscal year start.

    Text, select and radio fields on one form. The checker wants exactly those
    settings changed.
    """

    _KEYS = ("org_name", "timezone", "date_format", "week_start", "fiscal_year_start")

    def sample_for(self, rng, data):
        g = data["settings"]["general"]
        return {"org": data["org"], "org_name": pick(rng, [n for n in pool_of(rng, _NEW_ORG_NAMES) if n != g["org_name"]]),
                "timezone": pick(rng, [t for t in adm.TIMEZONES if t != g["timezone"]]),
                "date_format": pick(rng, [f for f in adm.DATE_FORMATS if f != g["date_format"]]),
                "week_start": "sunday" if g["week_start"] == "monday" else "monday",
                "fiscal_year_start": pick(rng, [m for m in adm.MONTHS if m != g["fiscal_year_start"]])}

    def instruction(self, p):
        return (f"In the {p['org']} admin console's general organisation settings, rename the organisation to "
                f"\"{p['org_name']}\", set the default time zone to {p['timezone']}, the date format to "
                f"{p['date_format']}, the week to start on {p['week_start'].capitalize()}, and the fiscal year to "
                f"start in {p['fiscal_year_start']}. Save the changes.")

    def check(self, state, p, outcome: Outcome, baseline):
        return admin_state_changed(baseline, state, settings={"general": {k: p[k] for k in self._KEYS}})

    def oracle(self, sb, p):
        yield from self.open_section(sb, "general")
        yield from fill(sb, "#s-org_name", p["org_name"])
        yield from choose(sb, "#s-timezone", p["timezone"])
        yield click(sb, f"input[name=date_format][value=\"{p['date_format']}\"]")
        yield click(sb, f"input[name=week_start][value=\"{p['week_start']}\"]")
        yield from choose(sb, "#s-fiscal_year_start", p["fiscal_year_start"])
        yield from self.save_section(sb, "general")
        yield act.finish()


@register_task(id="browser.admin-security-settings-v1", max_steps=22)
class AdminSecuritySettings(SettingsTask):
    """Tighten security: minimum password length, password expiry, 2FA for everyone, one more IP range.

    Number fields, a toggle and a multi-line allowlist (the old ranges stay), then
    a confirmation dialog. The checker wants exactly those settings changed.
    """

    def sample_for(self, rng, data):
        s = data["settings"]["security"]
        return {"org": data["org"], "min_password_length": pick(rng, [n for n in (12, 14, 16, 20) if n != s["min_password_length"]]),
                "password_expiry_days": pick(rng, [n for n in (30, 45, 60, 120) if n != s["password_expiry_days"]]),
                "ip_range": pick(rng, _IP_RANGES), "ip_before": s["ip_allowlist"]}

    def instruction(self, p):
        return (f"In the {p['org']} admin console's security settings, set the minimum password length to "
                f"{p['min_password_length']}, make passwords expire after {p['password_expiry_days']} days, require "
                f"two-factor sign-in for everyone, and add {p['ip_range']} to the IP allowlist (keep the ranges "
                "already there). Save the changes.")

    def check(self, state, p, outcome: Outcome, baseline):
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
        yield act.finish()


@register_task(id="browser.admin-fix-validation-v1", max_steps=24)
class AdminFixValidation(SettingsTask):
    """Set a session time-out longer than the console allows, read the validation error, and settle on the largest allowed value.

    The instruction asks for N hours (more than 24) and says to use the closest
    value the console accepts; it also asks for a new limit of failed sign-ins.
    The checker wants session_timeout 1440 and that limit, nothing else changed.
    """

    def sample_for(self, rng, data):
        s = data["settings"]["security"]
        return {"org": data["org"], "hours": int(rng.integers(25, 73)),
                "attempts": pick(rng, [n for n in (3, 4, 6, 7, 12) if n != s["max_login_attempts"]])}

    def instruction(self, p):
        return (f"In the {p['org']} admin console's security settings, set the session timeout to {p['hours']} hours and the "
                f"maximum failed sign-ins to {p['attempts']}. If the console does not accept a value, use the "
                "closest value it does accept. Save the changes.")

    def check(self, state, p, outcome: Outcome, baseline):
        return admin_state_changed(baseline, state, settings={"security": {
            "session_timeout": 1440, "max_login_attempts": p["attempts"]}})

    def oracle(self, sb, p):
        yield from self.open_section(sb, "security")
        yield from fill(sb, "#s-session_timeout", str(p["hours"] * 60))
        yield from fill(sb, "#s-max_login_attempts", str(p["attempts"]))
        yield from self.save_section(sb, "security", expect_ok=False)
        yield from fill(sb, "#s-session_timeout", "1440")    # "Must be between 5 and 1440 minutes."
        yield from self.save_section(sb, "security")
        yield act.finish()


@register_task(id="browser.admin-notifications-v1", max_steps=16)
class AdminNotifications(SettingsTask):
    """Set up notifications: the activity digest frequency, two alert switches and a Slack webhook.

    Radio buttons, switches that may already be on or off, and a text field that
    the backend validates. The checker wants exactly those settings changed.
    """

    def sample_for(self, rng, data):
        n = data["settings"]["notifications"]
        hook = f"https://hooks.slack.com/services/T{int(rng.integers(10**7, 10**8))}/B{int(rng.integers(10**7, 10**8))}"
        return {"org": data["org"], "digest": pick(rng, [d for d in adm.DIGESTS if d != n["digest"]]),
                "failed": not n["notify_failed_login"], "billing": not n["notify_billing"], "webhook": hook}

    def instruction(self, p):
        return (f"In the {p['org']} admin console's notification settings, set the activity digest to "
                f"{p['digest'].capitalize()}, turn {'on' if p['failed'] else 'off'} the emails about failed sign-ins, turn "
                f"{'on' if p['billing'] else 'off'} the billing emails, and send alerts to the Slack webhook {p['webhook']}. "
                "Save the changes.")

    def check(self, state, p, outcome: Outcome, baseline):
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
        yield act.finish()


@register_task(id="browser.admin-invite-user-v1", max_steps=36)
class AdminInviteUser(SettingsTask):
    """Invite a contractor whose email domain is not yet allowed: add the domain under Security, then send the invite.

    Two pages, a refused-invite error, a textarea, a confirmation dialog and the
    invite form with department, role and a group. The checker wants the new
    user with those fields, the domain added to the allowed ones (the old ones
    kept), and nothing else changed.
    """

    def sample_for(self, rng, data):
        name, local = pick(rng, _NEW_PEOPLE)
        domain = pick(rng, _PARTNER_DOMAINS)
        group = pick(rng, data["groups"][1:])
        return {"org": data["org"], "name": name, "email": f"{local}@{domain}", "domain": domain,
                "department": pick(rng, adm.DEPARTMENTS), "role": pick(rng, adm.ROLES[:3]),
                "group": group["id"], "group_name": group["name"],
                "domains_before": data["settings"]["security"]["allowed_domains"]}

    def instruction(self, p):
        return (f"Invite {p['name']} ({p['email']}) to the {p['org']} admin console as a {p['role']} in {p['department']}, "
                f"member of the group \"{p['group_name']}\". If the console refuses the email's domain, first add "
                "that domain to the allowed email domains in the security settings (keep the existing ones).")

    def check(self, state, p, outcome: Outcome, baseline):
        return admin_state_changed(
            baseline, state,
            invited={"name": p["name"], "email": p["email"], "department": p["department"], "role": p["role"],
                     "groups": [p["group"]], "active": True},
            settings={"security": {"allowed_domains": p["domains_before"] + "\n" + p["domain"]}})

    def oracle(self, sb, p):
        yield from self.open_section(sb, "security")
        yield from self.append_line(sb, "#s-allowed_domains", p["domain"])
        yield from self.save_section(sb, "security")
        yield from click_until(sb, ".side a[data-nav=\"users\"]", present("#users-table"))
        yield from click_until(sb, "#invite", present("#user-form"))
        yield from fill(sb, "#u-name", p["name"])
        yield from fill(sb, "#u-email", p["email"])
        yield from choose(sb, "#u-department", p["department"])
        yield from choose(sb, "#u-role", p["role"])
        yield click(sb, f"input[name=grp][value=\"{p['group']}\"]")
        yield from click_until(sb, "#u-save", present("#users-table"))
        yield act.finish()
