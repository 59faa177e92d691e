"""Mobile tasks on the phone's dialer (Phone, assets/phone/apps/dialer.js): dial, call a contact, clean the log, count.

## Description
The agent calls a number on the keypad (holding 0 gives "+") and hangs up, calls a contact from Contacts,
deletes today's call with a contact from the call history (long press, Delete), or counts the missed calls
from a contact.

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the `calls` rows show exactly the asked change (a call made is a new outgoing row with that number)
and every other collection is unchanged (`phone_changed`); the count question also needs the number as
`finished(content=...)`.

## Starting State
The home screen at 2026-03-14 09:30 with a phone drawn from the reset seed (`kit.phone_world.phone_world`),
whose call log has 5-8 calls from March 8-13; the tasks add today's call or more missed calls.

## Episode End
`finished(...)`, or `max_steps` (6-20: the keypad task types a whole number).

## Tasks
* `mobile.call-number-v1`: call a number on the keypad, holding 0 for "+" (one new outgoing call to it).
* `mobile.call-contact-v1`: call a contact from Contacts (one new outgoing call to its number).
* `mobile.call-log-delete-v1`: delete today's call with a contact from the history (only that row is gone).
* `mobile.missed-calls-question-v1`: how many missed calls came from a contact (the number, in any form).

## Version History
* v0: first version.
* v1: the phone's names (contacts' first names, alarm labels, event titles, notes, files, albums, expenses) and
  numbers come from split-disjoint pools, so no test instance is a training one; a question's answer is read by
  `reward.answers.match_answer` (one number, time or date; no list, no hedge); missed-calls-question counts 1-13
  missed calls, drawn uniformly.
"""

from __future__ import annotations

from .base import register_task
from .kit import actions as act
from .kit.data import pick
from .kit.phone import TODAY, TODAY_CALL, CountQuestion, PhoneTask, long_press_menu, open_contact, point, tap
from .kit.phone_world import call_made, hm, logged_call, params_of, phone_number, removed


@register_task(id="mobile.call-number-v1", max_steps=20,
               template="Call {phone} using the phone's keypad (hold 0 for +), then hang up.")
class CallNumber(PhoneTask):
    """Call a number on the keypad, holding 0 for "+"."""

    def choose(self, rng, records):
        return {"phone": phone_number(rng)}

    def expected(self, p):
        return call_made(p["phone"])

    def solve(self, sb, p):
        yield act.open_app("Phone")
        yield tap(sb, "#tab-keypad")
        yield act.long_press(*point(sb, "#dial-0"))   # a held 0 is "+"
        for ch in p["phone"].replace(" ", "").lstrip("+"):
            yield tap(sb, f"#dial-{ch}")
        yield tap(sb, "#dial-call")
        yield tap(sb, "#end-call")


@register_task(id="mobile.call-contact-v1", max_steps=8, template="Call {name}.")
class CallContact(PhoneTask):
    """Call a contact from Contacts (its page's call button)."""

    def choose(self, rng, records):
        return params_of(pick(rng, records["contacts"]), "name", "phone")

    def expected(self, p):
        return call_made(p["phone"])

    def solve(self, sb, p):
        yield from open_contact(sb, p["name"])
        yield tap(sb, "#contact-call")
        yield tap(sb, "#end-call")


@register_task(id="mobile.call-log-delete-v1", max_steps=10,
               template="Delete today's call with {name} from the call history (keep the others).")
class CallLogDelete(PhoneTask):
    """Delete one entry of the call log (today's call with a contact, added for the task: long press, Delete)."""

    def choose(self, rng, records):
        c = pick(rng, records["contacts"])
        records["calls"].append(logged_call(c["name"], c["phone"], "in", f"{TODAY} 09:1{int(rng.integers(0, 9))}", 42))
        return params_of(c, "name", "phone")

    def expected(self, p):
        return removed(p, "calls", phone=p["phone"], duration_s=42, direction="in")

    def solve(self, sb, p):
        yield act.open_app("Phone")
        yield from long_press_menu(sb, TODAY_CALL, "delete")


@register_task(id="mobile.missed-calls-question-v1", max_steps=6,
               template="How many missed calls from {name} are in the call history? Answer with a number.")
class MissedCallsQuestion(CountQuestion):
    """Question: how many missed calls came from a contact: 1-13, drawn uniformly (the contact's seeded
    missed calls become answered ones, then that many missed calls are added)."""

    def choose(self, rng, records):
        c = pick(rng, records["contacts"])
        for k in records["calls"]:
            if k["phone"] == c["phone"] and k["direction"] == "missed":
                k.update(direction="in", duration_s=int(rng.integers(20, 900)))
        for _ in range(int(rng.integers(1, 14))):
            records["calls"].append(logged_call(
                c["name"], c["phone"], "missed",
                f"2026-03-{int(rng.integers(10, 14)):02d} {hm(int(rng.integers(480, 1320)))}"))
        n = sum(1 for k in records["calls"] if k["phone"] == c["phone"] and k["direction"] == "missed")
        return params_of(c, "name", count=n)

    def solve(self, sb, p):
        yield act.open_app("Phone")
