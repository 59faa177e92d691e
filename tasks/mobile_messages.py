"""Mobile tasks on the phone's Messages app (assets/phone/apps/messages.js): send, reply, delete a thread, read a code.

## Description
The agent texts a contact it has no conversation with yet (new chat, pick the contact, send), replies in an
existing conversation, deletes a whole conversation (long press, Delete, confirm), or reads a verification
code a service texted (a second service's code is there to mislead).

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the `messages` rows show exactly the asked change (opening a conversation marks it read: that does
not count) and every other collection is unchanged (`phone_changed`); the code question also needs the code
as `finished(content=...)`.

## Starting State
The home screen at 2026-03-14 09:30 with a phone drawn from the reset seed (`kit.phone_world.phone_world`):
four contacts have conversations, plus a delivery notice from an unknown number; reply and code tasks add
unread messages of today, which show as notifications.

## Episode End
`finished(...)`, or `max_steps` (8-12).

## Tasks
* `mobile.message-send-v1`: text a contact with no conversation yet (new chat, pick the contact, send).
* `mobile.message-reply-v1`: reply in a conversation whose newest message is the contact's (one new outgoing text).
* `mobile.message-delete-thread-v1`: delete a whole conversation (long press, Delete, confirm; all its messages).
* `mobile.message-code-question-v1`: the code a service texted, with another service's code there too.

## Version History
* v0: first version.
* v1: the phone's names (contacts' first names, alarm labels, event titles, notes, files, albums, expenses) and
  numbers come from split-disjoint pools, so no test instance is a training one; a question's answer is read by
  `reward.answers.match_answer` (one number, time or date; no list, no hedge); the verification codes are of the
  split's half of 100000-999999.
"""

from __future__ import annotations

from .base import register_task
from .kit import actions as act
from .kit.data import Pool, pick
from .kit.phone import OK, TODAY, PhoneTask, fill, long_press_menu, open_thread, reach, row, send_text, tap
from .kit.phone_world import WEEKDAYS, incoming_text, params_of, record_ids, split_int, text_sent

#: the services that text verification codes (split-disjoint halves)
_SERVICES = Pool(["PayFast", "NorthBank", "ShopHub", "CloudID", "RideNow", "MediPortal", "TicketBay", "GreenEnergy",
                  "FlatMate", "QuickVote"])


def _in_conversation(records: dict) -> list[dict]:
    """The contacts that have a conversation."""
    return [c for c in records["contacts"] if c["phone"] in {m["phone"] for m in records["messages"]}]


@register_task(id="mobile.message-send-v1", template='Send the text message "{body}" to {name}.')
class MessageSend(PhoneTask):
    """Send a text to a contact you have no conversation with yet (start a chat, pick the contact, send)."""

    def choose(self, rng, records):
        talked = {m["phone"] for m in records["messages"]}
        c = pick(rng, [c for c in records["contacts"] if c["phone"] not in talked])
        what = pick(rng, ["Dinner", "Coffee", "Tennis", "Lunch"])
        body = f"{what} at {int(rng.integers(5, 9))} pm on {pick(rng, WEEKDAYS)}?"
        return params_of(c, "name", "phone", body=body)

    def expected(self, p):
        return text_sent(p["phone"], p["body"])

    def solve(self, sb, p):
        yield act.open_app("Messages")
        yield tap(sb, "#new-message")
        yield from fill(sb, ("#to", p["name"].split()[0]))
        yield tap(sb, f'#to-list .row:has(.primary:text-is("{p["name"]}"))')
        yield from send_text(sb, p["body"])


@register_task(id="mobile.message-reply-v1", max_steps=10,
               template="Reply to {name}'s latest message with: {body}")
class MessageReply(PhoneTask):
    """Reply in an existing conversation (its newest message, from the contact, added for the task)."""

    def choose(self, rng, records):
        c = pick(rng, _in_conversation(records))
        records["messages"].append(incoming_text(c["name"], c["phone"], "Are we still on for later?",
                                                 f"{TODAY} 09:{int(rng.integers(0, 29)):02d}"))
        body = pick(rng, ["Yes, see you then!", "Sorry, I can't make it today.", "Running a bit late, 15 min."])
        return params_of(c, "name", "phone", body=body)

    def expected(self, p):
        return text_sent(p["phone"], p["body"])

    def solve(self, sb, p):
        yield from open_thread(sb, p["name"])
        yield from send_text(sb, p["body"])


@register_task(id="mobile.message-delete-thread-v1", max_steps=10,
               template="Delete your whole conversation with {name} in Messages.")
class MessageDeleteThread(PhoneTask):
    """Delete a whole conversation (long press on it, Delete, confirm): all its messages."""

    def choose(self, rng, records):
        c = pick(rng, _in_conversation(records))
        return params_of(c, "name", "phone")

    def expected(self, p):
        return {"messages": {"removed": record_ids(p, "messages", phone=p["phone"])}}

    def solve(self, sb, p):
        yield act.open_app("Messages")
        yield from long_press_menu(sb, row("thread", p["name"]), "delete")
        yield tap(sb, OK)


@register_task(id="mobile.message-code-question-v1", max_steps=8,
               template="What is the verification code {service} sent you by text? Answer with the code only.")
class MessageCodeQuestion(PhoneTask):
    """Question: the verification code a service texted (a distractor code from another service is there too)."""

    truth = "{code}"

    def choose(self, rng, records):
        services = pick(rng, _SERVICES, 2)
        codes = [f"{split_int(rng, 100000, 1000000)}" for _ in services]
        for i, (s, code) in enumerate(zip(services, codes)):
            records["messages"].append(incoming_text("", f"+1 555 0{i}{int(rng.integers(10, 99))} 0000",
                                                     f"{s}: your verification code is {code}. Do not share it.",
                                                     f"{TODAY} 09:{10 + 5 * i:02d}"))
        return {"service": services[0], "code": codes[0]}

    def solve(self, sb, p):
        yield act.open_app("Messages")
        yield from reach(sb, f'.row.thread:has(.secondary:text("{p["service"]}:"))')
