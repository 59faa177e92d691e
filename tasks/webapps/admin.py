"""Backend of the Admin console web app (assets/web/admin/): seeded users, groups, permissions, settings and an audit log.

`generate(seed)` makes one episode's organisation (70-160 users over eight
departments of uneven sizes, six groups with a permission matrix, three settings sections, an
audit history); `AdminBackend` answers `/admin/api/` (a task installs it with
`sb.server.install(AdminBackend.prefix, AdminBackend)` and loads the organisation
of a seed with `.load(seed)`). Every change made through the API is validated (422
{"errors": {field: message}}) and appended to the audit log as done by the
signed-in admin (`ACTOR`). A data seed's parity is its split (`split_of_seed`): even seeds are
training organisations (the training halves of `ORGS` and `FIRST`, a "now" in 2026), odd seeds
test ones (the other halves, 2027), so no test organisation, person or email is a training one.

API (JSON):
    GET  bootstrap            org, now, departments, roles, groups, permission catalogue, actor
    GET  users                all users;   GET users/<id>
    POST users                invite a user (name, email, department, role, groups)
    PUT  users/<id>           edit (name, email, department, role, active, mfa, groups)
    POST users/bulk           {"ids": [...], "action": activate|deactivate|require_mfa|set_role, "role": ...}
    GET  permissions          {"matrix": {group id: [permission ids]}};  PUT permissions {"matrix": ...}
    GET  settings             all sections;  PUT settings/<general|security|notifications>
    GET  audit                the log, newest first
"""

from __future__ import annotations

import copy
import datetime as dt
import ipaddress
import re

import numpy as np

from hybridgym.sandbox.webserver import ApiError, JsonBackend, Response, endpoint
from hybridgym.tasks.kit.data import Pool

ACTOR = "Morgan Blake"
DEPARTMENTS = ["Engineering", "Sales", "Marketing", "Finance", "Support", "Operations", "Legal", "People"]
ROLES = ["Viewer", "Editor", "Manager", "Admin"]
GROUPS = [("admins", "Administrators", "Full access to the console"),
          ("support", "Support desk", "Handles customer tickets"),
          ("finance", "Finance team", "Billing and invoices"),
          ("eng-leads", "Engineering leads", "Technical leadership"),
          ("auditors", "Auditors", "Read-only compliance reviews"),
          ("sales-ops", "Sales ops", "CRM and pipeline tooling")]
PERMISSIONS = [("users.view", "View users"), ("users.edit", "Create and edit users"),
               ("billing.view", "View invoices"), ("billing.edit", "Change billing details"),
               ("reports.view", "View reports"), ("reports.export", "Export reports"),
               ("settings.edit", "Change organisation settings"), ("audit.view", "Read the audit log"),
               ("api.keys", "Manage API keys")]
TIMEZONES = ["UTC", "Europe/London", "Europe/Berlin", "Europe/Paris", "Europe/Madrid", "Europe/Warsaw",
             "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Sao_Paulo",
             "Asia/Tokyo", "Asia/Singapore", "Asia/Kolkata", "Asia/Dubai", "Australia/Sydney", "Africa/Lagos",
             "Africa/Nairobi"]
LANGUAGES = ["English", "Deutsch", "Español", "Français", "Italiano", "Nederlands", "Polski", "Português", "日本語"]
DATE_FORMATS = ["YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
DIGESTS = ["off", "daily", "weekly"]
ORGS = Pool([("Northwind Traders", "northwind.example"), ("Globex Logistics", "globex.example"),
             ("Initech Systems", "initech.example"), ("Umbrella Health", "umbrella.example"),
             ("Stark Analytics", "stark.example"), ("Wayne Foundation", "waynefdn.example"),
             ("Hooli Media", "hooli.example"), ("Vandelay Imports", "vandelay.example"),
             ("Cyberdyne Robotics", "cyberdyne.example"), ("Tyrell Biotech", "tyrell.example"),
             ("Soylent Foods", "soylent.example"), ("Wonka Confections", "wonka.example"),
             ("Oscorp Energy", "oscorp.example"), ("Aperture Research", "aperture.example"),
             ("Massive Dynamic", "massivedyn.example"), ("Pied Piper Data", "piedpiper.example")])
FIRST = Pool(["Ada", "Bruno", "Carmen", "Dmitri", "Elena", "Felix", "Gita", "Hannah", "Ivan", "Julia", "Kai", "Laura",
         "Mateo", "Nina", "Oscar", "Paula", "Quentin", "Rosa", "Sami", "Tara", "Umar", "Vera", "Wei", "Xenia",
         "Yusuf", "Zoe", "Aaron", "Bianca", "Caleb", "Daria", "Emil", "Freya", "Goran", "Helga", "Idris", "Jana",
              "Kenji", "Lucia", "Milan", "Noor"])
LAST = ["Schmidt", "Okoye", "Lindqvist", "Moreau", "Kowalski", "Haddad", "Brennan", "Yamamoto", "Costa",
        "Petrov", "Singh", "Novak", "Garcia", "Fischer", "Olsen", "Rahman", "Dubois", "Keller", "Mendes", "Walsh"]
SECTIONS = ("general", "security", "notifications")
_EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+\.)+[A-Za-z]{2,}$")
_DOMAIN = re.compile(r"^([a-z0-9-]+\.)+[a-z]{2,}$")


