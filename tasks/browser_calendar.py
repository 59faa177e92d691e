"""Browser tasks on the Calendar app (assets/web/calendar/, backend tasks/webapps/calendar.py): new events, series, rooms.

## Description
A month/week calendar with an event form (custom date picker or typed dates, time
dropdowns, room, guests, weekly repeat), backend validation (missing title, end before
start, malformed date, room capacity), conflict handling (a booked room is refused; an
overlap with one's own event needs "Save anyway") and a room availability grid. Each
episode's calendar comes from a data seed drawn from the reset seed: a "today" somewhere
in 2026 (2027 on test seeds), about 150 of my events over five months and about 600 room bookings of others.
The tasks here create events: one-off, weekly, from a broken form, and booked through
the Rooms grid. Changing and reading existing events: `browser_calendar_edits.py`.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when the task's checker (reward/calendar.py) passes on the backend's events; every
event the task did not ask to change must be as it was. Training seeds give calendars in
2026, test seeds in 2027 with other titles and places (the data seed's parity), so no test
instance is a training one.

## Starting State
The backend loaded fresh at setup; the page opens on the month of "today" (or on a
prefilled event form). The wall clock plays no part.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v0 (unchanged reward): test seeds give 2027 calendars and split-pool titles and places.
"""

from __future__ import annotations

import datetime as dt
from typing import Iterator

from hybridgym.reward.checkers import all_of, holds
from hybridgym.reward.calendar import calendar_event_created, calendar_series_created
from hybridgym.tasks.webapps import calendar as cal

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import pick
from .kit.web import CalendarTask, choose, click, click_until, fill, gone, present

_FIELDS = ("title", "date", "start", "end", "location")



def _times(sb, start: str, end: str) -> Iterator[dict]:
    """Oracle steps on the event form: the start and end times."""
    yield from choose(sb, "#start", start)
    yield from choose(sb, "#end", end)


def _save(sb) -> Iterator[dict]:
    """Oracle steps: save the event form, and wait until it has closed."""
    yield from click_until(sb, "#save", gone("#event-form"))


@register_task(id="browser.calendar-create-event-v0", max_steps=28)
class CalendarCreateEvent(CalendarTask):
    """Create an event one to two months ahead with a title, a date, a start and end time and a location.

    The date is picked with the form's date picker (month paging) or typed. The
    checker wants exactly one new event with those fields and no room, and every
    other event untouched.
    """

    def sample_for(self, rng, data):
        while True:
            date = cal.day(data, int(rng.integers(20, 60)))
            start = int(rng.integers(8, 17)) * 60 + int(rng.choice([0, 30]))
            end = start + int(rng.choice([30, 60, 90]))
            s, e = cal.hhmm(start), cal.hhmm(end)
            if dt.date.fromisoformat(date).weekday() < 5 and cal.is_free(cal.mine(data), date, s, e):
                break
        return {"today": data["today"], "title": pick(rng, cal.NEW_TITLES),
                "date": date, "start": s, "end": e, "location": pick(rng, cal.NEW_PLACES)}

    def instruction(self, p):
        return (f"In the Calendar, create an event \"{p['title']}\" on {cal.long_date(p['date'])} "
                f"from {p['start']} to {p['end']}, location \"{p['location']}\".")

    def check(self, state, p, outcome: Outcome, baseline):
        return calendar_event_created(baseline["events"], state["events"], {k: p[k] for k in _FIELDS} | {"room": None})

    def oracle(self, sb, p):
        yield click(sb, "#new-event")
        yield from fill(sb, "#title", p["title"])
        yield click(sb, "#date-btn")
        for _ in range(cal.months_between(p["today"], p["date"])):
            yield click(sb, "#picker-next")
        yield click(sb, f"#picker [data-date=\"{p['date']}\"]")
        yield from _times(sb, p["start"], p["end"])
        yield from fill(sb, "#location", p["location"])
        yield from _save(sb)
        yield act.finish()


