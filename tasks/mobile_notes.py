"""Mobile tasks on the phone's Notes app (assets/phone/apps/notes.js): write, append to, pin, delete a note; a look-up.

## Description
The agent writes a new note (title and text), adds a line at the end of a note's text, pins a note to the top
(long press, Pin), deletes a note (long press, Delete, confirm), or reads a door code written in a note that
holds two codes.

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the `notes` rows show exactly the asked change (an append keeps the old text before the addition,
`text_appended`; a note's edit time does not count) and every other collection is unchanged (`phone_changed`);
the look-up also needs the code as `finished(content=...)`.

## Starting State
The home screen at 2026-03-14 09:30 with all ten apps seeded from the reset seed (`kit.phone_world`): 5-6
notes with distinct titles, some pinned; the look-up adds the note "Door codes".

## Episode End
`finished(...)`, or `max_steps` (12; 20 to write a note).

## Tasks
* `mobile.notes-create-v1`: a new note with a given title and text (one new note with them).
* `mobile.notes-append-v1`: a line added at the end of a note's text (its old text, then the line).
* `mobile.notes-pin-v1`: pin a note (long press, Pin; only its `pinned` turns true).
* `mobile.notes-delete-v1`: delete a note (long press, Delete, confirm; only it is gone).
* `mobile.notes-lookup-v1`: the door code a note holds, of two (the code as the answer).

## Version History
* v0: first version.
* v1: the phone's names (contacts' first names, alarm labels, event titles, notes, files, albums, expenses) and
  numbers come from split-disjoint pools, so no test instance is a training one; a question's answer is read by
  `reward.answers.match_answer` (one number, time or date; no list, no hedge); notes-lookup's note holds three
  of eight codes, of the split's half of 1000-9999.
"""

from __future__ import annotations

from hybridgym.reward.checkers import all_of, holds
from hybridgym.reward.phone_tools import phone_changed, text_appended

from .base import add_task, register_task
from .kit import actions as act
from .kit.data import Pool, pick, pool_of
from .kit.phone import (NOTE_ITEM, OK, AddRecord, ChangeRecord, DeleteRecord, ToolAppTask, note_item, reach, tap,
                        write_note)
from .kit.phone_world import record_id, split_int

_NOTE_ADDITIONS = Pool(["buy more coffee", "call the landlord", "return the library books", "book a dentist visit",
                        "renew the parking permit", "back up the laptop", "water the basil", "pay the gas bill",
                        "order new contact lenses", "cancel the gym trial", "print the boarding pass",
                        "charge the camera"])
#: the codes a "Door codes" note may hold (`notes-lookup` writes three of them)
_CODE_NAMES = ["front door", "garage", "gym locker", "bike lock", "office alarm", "garden shed", "mailbox", "safe"]
_NEW_NOTES = Pool([("Weekend trip", "train at 8:15 from platform 4"), ("Birthday party", "bring balloons and the cake"),
                   ("Project ideas", "a bird feeder camera and a herb garden"),
                   ("Wifi guest", "network Hearth, ask for the key"), ("Plant care", "water the fern every Tuesday"),
                   ("Bike repair", "new chain and brake pads"), ("Moving day", "van at 9, keys to the agent by 5"),
                   ("Gift for Leo", "a kite or the space lego set"), ("Lunch ideas", "lentil soup, wraps, poke bowl"),
                   ("Camping gear", "tent pegs, head torch, gas stove"), ("Piano pieces", "Gymnopedie, Clair de lune"),
                   ("Thank you cards", "neighbours, the vet, Aunt Rosa")])


def _new_note(rng, records) -> dict:
    """A title no note has, and its text."""
    taken = {x["title"] for x in records["notes"]}
    title, body = pick(rng, [n for n in pool_of(rng, _NEW_NOTES) if n[0] not in taken])
    return {"title": title, "body": body}


@register_task(id="mobile.notes-append-v1",
               template='In the note "{title}", add "{addition}" at the end of its text.')
class NoteAppend(ToolAppTask):
    """Add a line at the end of an existing note (`text_appended`: the old text, then the line)."""

    def choose(self, rng, records):
        return {"title": pick(rng, records["notes"])["title"], "addition": pick(rng, _NOTE_ADDITIONS)}

    def check(self, state, params, outcome, baseline):
        rid = record_id(params, "notes", title=params["title"])
        old = next(r["body"] for r in baseline["notes"] if r["id"] == rid)
        new = next((r["body"] for r in state["notes"] if r["id"] == rid), None)
        if new is None:
            return holds("the note is still there", False, f"the note {params['title']!r} was deleted", guard=True)
        return all_of(text_appended(old, new, params["addition"]),
                      phone_changed(baseline, state, {"notes": {"changed": {rid: {"body": new}}}}))

    def solve(self, sb, p):
        yield act.open_app("notes")
        yield from reach(sb, note_item(p, p["title"]))
        box = sb.browser.page.locator("#note-body").bounding_box()   # below the text: the caret goes to its end
        yield act.tap(*sb.browser.to_screen(box["x"] + box["width"] / 2, box["y"] + box["height"] - 30))
        yield act.typed(" " + p["addition"])
        yield tap(sb, "#note-save")


@register_task(id="mobile.notes-lookup-v1",
               template="What is the {which} code written in my notes? Answer with the code only.")
class NoteLookup(ToolAppTask):
    """Read a code written in a note: the note "Door codes", added for the task, holds three codes (four digits,
    1000-5499 for a training seed, 5500-9999 for a test one)."""

    truth = "{code}"

    def choose(self, rng, records):
        codes = {name: str(split_int(rng, 1000, 10000)) for name in pick(rng, _CODE_NAMES, 3)}
        records["notes"].append({"title": "Door codes",
                                 "body": "\n".join(f"{n[0].upper()}{n[1:]}: {c}" for n, c in codes.items()),
                                 "pinned": False, "updated": "2026-02-11 19:05"})
        which = pick(rng, list(codes))
        return {"which": which, "code": codes[which]}

    def solve(self, sb, p):
        yield act.open_app("notes")
        yield from reach(sb, note_item(p, "Door codes"))


for task in (
    AddRecord("mobile.notes-create-v1", 20, 'Create a note titled "{title}" with the text "{body}".', "notes",
              ("title", "body"), write_note, _new_note, fixed={"pinned": False}),
    ChangeRecord("mobile.notes-pin-v1", 12, 'Pin the note "{title}" to the top of Notes.', "notes", ("title",), "notes",
                 ("hold", NOTE_ITEM, "pin"), where=lambda n: not n["pinned"], to={"pinned": True}),
    DeleteRecord("mobile.notes-delete-v1", 12, 'Delete the note "{title}".', "notes", ("title",), "notes",
                 ("hold", NOTE_ITEM, "delete"), ("tap", OK)),
):
    add_task(task)