def split_of_seed(seed: int) -> str:
    """The split a data seed belongs to: even seeds "train", odd seeds "test"."""
    return "test" if seed % 2 else "train"


def data_seed(k: int, split: str) -> int:
    """The k-th data seed of a split (its parity is the split)."""
    return 2 * k + (split == "test")


def generate(seed: int) -> dict:
    """One episode's organisation: users, groups, permissions, settings, audit history, and "now"
    (from the split of the seed's parity: its organisations, first names and year)."""
    rng = np.random.default_rng(seed)
    split = split_of_seed(seed)
    orgs = ORGS.half(split)
    org, domain = orgs[int(rng.integers(len(orgs)))]
    now = dt.date(2026 if split == "train" else 2027, 2, 1) + dt.timedelta(days=int(rng.integers(0, 300)))
    names = [f"{f} {l}" for f in FIRST.half(split) for l in LAST]
    picked = [names[i] for i in rng.choice(len(names), size=int(rng.integers(70, 161)), replace=False)]
    sizes = rng.dirichlet(np.full(len(DEPARTMENTS), 0.8))   # departments of uneven sizes
    users = []
    for i, name in enumerate(picked, start=1):
        dept = DEPARTMENTS[int(rng.choice(len(DEPARTMENTS), p=sizes))]
        never = rng.random() < 0.1
        last = None if never else (now - dt.timedelta(days=int(rng.choice([rng.integers(0, 20), rng.integers(20, 240)])))).isoformat()
        groups = sorted(str(g) for g in rng.choice([g[0] for g in GROUPS], size=int(rng.integers(0, 3)), replace=False))
        users.append({"id": i, "name": name, "email": name.lower().replace(" ", ".") + "@" + domain,
                      "department": dept, "role": ROLES[int(rng.choice(4, p=[0.45, 0.3, 0.18, 0.07]))],
                      "active": bool(rng.random() < 0.85), "mfa": bool(rng.random() < 0.6),
                      "last_login": last, "created": (now - dt.timedelta(days=int(rng.integers(250, 1500)))).isoformat(),
                      "groups": groups})
    perm_ids = [p[0] for p in PERMISSIONS]
    matrix = {"admins": list(perm_ids)}
    for gid, *_ in GROUPS[1:]:
        matrix[gid] = sorted(p for p in perm_ids if rng.random() < 0.35 or p == "users.view")
    settings = {
        "general": {"org_name": org, "support_email": f"help@{domain}", "website": f"https://www.{domain}",
                    "timezone": TIMEZONES[int(rng.integers(len(TIMEZONES)))], "language": "English",
                    "date_format": DATE_FORMATS[int(rng.integers(3))], "week_start": str(rng.choice(["monday", "sunday"])),
                    "fiscal_year_start": MONTHS[int(rng.integers(12))],
                    "description": f"{org} internal administration console."},
        "security": {"min_password_length": int(rng.choice([8, 10, 12])), "password_expiry_days": int(rng.choice([0, 90, 180])),
                     "session_timeout": int(rng.choice([30, 60, 120, 480])), "max_login_attempts": int(rng.choice([5, 8, 10])),
                     "require_2fa": False, "sso_only": False, "allowed_domains": domain,
                     "ip_allowlist": "10.0.0.0/8"},
        "notifications": {"alert_email": f"it-alerts@{domain}", "digest": str(rng.choice(DIGESTS)),
                          "notify_new_user": True, "notify_failed_login": bool(rng.random() < 0.5),
                          "notify_billing": bool(rng.random() < 0.5), "notify_weekly_report": False,
                          "slack_webhook": ""},
    }
    # past changes were made by the organisation's admins and managers (and the signed-in admin)
    actors = [u["name"] for u in users if u["role"] in ("Admin", "Manager")] or [users[0]["name"]]
    actors = actors + [ACTOR]
    audit = []
    t = dt.datetime.combine(now, dt.time(9, 0)) - dt.timedelta(days=60)
    for i in range(1, 111):
        t += dt.timedelta(minutes=int(rng.integers(20, 1200)))
        kind = str(rng.choice(["user.role", "user.deactivate", "user.activate", "user.login", "user.group",
                               "settings.update", "user.mfa"], p=[0.16, 0.1, 0.08, 0.36, 0.12, 0.08, 0.1]))
        pool = [u for u in users if u["last_login"]] if kind == "user.login" else users   # logins only by those who did
        u = pool[int(rng.integers(len(pool)))]
        detail = {"user.role": f"role {ROLES[int(rng.integers(4))]} → {u['role']}",
                  "user.deactivate": "account deactivated", "user.activate": "account activated",
                  "user.login": "signed in", "user.group": f"added to {GROUPS[int(rng.integers(6))][1]}",
                  "settings.update": "security: session_timeout", "user.mfa": "2FA required"}[kind]
        actor = u["name"] if kind == "user.login" else str(rng.choice(actors))
        audit.append({"id": i, "time": t.strftime("%Y-%m-%d %H:%M"), "actor": actor, "action": kind,
                      "target": "organisation" if kind == "settings.update" else u["email"], "detail": detail})
    groups = [{"id": g[0], "name": g[1], "description": g[2]} for g in GROUPS]
    return {"org": org, "domain": domain, "now": now.isoformat(), "users": users, "groups": groups,
            "permissions": matrix, "settings": settings, "audit": audit}


