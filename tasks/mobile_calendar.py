"""Mobile tasks on the phone's Calendar app (assets/phone/apps/calendar.js): add, delete, move an event; when, how many.

## Description
The agent creates an event (title, the date picker, start and end in the time picker, a location), deletes
an event on a given day (select the day, long press, Delete, confirm), moves an event to another date keeping
its times, says when an event starts, or counts the events of a day.

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the `events` rows show exactly the asked change (a move changes only `date`) and every other
collection is unchanged (`phone_changed`); the questions also need the time ("HH:MM", or without the hour's
leading zero) or the count as `finished(content=...)`.

## Starting State
The home screen at 2026-03-14 09:30 with a phone drawn from the reset seed (`kit.phone_world.phone_world`),
whose Calendar has 5-7 events with distinct titles between March 10 and 28; new events may fall in April,
a month away in the pickers.

## Episode End
`finished(...)`, or `max_steps` (8-28: the add task goes through three pickers).

## Tasks
* `mobile.event-add-v1`: an event with a title, date, start, end and location (one new event with those fields).
* `mobile.event-delete-v1`: delete an event on a given day (select the day, long press, Delete, confirm).
* `mobile.event-reschedule-v1`: move an event to another date, same times (only its `date` changes).
* `mobile.event-time-question-v1`: when an event on a given date starts (the start time as the answer).
* `mobile.events-count-question-v1`: how many events a day has, 1-3 (the count as the answer).

## Version History
* v0: first version.
* v1: the phone's names (contacts' first names, alarm labels, event titles, notes, files, albums, expenses) and
  numbers come from split-disjoint pools, so no test instance is a training one; a question's answer is read by
  `reward.answers.match_answer` (one number, time or date; no list, no hedge); events-count asks about 1-13
  events, drawn uniformly, on a day of late March (train) or April (test).
"""

from __future__ import annotations

from .base import add_task, register_task
from .kit import actions as act
from .kit.data import pick, pool_of, split_of
from .kit.phone import (EVENT_KEYS, OK, AddRecord, AskRecord, ChangeRecord, CountQuestion, DeleteRecord, Param,
                        add_event, calendar_day, row)
from .kit.phone_world import EVENT_TITLES, PLACES, hm

#: an event in the selected day's list
EVENT = row("event", "{title}")


def _new_titles(rng, records: dict) -> list[str]:
    """The titles of the split's half that no event has."""
    return [t for t in pool_of(rng, EVENT_TITLES) if t not in {e["title"] for e in records["events"]}]


def _new_event(rng, records) -> dict:
    """A title no event has, a day from March 15 to April 28 (a month away in the pickers), times, a place."""
    title = pick(rng, _new_titles(rng, records))
    month, day = (3, int(rng.integers(15, 32))) if rng.random() < .5 else (4, int(rng.integers(1, 29)))
    start = int(rng.integers(16, 38)) * 30
    return {"title": title, "date": f"2026-{month:02d}-{day:02d}", "start": hm(start),
            "end": hm(start + int(rng.integers(1, 4)) * 30), "location": pick(rng, PLACES[:-1])}


@register_task(id="mobile.events-count-question-v1", max_steps=8,
               template="How many events are in the calendar on {date}? Answer with a number.")
class EventsCountQuestion(CountQuestion):
    """Question: how many events are on a given day: 1-13, drawn uniformly, added there (the day's seeded events
    moved out); a day of late March for a training seed, of April for a test seed."""

    def choose(self, rng, records):
        date = (f"2026-03-{int(rng.integers(16, 32)):02d}" if split_of(rng) == "train"
                else f"2026-04-{int(rng.integers(1, 31)):02d}")
        records["events"] = [e for e in records["events"] if e["date"] != date]
        titles = _new_titles(rng, records) + [f"Coffee with {c['name'].split()[0]}" for c in records["contacts"]]
        for title in pick(rng, titles, int(rng.integers(1, 14))):
            s = int(rng.integers(14, 40)) * 30
            records["events"].append({"title": title, "date": date, "start": hm(s), "end": hm(s + 60),
                                      "location": "", "notes": ""})
        return {"date": date, "count": sum(e["date"] == date for e in records["events"])}

    def solve(self, sb, p):
        yield act.open_app("Calendar")
        yield from calendar_day(sb, p["date"])


def _new_date(rng, event, records) -> dict:
    """Another day of March for the event."""
    new = event["date"]
    while new == event["date"]:
        new = f"2026-03-{int(rng.integers(10, 32)):02d}"
    return {"new_date": new}


for task in (
    AddRecord("mobile.event-add-v1", 28, 'Add a calendar event "{title}" on {date} from {start} to {end} at {location}.',
              "events", EVENT_KEYS, add_event, _new_event),
    DeleteRecord("mobile.event-delete-v1", 10, 'Delete the event "{title}" on {date} from the calendar.', "events",
                 ("title", "date"), "Calendar", ("day", "{date}"), ("hold", EVENT, "delete"), ("tap", OK),
                 match=("title",)),
    ChangeRecord("mobile.event-reschedule-v1", 14, 'Move "{title}" from {date} to {new_date}, same time.', "events",
                 ("title", "date"), "Calendar", ("day", "{date}"), ("reach", EVENT), ("tap", "#event-edit"),
                 ("tap", "#event-date"), ("pick_date", "{date}", "{new_date}"), ("tap", "#save"),
                 match=("title",), new=_new_date, to={"date": Param("new_date")}),
    AskRecord("mobile.event-time-question-v1", 8, 'At what time does "{title}" start on {date}? Answer as HH:MM.',
              "events", ("title", "date", "start"), "Calendar", ("day", "{date}"), truth="{start}", answer_form="time"),
):
    add_task(task)