@register_task(id="browser.calendar-weekly-series-v0", max_steps=34)
class CalendarWeeklySeries(CalendarTask):
    """Create a weekly event that repeats 3-6 times (the form's Repeat and occurrence dropdowns).

    Every occurrence's slot is free. The checker wants one new event on each of
    the weekly dates with the title, times and location, and nothing else changed.
    """

    def sample_for(self, rng, data):
        while True:
            first = cal.day(data, int(rng.integers(2, 21)))
            n = int(rng.integers(3, 7))
            start = int(rng.integers(16, 34)) * 30
            s, e = cal.hhmm(start), cal.hhmm(start + int(rng.choice([30, 45, 60])))
            dates = [(dt.date.fromisoformat(first) + dt.timedelta(weeks=k)).isoformat() for k in range(n)]
            if dt.date.fromisoformat(first).weekday() < 5 and all(cal.is_free(cal.mine(data), d, s, e) for d in dates):
                break
        return {"today": data["today"], "title": pick(rng, cal.NEW_TITLES), "start": s, "end": e,
                "location": pick(rng, cal.NEW_PLACES), "dates": dates}

    def instruction(self, p):
        d = dt.date.fromisoformat(p["dates"][0])
        return (f"Set up \"{p['title']}\" as a weekly event on {d:%A}s from {p['start']} to {p['end']} at "
                f"\"{p['location']}\", starting {cal.long_date(p['dates'][0])}, {len(p['dates'])} times in total.")

    def check(self, state, p, outcome: Outcome, baseline):
        return calendar_series_created(baseline["events"], state["events"],
                                       {k: p[k] for k in ("title", "start", "end", "location")} | {"room": None},
                                       p["dates"])

    def oracle(self, sb, p):
        yield click(sb, "#new-event")
        yield from fill(sb, "#title", p["title"])
        yield from fill(sb, "#date", p["dates"][0])
        yield from _times(sb, p["start"], p["end"])
        yield from fill(sb, "#location", p["location"])
        yield from choose(sb, "#repeat", "Every week")
        yield from choose(sb, "#occurrences", f"{len(p['dates'])} times")
        yield from _save(sb)
        yield act.finish()


@register_task(id="browser.calendar-fix-form-v0", max_steps=14)
class CalendarFixForm(CalendarTask):
    """Repair a half-filled event form that fails validation, then save it.

    The form opens with the title and location filled in, a date written as
    DD/MM/YYYY (the app wants YYYY-MM-DD) and an end time before the start time.
    The checker wants one new event with the instructed date and times.
    """

    def sample_for(self, rng, data):
        while True:
            date = cal.day(data, int(rng.integers(3, 26)))
            start = int(rng.integers(9, 17)) * 60
            s, e = cal.hhmm(start), cal.hhmm(start + int(rng.choice([30, 60])))
            if cal.is_free(cal.mine(data), date, s, e):
                break
        d = dt.date.fromisoformat(date)
        bad_end = cal.hhmm(start - 60)
        title, place = pick(rng, cal.NEW_TITLES), pick(rng, cal.NEW_PLACES)
        return {"today": data["today"], "title": title, "date": date, "start": s, "end": e,
                "location": place,
                "start_hash": f"#new?title={title}&date={d.day:02d}/{d.month:02d}/{d.year}&start={s}&end={bad_end}"
                              f"&location={place}"}

    def instruction(self, p):
        return (f"The new-event form for \"{p['title']}\" is filled in but does not save. Fix it so the event is "
                f"saved on {cal.long_date(p['date'])} from {p['start']} to {p['end']}; keep its title and location.")

    def check(self, state, p, outcome: Outcome, baseline):
        return calendar_event_created(baseline["events"], state["events"], {k: p[k] for k in _FIELDS})

    def oracle(self, sb, p):
        yield from click_until(sb, "#save", present("#form-error"))
        yield from fill(sb, "#date", p["date"])
        yield from choose(sb, "#end", p["end"])
        yield from _save(sb)
        yield act.finish()


class RoomBookingTask(CalendarTask):
    """Booking through the Rooms page: pick the day, click a free slot, fill the form."""

    def book(self, sb, p, room: str) -> Iterator[dict]:
        yield from click_until(sb, "#nav-rooms", present("#rooms-grid"))
        yield from fill(sb, "#room-date", p["date"])
        yield from click_until(sb, "#room-go", f"document.querySelector('#room-date').value === '{p['date']}'"
                                               f" && location.hash === '#rooms/{p['date']}'")
        yield from click_until(sb, f"#rooms-grid tr[data-room=\"{room}\"] td.free[data-start=\"{p['start']}\"]",
                               present("#event-form"))
        yield from fill(sb, "#title", p["title"])
        for name in p["guests"]:
            yield click(sb, f"input[name=att][value=\"{name}\"]")
        yield from _save(sb)
        yield act.finish()