class AdminBackend(JsonBackend):
    """One episode's admin console state, answering the app's API."""

    name = "admin console"
    prefix = "/admin/api/"

    def clear(self) -> None:
        self.now = self.org = ""
        self.users: list[dict] = []
        self.groups: list[dict] = []
        self.permissions: dict[str, list[str]] = {}
        self.settings: dict[str, dict] = {}
        self.audit: list[dict] = []
        self._clock = dt.datetime(2026, 1, 1)

    def populate(self, seed: int) -> None:
        """The organisation of `seed` (`generate(seed)`)."""
        data = generate(seed)
        self.now, self.org = data["now"], data["org"]
        self.users, self.groups, self.permissions = data["users"], data["groups"], data["permissions"]
        self.settings, self.audit = data["settings"], data["audit"]
        self._clock = dt.datetime.combine(dt.date.fromisoformat(self.now), dt.time(10, 0))

    def state(self) -> dict:
        """A snapshot for checkers: users, permissions, settings, audit."""
        with self.lock:
            return copy.deepcopy({"users": self.users, "permissions": self.permissions,
                                  "settings": self.settings, "audit": self.audit})

    def _log(self, action: str, target: str, detail: str) -> None:
        self._clock += dt.timedelta(minutes=1)
        self.audit.append({"id": len(self.audit) + 1, "time": self._clock.strftime("%Y-%m-%d %H:%M"),
                           "actor": ACTOR, "action": action, "target": target, "detail": detail})

    # -- validation ------------------------------------------------------------
    def _check_user(self, body: dict, uid: int | None) -> dict:
        errors = {}
        name = str(body.get("name", "")).strip()
        email = str(body.get("email", "")).strip().lower()
        if not name:
            errors["name"] = "Name is required."
        if not _EMAIL.match(email):
            errors["email"] = "Enter a valid email address."
        elif any(u["email"] == email and u["id"] != uid for u in self.users):
            errors["email"] = "Another user already has this email."
        elif uid is None:
            allowed = self.settings["security"]["allowed_domains"].split()
            if email.split("@")[1] not in allowed:
                errors["email"] = (f"Invites are limited to the allowed domains ({', '.join(allowed)}). "
                                   "An administrator can add domains under Settings → Security.")
        if body.get("department") not in DEPARTMENTS:
            errors["department"] = "Choose a department."
        if body.get("role") not in ROLES:
            errors["role"] = "Choose a role."
        groups = body.get("groups", [])
        if not isinstance(groups, list) or any(g not in self.permissions for g in groups):
            errors["groups"] = "Unknown group."
        return errors

    def _check_settings(self, section: str, body: dict) -> tuple[dict, dict]:
        cur = self.settings[section]
        new, errors = {}, {}
        unknown = set(body) - set(cur)
        if unknown:
            return {}, {"form": f"unknown fields {sorted(unknown)}"}
        for key, old in cur.items():
            val = body.get(key, old)
            if isinstance(old, bool):
                new[key] = val is True
            elif isinstance(old, int):
                try:
                    new[key] = int(str(val).strip())
                except ValueError:
                    errors[key] = "Enter a whole number."
            else:
                new[key] = str(val).strip()

        def rng_(key, lo, hi, unit=""):
            if key not in errors and not lo <= new[key] <= hi:
                errors[key] = f"Must be between {lo} and {hi}{unit}."
        if section == "general":
            if not new["org_name"]:
                errors["org_name"] = "Organisation name is required."
            elif len(new["org_name"]) > 60:
                errors["org_name"] = "At most 60 characters."
            if not _EMAIL.match(new["support_email"]):
                errors["support_email"] = "Enter a valid email address."
            if not new["website"].startswith("https://"):
                errors["website"] = "The website must start with https://."
            for key, options in (("timezone", TIMEZONES), ("language", LANGUAGES), ("date_format", DATE_FORMATS),
                                 ("week_start", ["monday", "sunday"]), ("fiscal_year_start", MONTHS)):
                if new[key] not in options:
                    errors[key] = "Choose one of the options."
            if len(new["description"]) > 300:
                errors["description"] = "At most 300 characters."
        elif section == "security":
            rng_("min_password_length", 8, 64, " characters")
            rng_("password_expiry_days", 0, 365, " days (0 = never)")
            rng_("session_timeout", 5, 1440, " minutes")
            rng_("max_login_attempts", 3, 20)
            domains = new["allowed_domains"].lower().split()
            bad = [d for d in domains if not _DOMAIN.match(d)]
            if not domains:
                errors["allowed_domains"] = "Keep at least one allowed domain."
            elif bad:
                errors["allowed_domains"] = f"Not a domain: {bad[0]} (one domain per line, like example.com)."
            new["allowed_domains"] = "\n".join(domains)
            nets = new["ip_allowlist"].split()
            for n in nets:
                try:
                    ipaddress.ip_network(n, strict=False)
                except ValueError:
                    errors["ip_allowlist"] = f"Not an IP range: {n} (use CIDR, like 10.0.0.0/8)."
                    break
            new["ip_allowlist"] = "\n".join(nets)
        else:
            if not _EMAIL.match(new["alert_email"]):
                errors["alert_email"] = "Enter a valid email address."
            if new["digest"] not in DIGESTS:
                errors["digest"] = "Choose one of the options."
            if new["slack_webhook"] and not new["slack_webhook"].startswith("https://hooks.slack.com/"):
                errors["slack_webhook"] = "A Slack webhook starts with https://hooks.slack.com/."
        return new, errors

    # -- the API ---------------------------------------------------------------
    @endpoint("GET", "bootstrap")
    def bootstrap(self, req, body):
        return {"org": self.settings["general"]["org_name"], "now": self.now,
                "departments": DEPARTMENTS, "roles": ROLES, "groups": self.groups,
                "permissions": [{"id": p, "label": l} for p, l in PERMISSIONS],
                "timezones": TIMEZONES, "languages": LANGUAGES, "date_formats": DATE_FORMATS,
                "months": MONTHS, "actor": ACTOR}

    @endpoint("GET", "users")
    def user_list(self, req, body):
        return copy.deepcopy(self.users)

    def _user(self, uid: str) -> dict:
        user = next((u for u in self.users if str(u["id"]) == uid), None)
        if user is None:
            raise ApiError(404, f"no user {uid}")
        return user

    @endpoint("GET", "users/{uid}")
    def user(self, req, body, uid):
        return copy.deepcopy(self._user(uid))

    @endpoint("PUT", "users/{uid}")
    def edit(self, req, body, uid):
        return self._edit(self._user(uid), body)

    @endpoint("GET", "permissions")
    def matrix(self, req, body):
        return {"matrix": copy.deepcopy(self.permissions)}

    @endpoint("GET", "settings")
    def all_settings(self, req, body):
        return copy.deepcopy(self.settings)

    @endpoint("PUT", "settings/{section}")
    def save_settings(self, req, body, section):
        if section not in SECTIONS:
            raise ApiError(404, f"no settings section {section!r}; have {list(SECTIONS)}")
        new, errors = self._check_settings(section, body)
        if errors:
            return Response(422, {"errors": errors})
        changed = sorted(k for k in new if new[k] != self.settings[section][k])
        self.settings[section] = new
        if changed:
            self._log("settings.update", "organisation", f"{section}: {', '.join(changed)}")
        return copy.deepcopy(new)

    @endpoint("GET", "audit")
    def audit_log(self, req, body):
        return copy.deepcopy(self.audit[::-1])

    @endpoint("POST", "users")
    def invite(self, req, body):
        errors = self._check_user(body, None)
        if errors:
            return Response(422, {"errors": errors})
        user = {"id": max(u["id"] for u in self.users) + 1, "name": str(body["name"]).strip(),
                "email": str(body["email"]).strip().lower(), "department": body["department"], "role": body["role"],
                "active": True, "mfa": bool(self.settings["security"]["require_2fa"]), "last_login": None,
                "created": self.now, "groups": sorted(set(body.get("groups", [])))}
        self.users.append(user)
        self._log("user.invite", user["email"], f"invited as {user['role']}")
        return Response(201, copy.deepcopy(user))

    def _edit(self, user: dict, body: dict) -> Response:
        merged = {**user, **{k: v for k, v in body.items() if k in ("name", "email", "department", "role",
                                                                     "active", "mfa", "groups")}}
        errors = self._check_user(merged, user["id"])
        if errors:
            return Response(422, {"errors": errors})
        merged["email"] = str(merged["email"]).strip().lower()
        merged["name"] = str(merged["name"]).strip()
        merged["active"], merged["mfa"] = merged["active"] is True, merged["mfa"] is True
        merged["groups"] = sorted(set(merged["groups"]))
        for key in ("name", "email", "department", "role", "active", "mfa", "groups"):
            if merged[key] != user[key]:
                action = {"role": "user.role", "active": "user.activate" if merged[key] else "user.deactivate",
                          "groups": "user.group", "mfa": "user.mfa"}.get(key, "user.update")
                self._log(action, user["email"], f"{key}: {user[key]} → {merged[key]}")
        user.update(merged)
        return Response(200, copy.deepcopy(user))

    @endpoint("POST", "users/bulk")
    def bulk(self, req, body):
        ids, action = body.get("ids"), body.get("action")
        targets = [u for u in self.users if isinstance(ids, list) and u["id"] in ids]
        if not targets or len(targets) != len(ids):
            return Response(422, {"errors": {"ids": "Select at least one existing user."}})
        if action == "set_role" and body.get("role") not in ROLES:
            return Response(422, {"errors": {"role": "Choose a role."}})
        if action not in ("activate", "deactivate", "require_mfa", "set_role"):
            return Response(422, {"errors": {"action": "Choose an action."}})
        key, value = {"activate": ("active", True), "deactivate": ("active", False),
                      "require_mfa": ("mfa", True), "set_role": ("role", body.get("role"))}[action]
        for u in targets:
            if u[key] != value:
                self._log({"active": "user.activate" if value else "user.deactivate", "mfa": "user.mfa",
                           "role": "user.role"}[key], u["email"], f"bulk: {key} {u[key]} → {value}")
                u[key] = value
        return Response(200, {"updated": len(targets)})

    @endpoint("PUT", "permissions")
    def set_permissions(self, req, body):
        matrix = body.get("matrix")
        perms = {p for p, _ in PERMISSIONS}
        if (not isinstance(matrix, dict) or set(matrix) != set(self.permissions)
                or any(not isinstance(v, list) or set(v) - perms for v in matrix.values())):
            return Response(422, {"errors": {"matrix": "Every group needs a list of known permissions."}})
        if "users.view" not in matrix["admins"] or "settings.edit" not in matrix["admins"]:
            return Response(422, {"errors": {"matrix": "Administrators must keep users.view and settings.edit."}})
        for gid, new in matrix.items():
            old = set(self.permissions[gid])
            for p in sorted(set(new) - old):
                self._log("group.grant", gid, f"granted {p}")
            for p in sorted(old - set(new)):
                self._log("group.revoke", gid, f"revoked {p}")
            self.permissions[gid] = sorted(set(new))
        return Response(200, {"matrix": copy.deepcopy(self.permissions)})
