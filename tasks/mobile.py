"""Mobile suite tasks: apps of the phone shell, driven by touch, checked against the phone's backend records."""

from __future__ import annotations

from typing import Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import record_added

from hybridgym.mobile import boot_phone

from .base import Task, register_task

_FIRST = ["Ana", "Bilal", "Chen", "Dara", "Elif", "Femi", "Greta", "Hiro", "Ines", "Jonas", "Kira", "Luca",
          "Maya", "Nour", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tomás", "Uma", "Vera", "Wen", "Yara"]
_LAST = ["Alvarez", "Berg", "Costa", "Dubois", "Eriksen", "Fischer", "García", "Haddad", "Ivanova", "Jensen",
         "Kowalski", "Li", "Moreau", "Nakamura", "Okafor", "Petrov", "Rossi", "Sato", "Tanaka", "Weber"]
#: the phone's collections and the fields its apps write (M2's apps add their own)
PHONE_FIELDS = {
    "contacts": ("name", "phone", "email", "favorite"),
    "messages": ("contact", "phone", "body", "time", "outgoing", "read"),
    "calls": ("name", "phone", "time", "direction", "duration_s"),
    "alarms": ("time", "label", "enabled", "days"),
    "events": ("title", "date", "start", "end", "location", "notes"),
}


def _phone_number(rng: np.random.Generator) -> str:
    return f"+1 555 {int(rng.integers(100, 1000))} {int(rng.integers(1000, 10000))}"


@register_task
class ContactAdd(Task):
    """Add a contact with a given name and phone number in the Contacts app.

    The phone starts on the home screen with 4-8 contacts stored; the checker
    requires exactly one new contact with that name and number, others untouched.
    """

    id = "mobile.contact-add-v0"
    suite = "mobile"
    max_steps = 12

    def sample(self, rng: np.random.Generator) -> dict:
        names = set()
        while len(names) < int(rng.integers(5, 10)):
            names.add(f"{rng.choice(_FIRST)} {rng.choice(_LAST)}")
        names = sorted(names)
        new = names.pop(int(rng.integers(len(names))))
        return {"name": new, "phone": _phone_number(rng),
                "existing": [{"name": n, "phone": _phone_number(rng)} for n in names]}

    def instruction(self, params: dict) -> str:
        return f"Add a new contact named {params['name']} with the phone number {params['phone']}."

    def setup(self, sb, params: dict) -> None:
        boot_phone(sb, {"contacts": params["existing"]}, PHONE_FIELDS)

    def read_state(self, sb, params: dict) -> dict:
        return {"contacts": sb.server.store.snapshot()["contacts"]}

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        return record_added(baseline["contacts"], state["contacts"], {"name": params["name"], "phone": params["phone"]})

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        b = sb.browser
        x, y = b.screen_point("#icon-contacts")
        yield {"action_type": "tap", "x": x, "y": y}
        x, y = b.screen_point("#add-contact")
        yield {"action_type": "tap", "x": x, "y": y}
        x, y = b.screen_point("#name")
        yield {"action_type": "tap", "x": x, "y": y}
        yield {"action_type": "type", "text": params["name"]}
        x, y = b.screen_point("#number")
        yield {"action_type": "tap", "x": x, "y": y}
        yield {"action_type": "type", "text": params["phone"]}
        x, y = b.screen_point("#save")
        yield {"action_type": "tap", "x": x, "y": y}
        yield {"action_type": "finished", "content": ""}