@register_task(id="browser.calendar-book-room-v0", max_steps=22)
class CalendarBookRoom(RoomBookingTask):
    """Book a one-hour meeting with 2-5 guests in any room that seats everyone and is free then.

    At least one big-enough room is busy at that hour. The checker wants one new
    event with the title, date, times and guests, in a room with enough seats
    (the backend refuses double bookings), and nothing else changed.
    """

    def sample_for(self, rng, data):
        rooms = {r["id"]: r for r in data["rooms"]}
        while True:
            date = cal.day(data, int(rng.integers(1, 21)))
            start = int(rng.integers(18, 33)) * 30
            s, e = cal.hhmm(start), cal.hhmm(start + 60)
            k = int(rng.integers(2, 6))
            big = [r for r in rooms.values() if r["capacity"] >= k + 1]
            ok = [r["id"] for r in big if cal.is_free(data["events"], date, s, e, room=r["id"])]
            if (dt.date.fromisoformat(date).weekday() < 5 and ok and len(ok) < len(big)
                    and cal.is_free(cal.mine(data), date, s, e)):
                break
        return {"today": data["today"], "title": pick(rng, cal.NEW_TITLES), "date": date,
                "start": s, "end": e, "guests": cal.sample_guests(rng, k), "rooms_ok": sorted(ok)}

    def instruction(self, p):
        return (f"Book a meeting room for \"{p['title']}\" on {cal.long_date(p['date'])} from {p['start']} to "
                f"{p['end']} with {cal.guest_list(p['guests'])} as guests. Use any room that seats everyone "
                "(you included) and is free at that time.")

    def check(self, state, p, outcome: Outcome, baseline):
        res = calendar_event_created(baseline["events"], state["events"],
                                     {k: p[k] for k in ("title", "date", "start", "end")} | {"attendees": p["guests"]})
        old = {e["id"] for e in baseline["events"]}
        new = [e for e in state["events"] if e["id"] not in old]
        room = holds("a room that seats everyone and is free", len(new) == 1 and new[0]["room"] in p["rooms_ok"],
                     f"not judged: {len(new)} events were created" if len(new) != 1 else
                     f"the meeting is in room {new[0]['room']!r}; rooms that fit and are free: {p['rooms_ok']}")
        return all_of(res, room)

    def oracle(self, sb, p):
        yield from self.book(sb, p, p["rooms_ok"][0])


@register_task(id="browser.calendar-free-slot-v0", max_steps=22)
class CalendarFreeSlot(RoomBookingTask):
    """Find the earliest one-hour slot from 09:00 when a given room and I are both free, and book it.

    09:00 itself is never free. Slots start on the hour or half hour and end by
    18:00. The checker wants the booking at exactly that earliest slot, with the
    two guests, and nothing else changed.
    """

    def sample_for(self, rng, data):
        rooms = [r for r in data["rooms"] if r["capacity"] >= 3]
        while True:
            date = cal.day(data, int(rng.integers(1, 21)))
            room = pick(rng, rooms)
            if dt.date.fromisoformat(date).weekday() >= 5:
                continue

            def ok(t):
                s, e = cal.hhmm(t), cal.hhmm(t + 60)
                return cal.is_free(data["events"], date, s, e, room=room["id"]) and cal.is_free(cal.mine(data), date, s, e)
            slots = [t for t in range(9 * 60, 17 * 60 + 1, 30) if ok(t)]
            if slots and slots[0] > 9 * 60:
                break
        return {"today": data["today"], "title": pick(rng, cal.NEW_TITLES), "date": date,
                "room": room["id"], "room_name": room["name"], "start": cal.hhmm(slots[0]),
                "end": cal.hhmm(slots[0] + 60), "guests": cal.sample_guests(rng, 2)}

    def instruction(self, p):
        return (f"On {cal.long_date(p['date'])}, book room {p['room_name']} for a one-hour meeting \"{p['title']}\" "
                f"with {cal.guest_list(p['guests'])}. Take the earliest start from 09:00 on (on the hour or half "
                "hour) at which the room is free for the whole hour and you have no other event.")

    def check(self, state, p, outcome: Outcome, baseline):
        return calendar_event_created(baseline["events"], state["events"],
                                      {k: p[k] for k in ("title", "date", "start", "end", "room")}
                                      | {"attendees": p["guests"]})

    def oracle(self, sb, p):
        yield from self.book(sb, p, p["room"])
