"""Mobile suite tasks on the phone's Contacts, Messages, Phone, Clock and Calendar apps, checked against its backend records.

Every task seeds a whole phone (contacts, conversations, call log, alarms, events)
from the seed, so the rows a task must not touch are there as distractors; its
checker (`reward/phone.py: collections_changed`) passes only when exactly the
asked change was made. Question tasks are answered with `finished(content=...)`.
"""

from __future__ import annotations

import time
from typing import Iterator

import numpy as np
from playwright.sync_api import Error as PlaywrightError

from hybridgym.tasks.kit.phone import PHONE_NOW, boot_phone
from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of, answer_matches
from hybridgym.reward.phone import answer_in, collections_changed, matches

from .base import Task, register_task

#: the phone's collections and the fields its apps write (M2's apps add their own)
PHONE_FIELDS = {
    "contacts": ("name", "phone", "email", "favorite"),
    "messages": ("contact", "phone", "body", "time", "outgoing", "read"),
    "calls": ("name", "phone", "time", "direction", "duration_s"),
    "alarms": ("time", "label", "enabled", "days"),
    "events": ("title", "date", "start", "end", "location", "notes"),
}
TODAY = PHONE_NOW[:10]

_FIRST = ["Ana", "Bilal", "Chen", "Dara", "Elif", "Femi", "Greta", "Hiro", "Ines", "Jonas", "Kira", "Luca",
          "Maya", "Nour", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tomás", "Uma", "Vera", "Wen", "Yara"]
_LAST = ["Alvarez", "Berg", "Costa", "Dubois", "Eriksen", "Fischer", "García", "Haddad", "Ivanova", "Jensen",
         "Kowalski", "Li", "Moreau", "Nakamura", "Okafor", "Petrov", "Rossi", "Sato", "Tanaka", "Weber"]
_CHAT = ["Are you coming tonight?", "Thanks for yesterday!", "Running 10 minutes late", "Did you see the game?",
         "Can you send me the photos?", "Happy birthday!", "Call me when you can", "The keys are under the mat",
         "See you at the station", "I left my umbrella at yours", "Let's try the new ramen place", "Good luck today!"]
_LABELS = ["Wake up", "Gym", "Medication", "School run", "Standup", "Water plants", "Bus", "Yoga", "Bake bread", "Dog walk"]
_EVENTS = ["Dentist", "Team sync", "Book club", "Piano lesson", "Car service", "Parents' evening", "Haircut",
           "Project review", "Football practice", "Vet appointment", "Tax advisor", "Climbing", "Date night"]
_PLACES = ["Main St 4", "Room 2.17", "City library", "Riverside park", "Café Luma", "Harbour gym", "Town hall", ""]
_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def _phone_number(rng: np.random.Generator) -> str:
    return f"+1 555 {int(rng.integers(100, 1000))} {int(rng.integers(1000, 10000))}"


def _pick(rng: np.random.Generator, items, k: int | None = None):
    if k is None:
        return items[int(rng.integers(len(items)))]
    return [items[int(i)] for i in rng.choice(len(items), size=k, replace=False)]


def _hm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def phone_world(rng: np.random.Generator) -> dict:
    """A lived-in phone: 7-9 contacts, conversations, a call log, alarms and events (March 2026)."""
    names, first = [], set()
    while len(names) < int(rng.integers(7, 10)):
        f = _pick(rng, _FIRST)
        if f not in first:   # first names unique: instructions may use them
            first.add(f)
            names.append(f"{f} {_pick(rng, _LAST)}")
    contacts = [{"name": n, "phone": _phone_number(rng), "email": (f"{n.split()[0].lower()}@example.com" if rng.random() < .5 else ""),
                 "favorite": bool(rng.random() < .25)} for n in sorted(names)]
    messages = []
    for c in _pick(rng, contacts, 4):
        day = int(rng.integers(9, 14))
        t = int(rng.integers(8 * 60, 20 * 60))
        for j in range(int(rng.integers(1, 4))):
            out = bool(j % 2)
            messages.append({"contact": c["name"], "phone": c["phone"], "body": _pick(rng, _CHAT),
                             "time": f"2026-03-{day:02d} {_hm(t + 7 * j)}", "outgoing": out, "read": True})
    messages.append({"contact": "", "phone": _phone_number(rng), "body": "Your parcel is out for delivery.",
                     "time": f"2026-03-{int(rng.integers(9, 14)):02d} {_hm(int(rng.integers(480, 1200)))}",
                     "outgoing": False, "read": True})
    calls = []
    for _ in range(int(rng.integers(5, 9))):
        c = _pick(rng, contacts) if rng.random() < .8 else {"name": "", "phone": _phone_number(rng)}
        d = _pick(rng, ["in", "out", "missed"])
        calls.append({"name": c["name"], "phone": c["phone"], "direction": d,
                      "time": f"2026-03-{int(rng.integers(8, 14)):02d} {_hm(int(rng.integers(480, 1320)))}",
                      "duration_s": 0 if d == "missed" else int(rng.integers(20, 900))})
    alarms = []
    for label, m in zip(_pick(rng, _LABELS, int(rng.integers(3, 5))), rng.choice(np.arange(5 * 12, 10 * 12), 5, replace=False)):
        alarms.append({"time": _hm(int(m) * 5), "label": label, "enabled": bool(rng.random() < .6),
                       "days": _pick(rng, ["", "Mon,Tue,Wed,Thu,Fri", "Sat,Sun", "Mon,Wed,Fri"])})
    events = []
    for title in _pick(rng, _EVENTS, int(rng.integers(5, 8))):
        start = int(rng.integers(16, 38)) * 30
        events.append({"title": title, "date": f"2026-03-{int(rng.integers(10, 29)):02d}", "start": _hm(start),
                       "end": _hm(start + int(rng.integers(1, 4)) * 30), "location": _pick(rng, _PLACES), "notes": ""})
    return {"contacts": contacts, "messages": messages, "calls": calls, "alarms": alarms, "events": events}


# ---- oracle actions ---------------------------------------------------------------------------------
_WHERE = """el => {
  const r = el.getBoundingClientRect();
  let box = el.parentElement;
  while (box && !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY))) box = box.parentElement;
  const c = box ? box.getBoundingClientRect() : {top: 0, bottom: innerHeight};
  return r.top < c.top ? 'above' : r.bottom > c.bottom - 2 ? 'below' : 'in';
}"""


def tap(sb, sel: str) -> dict:
    for attempt in range(5):   # an element re-rendered between lookup and measuring: look again
        try:
            x, y = sb.browser.screen_point(f"{sel} >> visible=true")
            return {"action_type": "tap", "x": x, "y": y}
        except PlaywrightError:
            if attempt == 4:
                raise
            time.sleep(0.05)


def reach(sb, sel: str, action: str = "tap") -> Iterator[dict]:
    """Swipe the list until `sel` is fully in view (as a person scrolls), then tap or long-press it."""
    loc = sb.browser.page.locator(f"{sel} >> visible=true").first
    for _ in range(8):
        if not loc.count():
            raise LookupError(f"oracle: nothing visible matches {sel!r}")
        where = loc.evaluate(_WHERE)
        if where == "in":
            break
        y1, y2 = (1100, 600) if where == "below" else (600, 1100)
        yield {"action_type": "swipe", "x1": 360, "y1": y1, "x2": 360, "y2": y2}
    act = tap(sb, sel)
    if action == "long_press":
        act = {**act, "action_type": "long_press"}
    yield act


def row(kind: str, text: str) -> str:
    """A list row of a kind (contact, thread, call, alarm, event) whose main line is `text`."""
    return f'.row.{kind}:has(.primary:text-is("{text}"))'


def typed(text: str) -> dict:
    return {"action_type": "type", "text": text}


def open_app(name: str) -> dict:
    return {"action_type": "open_app", "app_name": name}


SELECT_ALL = {"action_type": "hotkey", "keys": ["ctrl", "a"]}
OK = '.scrim button[data-value="ok"]'


def pick_time(sb, value: str) -> Iterator[dict]:
    """In an open time picker: hour, minute, OK."""
    yield tap(sb, "#pick-hour")
    yield typed(value[:2])
    yield tap(sb, "#pick-minute")
    yield typed(value[3:])
    yield tap(sb, OK)


def pick_date(sb, shown: str, value: str) -> Iterator[dict]:
    """In an open date picker showing the month of `shown`: go to the month of `value`, tap the day, OK."""
    months = (int(value[:4]) - int(shown[:4])) * 12 + int(value[5:7]) - int(shown[5:7])
    for _ in range(abs(months)):
        yield tap(sb, "#pick-next" if months > 0 else "#pick-prev")
    yield tap(sb, f'#pick-grid [data-date="{value}"]')
    yield tap(sb, OK)


def calendar_day(sb, date: str) -> Iterator[dict]:
    """In the Calendar app (showing today's month): go to `date`'s month and select the day."""
    months = (int(date[:4]) - int(TODAY[:4])) * 12 + int(date[5:7]) - int(TODAY[5:7])
    for _ in range(abs(months)):
        yield tap(sb, "#cal-next" if months > 0 else "#cal-prev")
    yield tap(sb, f'#cal-grid [data-date="{date}"]')


def done(content: str = "") -> dict:
    return {"action_type": "finished", "content": content}


# ---- the task base ------------------------------------------------------------------------------------
class PhoneTask(Task):
    """A task on a lived-in phone: `sample` draws the world and the target, `expected` says
    which rows must be added/changed/removed (`collections_changed`), or `answers` the accepted answers."""

    suite = "mobile"
    max_steps = 15

    def world(self, rng: np.random.Generator) -> dict:
        return phone_world(rng)

    def setup(self, sb, params: dict) -> None:
        boot_phone(sb, params["records"], PHONE_FIELDS)

    def read_state(self, sb, params: dict) -> dict:
        snap = sb.server.store.snapshot()
        return {k: snap.get(k, []) for k in PHONE_FIELDS}

    def expected(self, params: dict, baseline: dict) -> dict:
        return {}

    def answers(self, params: dict) -> list[str] | None:
        return None

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        unchanged = collections_changed(baseline, state, self.expected(params, baseline), ignore={"messages": ("read",)})
        truths = self.answers(params)
        if truths is None:
            return unchanged
        if params.get("numeric"):
            return all_of(answer_matches(answer, truths[0], numeric=True), unchanged)
        return all_of(answer_in(answer, truths), unchanged)


def _id(rows: list[dict], **fields) -> int:
    """The id of the one baseline row with these field values."""
    hits = [r["id"] for r in rows if matches(r, fields)]
    if len(hits) != 1:
        raise ValueError(f"expected one row with {fields}, found {len(hits)}")
    return hits[0]


# ---- Contacts ---------------------------------------------------------------------------------------------
@register_task
class ContactAdd(PhoneTask):
    """Add a contact with a given name, phone number and email in Contacts (exactly one new row, nothing else)."""

    id = "mobile.contact-add-v0"
    max_steps = 12

    def sample(self, rng):
        w = self.world(rng)
        taken = {c["name"].split()[0] for c in w["contacts"]}
        first = _pick(rng, [f for f in _FIRST if f not in taken])
        name = f"{first} {_pick(rng, _LAST)}"
        return {"records": w, "name": name, "phone": _phone_number(rng), "email": f"{first.lower()}.{len(name)}@mail.test"}

    def instruction(self, p):
        return f"Add a new contact named {p['name']} with the phone number {p['phone']} and the email {p['email']}."

    def expected(self, p, b):
        return {"contacts": {"added": [{"name": p["name"], "phone": p["phone"], "email": p["email"]}]}}

    def oracle(self, sb, p):
        yield open_app("Contacts")
        yield tap(sb, "#add-contact")
        for sel, text in (("#name", p["name"]), ("#number", p["phone"]), ("#email", p["email"])):
            yield tap(sb, sel)
            yield typed(text)
        yield tap(sb, "#save")
        yield done()


@register_task
class ContactEditPhone(PhoneTask):
    """Change an existing contact's phone number (only that field of that row changes)."""

    id = "mobile.contact-edit-phone-v0"
    max_steps = 12

    def sample(self, rng):
        w = self.world(rng)
        return {"records": w, "name": _pick(rng, w["contacts"])["name"], "phone": _phone_number(rng)}

    def instruction(self, p):
        return f"{p['name']} has a new phone number: {p['phone']}. Update the contact."

    def expected(self, p, b):
        return {"contacts": {"changed": {_id(b["contacts"], name=p["name"]): {"phone": p["phone"]}}}}

    def oracle(self, sb, p):
        yield open_app("Contacts")
        yield from reach(sb, row("contact", p["name"]))
        yield tap(sb, "#contact-edit")
        yield tap(sb, "#number")
        yield SELECT_ALL
        yield typed(p["phone"])
        yield tap(sb, "#save")
        yield done()


@register_task
class ContactDelete(PhoneTask):
    """Delete one contact (long press on it in the list, then Delete); the others stay."""

    id = "mobile.contact-delete-v0"
    max_steps = 10

    def sample(self, rng):
        w = self.world(rng)
        return {"records": w, "name": _pick(rng, w["contacts"])["name"]}

    def instruction(self, p):
        return f"Delete the contact {p['name']}."

    def expected(self, p, b):
        return {"contacts": {"removed": [_id(b["contacts"], name=p["name"])]}}

    def oracle(self, sb, p):
        yield open_app("Contacts")
        yield from reach(sb, f'#contact-list {row("contact", p["name"])}', "long_press")
        yield tap(sb, '.menu button[data-value="delete"]')
        yield tap(sb, OK)
        yield done()


@register_task
class ContactFavorite(PhoneTask):
    """Add a contact to the favorites (its `favorite` flag turns true)."""

    id = "mobile.contact-favorite-v0"
    max_steps = 8

    def sample(self, rng):
        w = self.world(rng)
        name = _pick(rng, [c for c in w["contacts"] if not c["favorite"]])["name"]
        return {"records": w, "name": name}

    def instruction(self, p):
        return f"Add {p['name']} to your favorite contacts."

    def expected(self, p, b):
        return {"contacts": {"changed": {_id(b["contacts"], name=p["name"]): {"favorite": True}}}}

    def oracle(self, sb, p):
        yield open_app("Contacts")
        yield from reach(sb, row("contact", p["name"]))
        yield tap(sb, "#contact-fav")
        yield done()


@register_task
class ContactEmailQuestion(PhoneTask):
    """Question: a contact's email address."""

    id = "mobile.contact-email-question-v0"
    max_steps = 8

    def sample(self, rng):
        w = self.world(rng)
        c = _pick(rng, w["contacts"])
        c["email"] = f"{c['name'].split()[0].lower()}.{int(rng.integers(10, 99))}@example.org"
        return {"records": w, "name": c["name"], "email": c["email"]}

    def instruction(self, p):
        return f"What is {p['name']}'s email address? Answer with the address."

    def answers(self, p):
        return [p["email"]]

    def oracle(self, sb, p):
        yield open_app("Contacts")
        yield from reach(sb, row("contact", p["name"]))
        yield done(p["email"])


# ---- Messages ---------------------------------------------------------------------------------------------
@register_task
class MessageSend(PhoneTask):
    """Send a text to a contact you have no conversation with yet (start a chat, pick the contact, send)."""

    id = "mobile.message-send-v0"
    max_steps = 12

    def sample(self, rng):
        w = self.world(rng)
        talked = {m["phone"] for m in w["messages"]}
        c = _pick(rng, [c for c in w["contacts"] if c["phone"] not in talked])
        body = f"{_pick(rng, ['Dinner', 'Coffee', 'Tennis', 'Lunch'])} at {int(rng.integers(5, 9))} pm on {_pick(rng, _DAYS)}?"
        return {"records": w, "name": c["name"], "phone": c["phone"], "body": body}

    def instruction(self, p):
        return f"Send the text message \"{p['body']}\" to {p['name']}."

    def expected(self, p, b):
        return {"messages": {"added": [{"phone": p["phone"], "body": p["body"], "outgoing": True}]}}

    def oracle(self, sb, p):
        yield open_app("Messages")
        yield tap(sb, "#new-message")
        yield tap(sb, "#to")
        yield typed(p["name"].split()[0])
        yield tap(sb, f'#to-list .row:has(.primary:text-is("{p["name"]}"))')
        yield tap(sb, "#compose")
        yield typed(p["body"])
        yield tap(sb, "#send")
        yield done()


@register_task
class MessageReply(PhoneTask):
    """Reply in an existing conversation (the newest message there is from that contact)."""

    id = "mobile.message-reply-v0"
    max_steps = 10

    def sample(self, rng):
        w = self.world(rng)
        c = _pick(rng, [c for c in w["contacts"] if c["phone"] in {m["phone"] for m in w["messages"]}])
        w["messages"].append({"contact": c["name"], "phone": c["phone"], "body": "Are we still on for later?",
                              "time": f"{TODAY} 09:{int(rng.integers(0, 29)):02d}", "outgoing": False, "read": False})
        return {"records": w, "name": c["name"], "phone": c["phone"], "body": _pick(rng, ["Yes, see you then!", "Sorry, I can't make it today.", "Running a bit late, 15 min."])}

    def instruction(self, p):
        return f"Reply to {p['name']}'s latest message with: {p['body']}"

    def expected(self, p, b):
        return {"messages": {"added": [{"phone": p["phone"], "body": p["body"], "outgoing": True}]}}

    def oracle(self, sb, p):
        yield open_app("Messages")
        yield from reach(sb, row("thread", p["name"]))
        yield tap(sb, "#compose")
        yield typed(p["body"])
        yield tap(sb, "#send")
        yield done()


@register_task
class MessageDeleteThread(PhoneTask):
    """Delete a whole conversation (long press on it, Delete); other conversations stay."""

    id = "mobile.message-delete-thread-v0"
    max_steps = 10

    def sample(self, rng):
        w = self.world(rng)
        c = _pick(rng, [c for c in w["contacts"] if c["phone"] in {m["phone"] for m in w["messages"]}])
        return {"records": w, "name": c["name"], "phone": c["phone"]}

    def instruction(self, p):
        return f"Delete your whole conversation with {p['name']} in Messages."

    def expected(self, p, b):
        return {"messages": {"removed": [m["id"] for m in b["messages"] if m["phone"] == p["phone"]]}}

    def oracle(self, sb, p):
        yield open_app("Messages")
        yield from reach(sb, row("thread", p["name"]), "long_press")
        yield tap(sb, '.menu button[data-value="delete"]')
        yield tap(sb, OK)
        yield done()


@register_task
class MessageCodeQuestion(PhoneTask):
    """Question: the verification code a service texted (a distractor code from another service is there too)."""

    id = "mobile.message-code-question-v0"
    max_steps = 8

    def sample(self, rng):
        w = self.world(rng)
        services = _pick(rng, ["PayFast", "NorthBank", "ShopHub", "CloudID", "RideNow"], 2)
        codes = [f"{int(rng.integers(100000, 1000000))}" for _ in services]
        for i, (s, code) in enumerate(zip(services, codes)):
            w["messages"].append({"contact": "", "phone": f"+1 555 0{i}{int(rng.integers(10, 99))} 0000",
                                  "body": f"{s}: your verification code is {code}. Do not share it.",
                                  "time": f"{TODAY} 09:{10 + 5 * i:02d}", "outgoing": False, "read": False})
        return {"records": w, "service": services[0], "code": codes[0]}

    def instruction(self, p):
        return f"What is the verification code {p['service']} sent you by text? Answer with the code only."

    def answers(self, p):
        return [p["code"]]

    def oracle(self, sb, p):
        yield open_app("Messages")
        yield from reach(sb, f'.row.thread:has(.secondary:text("{p["service"]}:"))')
        yield done(p["code"])


# ---- Phone (dialer) ------------------------------------------------------------------------------------
@register_task
class CallNumber(PhoneTask):
    """Call a number on the keypad (a new outgoing `calls` row with that number)."""

    id = "mobile.call-number-v0"
    max_steps = 20

    def sample(self, rng):
        return {"records": self.world(rng), "phone": _phone_number(rng)}

    def instruction(self, p):
        return f"Call {p['phone']} using the phone's keypad (hold 0 for +), then hang up."

    def expected(self, p, b):
        return {"calls": {"added": [{"phone": p["phone"], "direction": "out"}]}}

    def oracle(self, sb, p):
        yield open_app("Phone")
        yield tap(sb, "#tab-keypad")
        yield {**tap(sb, "#dial-0"), "action_type": "long_press"}   # a held 0 is "+"
        for ch in p["phone"].replace(" ", "").lstrip("+"):
            yield tap(sb, f"#dial-{ch}")
        yield tap(sb, "#dial-call")
        yield tap(sb, "#end-call")
        yield done()


@register_task
class CallContact(PhoneTask):
    """Call a contact from Contacts (an outgoing `calls` row with the contact's number)."""

    id = "mobile.call-contact-v0"
    max_steps = 8

    def sample(self, rng):
        w = self.world(rng)
        c = _pick(rng, w["contacts"])
        return {"records": w, "name": c["name"], "phone": c["phone"]}

    def instruction(self, p):
        return f"Call {p['name']}."

    def expected(self, p, b):
        return {"calls": {"added": [{"phone": p["phone"], "direction": "out"}]}}

    def oracle(self, sb, p):
        yield open_app("Contacts")
        yield from reach(sb, row("contact", p["name"]))
        yield tap(sb, "#contact-call")
        yield tap(sb, "#end-call")
        yield done()


@register_task
class CallLogDelete(PhoneTask):
    """Delete one entry of the call log (the most recent call with a contact), the others stay."""

    id = "mobile.call-log-delete-v0"
    max_steps = 10

    def sample(self, rng):
        w = self.world(rng)
        c = _pick(rng, w["contacts"])
        w["calls"].append({"name": c["name"], "phone": c["phone"], "direction": "in", "time": f"{TODAY} 09:1{int(rng.integers(0, 9))}", "duration_s": 42})
        return {"records": w, "name": c["name"], "phone": c["phone"]}

    def instruction(self, p):
        return f"Delete today's call with {p['name']} from the call history (keep the others)."

    def expected(self, p, b):
        return {"calls": {"removed": [_id(b["calls"], phone=p["phone"], duration_s=42, direction="in")]}}

    def oracle(self, sb, p):
        yield open_app("Phone")
        yield from reach(sb, '#call-log .call:has-text("Today")', "long_press")
        yield tap(sb, '.menu button[data-value="delete"]')
        yield done()


@register_task
class MissedCallsQuestion(PhoneTask):
    """Question: how many missed calls came from a contact."""

    id = "mobile.missed-calls-question-v0"
    max_steps = 6

    def sample(self, rng):
        w = self.world(rng)
        c = _pick(rng, w["contacts"])
        for _ in range(int(rng.integers(1, 4))):
            w["calls"].append({"name": c["name"], "phone": c["phone"], "direction": "missed", "duration_s": 0,
                               "time": f"2026-03-{int(rng.integers(10, 14)):02d} {_hm(int(rng.integers(480, 1320)))}"})
        n = sum(1 for k in w["calls"] if k["phone"] == c["phone"] and k["direction"] == "missed")
        return {"records": w, "name": c["name"], "count": n, "numeric": True}

    def instruction(self, p):
        return f"How many missed calls from {p['name']} are in the call history? Answer with a number."

    def answers(self, p):
        return [str(p["count"])]

    def oracle(self, sb, p):
        yield open_app("Phone")
        yield done(str(p["count"]))


# ---- Clock ----------------------------------------------------------------------------------------------
@register_task
class AlarmAdd(PhoneTask):
    """Add an alarm at a time with a label (one new enabled alarm)."""

    id = "mobile.alarm-add-v0"
    max_steps = 14

    def sample(self, rng):
        w = self.world(rng)
        taken = {a["time"] for a in w["alarms"]}
        t = _pick(rng, [_hm(m) for m in range(5 * 60, 11 * 60, 5) if _hm(m) not in taken])
        label = _pick(rng, [x for x in _LABELS if x not in {a["label"] for a in w["alarms"]}])
        return {"records": w, "time": t, "label": label}

    def instruction(self, p):
        return f"Set an alarm for {p['time']} labeled \"{p['label']}\"."

    def expected(self, p, b):
        return {"alarms": {"added": [{"time": p["time"], "label": p["label"], "enabled": True}]}}

    def oracle(self, sb, p):
        yield open_app("Clock")
        yield tap(sb, "#add-alarm")
        yield tap(sb, "#alarm-time")
        yield from pick_time(sb, p["time"])
        yield tap(sb, "#alarm-label")
        yield typed(p["label"])
        yield tap(sb, "#save")
        yield done()


@register_task
class AlarmToggle(PhoneTask):
    """Turn one alarm off or on (its `enabled` flips), the others stay."""

    id = "mobile.alarm-toggle-v0"
    max_steps = 8

    def sample(self, rng):
        w = self.world(rng)
        a = _pick(rng, w["alarms"])
        return {"records": w, "time": a["time"], "label": a["label"], "enabled": not a["enabled"]}

    def instruction(self, p):
        return f"Turn {'on' if p['enabled'] else 'off'} the {p['time']} alarm ({p['label']})."

    def expected(self, p, b):
        return {"alarms": {"changed": {_id(b["alarms"], time=p["time"]): {"enabled": p["enabled"]}}}}

    def oracle(self, sb, p):
        yield open_app("Clock")
        yield from reach(sb, f'{row("alarm", p["time"])} .switch')
        yield done()


@register_task
class AlarmDelete(PhoneTask):
    """Delete the alarm with a given label (long press, Delete)."""

    id = "mobile.alarm-delete-v0"
    max_steps = 8

    def sample(self, rng):
        w = self.world(rng)
        a = _pick(rng, w["alarms"])
        return {"records": w, "label": a["label"]}

    def instruction(self, p):
        return f"Delete the alarm labeled \"{p['label']}\"."

    def expected(self, p, b):
        return {"alarms": {"removed": [_id(b["alarms"], label=p["label"])]}}

    def oracle(self, sb, p):
        yield open_app("Clock")
        yield from reach(sb, f'.row.alarm:has(.secondary:text("{p["label"]} ·"))', "long_press")
        yield tap(sb, '.menu button[data-value="delete"]')
        yield done()


@register_task
class AlarmRepeat(PhoneTask):
    """Make an alarm repeat on given weekdays (its `days` becomes exactly those)."""

    id = "mobile.alarm-repeat-v0"
    max_steps = 12

    def sample(self, rng):
        w = self.world(rng)
        a = _pick(rng, w["alarms"])
        a["days"] = ""
        days = [d for d in _DAYS if d in set(_pick(rng, _DAYS, int(rng.integers(2, 4))))]
        return {"records": w, "time": a["time"], "label": a["label"], "days": ",".join(days)}

    def instruction(self, p):
        return f"Make the {p['time']} alarm repeat every {', '.join(p['days'].split(','))} (only those days)."

    def expected(self, p, b):
        return {"alarms": {"changed": {_id(b["alarms"], time=p["time"]): {"days": p["days"]}}}}

    def oracle(self, sb, p):
        yield open_app("Clock")
        yield from reach(sb, f'{row("alarm", p["time"])} .main')
        for d in p["days"].split(","):
            yield tap(sb, f"#day-{d}")
        yield tap(sb, "#save")
        yield done()


@register_task
class AlarmTimeQuestion(PhoneTask):
    """Question: the time of the alarm with a given label."""

    id = "mobile.alarm-time-question-v0"
    max_steps = 6

    def sample(self, rng):
        w = self.world(rng)
        a = _pick(rng, w["alarms"])
        return {"records": w, "label": a["label"], "time": a["time"]}

    def instruction(self, p):
        return f"At what time is the alarm labeled \"{p['label']}\" set? Answer as HH:MM."

    def answers(self, p):
        h, m = p["time"].split(":")
        return [p["time"], f"{int(h)}:{m}"]

    def oracle(self, sb, p):
        yield open_app("Clock")
        yield done(p["time"])


# ---- Calendar -------------------------------------------------------------------------------------------
@register_task
class EventAdd(PhoneTask):
    """Create an event with a title, date, start and end time and a location (date and time pickers)."""

    id = "mobile.event-add-v0"
    max_steps = 28

    def sample(self, rng):
        w = self.world(rng)
        title = _pick(rng, [t for t in _EVENTS if t not in {e["title"] for e in w["events"]}])
        month, day = (3, int(rng.integers(15, 32))) if rng.random() < .5 else (4, int(rng.integers(1, 29)))
        start = int(rng.integers(16, 38)) * 30
        return {"records": w, "title": title, "date": f"2026-{month:02d}-{day:02d}", "start": _hm(start),
                "end": _hm(start + int(rng.integers(1, 4)) * 30), "location": _pick(rng, _PLACES[:-1])}

    def instruction(self, p):
        return (f"Add a calendar event \"{p['title']}\" on {p['date']} from {p['start']} to {p['end']} "
                f"at {p['location']}.")

    def expected(self, p, b):
        return {"events": {"added": [{k: p[k] for k in ("title", "date", "start", "end", "location")}]}}

    def oracle(self, sb, p):
        yield open_app("Calendar")
        yield tap(sb, "#add-event")
        yield tap(sb, "#event-title")
        yield typed(p["title"])
        yield tap(sb, "#event-date")
        yield from pick_date(sb, TODAY, p["date"])
        yield tap(sb, "#event-start")
        yield from pick_time(sb, p["start"])
        yield tap(sb, "#event-end")
        yield from pick_time(sb, p["end"])
        yield tap(sb, "#event-location")
        yield typed(p["location"])
        yield tap(sb, "#save")
        yield done()


@register_task
class EventDelete(PhoneTask):
    """Delete an event on a given day (select the day, long press the event, Delete, confirm)."""

    id = "mobile.event-delete-v0"
    max_steps = 10

    def sample(self, rng):
        w = self.world(rng)
        e = _pick(rng, w["events"])
        return {"records": w, "title": e["title"], "date": e["date"]}

    def instruction(self, p):
        return f"Delete the event \"{p['title']}\" on {p['date']} from the calendar."

    def expected(self, p, b):
        return {"events": {"removed": [_id(b["events"], title=p["title"])]}}

    def oracle(self, sb, p):
        yield open_app("Calendar")
        yield from calendar_day(sb, p["date"])
        yield from reach(sb, row("event", p["title"]), "long_press")
        yield tap(sb, '.menu button[data-value="delete"]')
        yield tap(sb, OK)
        yield done()


@register_task
class EventReschedule(PhoneTask):
    """Move an event to another date, keeping its times (only `date` changes)."""

    id = "mobile.event-reschedule-v0"
    max_steps = 14

    def sample(self, rng):
        w = self.world(rng)
        e = _pick(rng, w["events"])
        new = e["date"]
        while new == e["date"]:
            new = f"2026-03-{int(rng.integers(10, 32)):02d}"
        return {"records": w, "title": e["title"], "date": e["date"], "new_date": new}

    def instruction(self, p):
        return f"Move \"{p['title']}\" from {p['date']} to {p['new_date']}, same time."

    def expected(self, p, b):
        return {"events": {"changed": {_id(b["events"], title=p["title"]): {"date": p["new_date"]}}}}

    def oracle(self, sb, p):
        yield open_app("Calendar")
        yield from calendar_day(sb, p["date"])
        yield from reach(sb, row("event", p["title"]))
        yield tap(sb, "#event-edit")
        yield tap(sb, "#event-date")
        yield from pick_date(sb, p["date"], p["new_date"])
        yield tap(sb, "#save")
        yield done()


@register_task
class EventTimeQuestion(PhoneTask):
    """Question: when an event starts (its date is given)."""

    id = "mobile.event-time-question-v0"
    max_steps = 8

    def sample(self, rng):
        w = self.world(rng)
        e = _pick(rng, w["events"])
        return {"records": w, "title": e["title"], "date": e["date"], "start": e["start"]}

    def instruction(self, p):
        return f"At what time does \"{p['title']}\" start on {p['date']}? Answer as HH:MM."

    def answers(self, p):
        h, m = p["start"].split(":")
        return [p["start"], f"{int(h)}:{m}"]

    def oracle(self, sb, p):
        yield open_app("Calendar")
        yield from calendar_day(sb, p["date"])
        yield done(p["start"])


@register_task
class EventsCountQuestion(PhoneTask):
    """Question: how many events are on a given day (1-3, others on other days)."""

    id = "mobile.events-count-question-v0"
    max_steps = 8

    def sample(self, rng):
        w = self.world(rng)
        date = f"2026-03-{int(rng.integers(16, 31)):02d}"
        w["events"] = [e for e in w["events"] if e["date"] != date]
        for title in _pick(rng, [t for t in _EVENTS if t not in {e["title"] for e in w["events"]}], int(rng.integers(1, 4))):
            s = int(rng.integers(16, 38)) * 30
            w["events"].append({"title": title, "date": date, "start": _hm(s), "end": _hm(s + 60), "location": "", "notes": ""})
        return {"records": w, "date": date, "count": sum(e["date"] == date for e in w["events"]), "numeric": True}

    def instruction(self, p):
        return f"How many events are in the calendar on {p['date']}? Answer with a number."

    def answers(self, p):
        return [str(p["count"])]

    def oracle(self, sb, p):
        yield open_app("Calendar")
        yield from calendar_day(sb, p["date"])
        yield done(str(p["count"]))


# ---- across apps ------------------------------------------------------------------------------------------
@register_task
class MessageToEvent(PhoneTask):
    """Multi-app: a contact proposes a meeting by text (date, time, place); add it to the calendar."""

    id = "mobile.message-to-event-v0"
    max_steps = 32

    def sample(self, rng):
        w = self.world(rng)
        c = _pick(rng, w["contacts"])
        day, start = int(rng.integers(16, 31)), int(rng.integers(18, 36)) * 30
        place = _pick(rng, _PLACES[:-1])
        w["messages"].append({"contact": c["name"], "phone": c["phone"], "time": f"{TODAY} 08:{int(rng.integers(10, 59))}",
                              "body": f"Can we meet on March {day} at {_hm(start)} at {place}? An hour should do.",
                              "outgoing": False, "read": False})
        return {"records": w, "name": c["name"], "title": f"Meeting with {c['name'].split()[0]}",
                "date": f"2026-03-{day:02d}", "start": _hm(start), "end": _hm(start + 60), "location": place}

    def instruction(self, p):
        return (f"{p['name']} texted you to propose a meeting. Add it to the calendar as \"{p['title']}\", "
                "at the date, time and place from the message, one hour long.")

    def expected(self, p, b):
        return {"events": {"added": [{k: p[k] for k in ("title", "date", "start", "end", "location")}]}}

    def oracle(self, sb, p):
        yield open_app("Messages")
        yield from reach(sb, row("thread", p["name"]))
        yield {"action_type": "press_home"}
        yield from EventAdd.oracle(self, sb, p)


@register_task
class CallLastSender(PhoneTask):
    """Multi-app: call whoever sent the most recent message (read Messages, call from Phone or Contacts)."""

    id = "mobile.call-last-sender-v0"
    max_steps = 10

    def sample(self, rng):
        w = self.world(rng)
        c = _pick(rng, w["contacts"])
        w["messages"].append({"contact": c["name"], "phone": c["phone"], "time": f"{TODAY} 09:2{int(rng.integers(0, 9))}",
                              "body": "Please call me back when you see this.", "outgoing": False, "read": False})
        return {"records": w, "name": c["name"], "phone": c["phone"]}

    def instruction(self, p):
        return "Call the person who sent you the most recent text message."

    def expected(self, p, b):
        return {"calls": {"added": [{"phone": p["phone"], "direction": "out"}]}}

    def oracle(self, sb, p):
        yield open_app("Messages")
        yield tap(sb, "#thread-list .row.thread")
        yield tap(sb, "#thread-call")
        yield tap(sb, "#end-call")
        yield done()


@register_task
class SaveNumberFromMessage(PhoneTask):
    """Multi-app: a text from an unknown number says who it is; save that number as a new contact."""

    id = "mobile.save-number-from-message-v0"
    max_steps = 12

    def sample(self, rng):
        w = self.world(rng)
        taken = {c["name"].split()[0] for c in w["contacts"]}
        first = _pick(rng, [f for f in _FIRST if f not in taken])
        name, number = f"{first} {_pick(rng, _LAST)}", _phone_number(rng)
        w["messages"].append({"contact": "", "phone": number, "time": f"{TODAY} 09:0{int(rng.integers(0, 9))}",
                              "body": f"Hi, it's {name}, this is my new number. Save it!", "outgoing": False, "read": False})
        return {"records": w, "name": name, "phone": number}

    def instruction(self, p):
        return "Someone texted you from a new number and said who they are. Save the number as a contact under their full name."

    def expected(self, p, b):
        return {"contacts": {"added": [{"name": p["name"], "phone": p["phone"]}]}}

    def oracle(self, sb, p):
        yield open_app("Messages")
        yield from reach(sb, row("thread", p["phone"]))
        yield open_app("Contacts")
        yield tap(sb, "#add-contact")
        yield tap(sb, "#name")
        yield typed(p["name"])
        yield tap(sb, "#number")
        yield typed(p["phone"])
        yield tap(sb, "#save")
        yield done()


@register_task
class TextMissedCaller(PhoneTask):
    """Multi-app: text the person whose call you missed most recently (read the call log, send in Messages)."""

    id = "mobile.text-missed-caller-v0"
    max_steps = 12

    def sample(self, rng):
        w = self.world(rng)
        c = _pick(rng, w["contacts"])
        w["calls"].append({"name": c["name"], "phone": c["phone"], "direction": "missed", "duration_s": 0,
                           "time": f"{TODAY} 09:{int(rng.integers(0, 25)):02d}"})
        return {"records": w, "name": c["name"], "phone": c["phone"], "body": "Sorry I missed your call, I'll ring you back soon."}

    def instruction(self, p):
        return f"Text the person whose call you missed most recently: \"{p['body']}\""

    def expected(self, p, b):
        return {"messages": {"added": [{"phone": p["phone"], "body": p["body"], "outgoing": True}]}}

    def oracle(self, sb, p):
        yield open_app("Phone")
        yield from reach(sb, '#call-log .call:has-text("Today")', "long_press")
        yield tap(sb, '.menu button[data-value="message"]')
        yield tap(sb, "#compose")
        yield typed(p["body"])
        yield tap(sb, "#send")
        yield done()


@register_task
class EventLocationToContact(PhoneTask):
    """Multi-app: text a contact where an upcoming event takes place (read Calendar, send in Messages)."""

    id = "mobile.event-location-text-v0"
    max_steps = 16

    def sample(self, rng):
        w = self.world(rng)
        e = _pick(rng, w["events"])
        e["location"] = _pick(rng, _PLACES[:-1])
        c = _pick(rng, w["contacts"])
        return {"records": w, "title": e["title"], "date": e["date"], "location": e["location"],
                "name": c["name"], "phone": c["phone"]}

    def instruction(self, p):
        return (f"Text {p['name']} the location of \"{p['title']}\" on {p['date']}: the message is just the location "
                "as written in the calendar.")

    def expected(self, p, b):
        return {"messages": {"added": [{"phone": p["phone"], "body": p["location"], "outgoing": True}]}}

    def oracle(self, sb, p):
        yield open_app("Calendar")
        yield from calendar_day(sb, p["date"])
        yield open_app("Contacts")
        yield from reach(sb, row("contact", p["name"]))
        yield tap(sb, "#contact-message")
        yield tap(sb, "#compose")
        yield typed(p["location"])
        yield tap(sb, "#send")
        yield done()
