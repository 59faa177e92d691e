"""Mobile tasks on the phone's Contacts app (assets/phone/apps/contacts.js): add, edit, delete, favorite, look up.

## Description
The agent works in Contacts on a lived-in phone: it adds a contact (name, number, email), gives one a new
number, deletes one (long press, Delete, confirm), adds one to the favorites, or answers what a contact's
email address is. The other contacts are distractors that must stay as they were.

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the `contacts` rows show exactly the asked change and every other collection is unchanged
(`phone_changed`, reward/phone_tools.py); the question also needs the address as `finished(content=...)`.

## Starting State
The home screen at 2026-03-14 09:30, with the phone's records drawn from the reset seed
(`kit.phone_world.phone_world`: 7-9 contacts with unique first names, conversations, calls, alarms, events).

## Episode End
`finished(...)`, or `max_steps` (8-12: the oracle's steps and some slack).

## Tasks
* `mobile.contact-add-v1`: add a contact with a given name, number and email (one new row with those fields).
* `mobile.contact-edit-phone-v1`: give a contact a new number (edit, select all, type, save; only that field).
* `mobile.contact-delete-v1`: delete a contact (long press in the list, Delete, confirm; only it is gone).
* `mobile.contact-favorite-v1`: add a contact to the favorites (the star on its page; only `favorite` turns true).
* `mobile.contact-email-question-v1`: a contact's email address (the address as the answer; nothing changed).

## Version History
* v0: first version.
* v1: the phone's names (contacts' first names, alarm labels, event titles, notes, files, albums, expenses) and
  numbers come from split-disjoint pools, so no test instance is a training one; a question's answer is read by
  `reward.answers.match_answer` (one number, time or date; no list, no hedge).
"""

from __future__ import annotations

from .base import add_task
from .kit.phone import OK, SELECT_ALL, AddRecord, AskRecord, ChangeRecord, DeleteRecord, Param, add_contact, row
from .kit.phone_world import new_contact_name, phone_number

#: a contact in the Contacts list
CONTACT = row("contact", "{name}")


def _new_contact(rng, records) -> dict:
    """A name no contact has, a number and an email."""
    name = new_contact_name(rng, records["contacts"])
    return {"name": name, "phone": phone_number(rng), "email": f"{name.split()[0].lower()}.{len(name)}@mail.test"}


def _new_email(rng, contact, records) -> dict:
    """An address only this contact has (written into its record): the question's one answer."""
    contact["email"] = f"{contact['name'].split()[0].lower()}.{int(rng.integers(10, 99))}@example.org"
    return {"email": contact["email"]}


for task in (
    AddRecord("mobile.contact-add-v1", 12, "Add a new contact named {name} with the phone number {phone} and the email "
              "{email}.", "contacts", ("name", "phone", "email"), add_contact, _new_contact),
    ChangeRecord("mobile.contact-edit-phone-v1", 12, "{name} has a new phone number: {phone}. Update the contact.",
                 "contacts", ("name",), "Contacts", ("reach", CONTACT), ("tap", "#contact-edit"), ("tap", "#number"),
                 ("press", SELECT_ALL), ("type", "{phone}"), ("tap", "#save"),
                 new=lambda rng, contact, records: {"phone": phone_number(rng)}, to={"phone": Param("phone")}),
    DeleteRecord("mobile.contact-delete-v1", 10, "Delete the contact {name}.", "contacts", ("name",), "Contacts",
                 ("hold", f"#contact-list {CONTACT}", "delete"), ("tap", OK)),
    ChangeRecord("mobile.contact-favorite-v1", 8, "Add {name} to your favorite contacts.", "contacts", ("name",),
                 "Contacts", ("reach", CONTACT), ("tap", "#contact-fav"),
                 where=lambda c: not c["favorite"], to={"favorite": True}),
    AskRecord("mobile.contact-email-question-v1", 8, "What is {name}'s email address? Answer with the address.",
              "contacts", ("name",), "Contacts", ("reach", CONTACT), new=_new_email, truth="{email}"),
):
    add_task(task)
