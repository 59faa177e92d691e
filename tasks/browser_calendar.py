"""Browser tasks on the Calendar app (assets/web/calendar/, backend tasks/webapps/calendar.py): dates, forms, conflicts, rooms.

## Description
A month/week calendar with an event form (custom date picker or typed dates, time
dropdowns, room, guests, weekly repeat), backend validation (missing title, end before
start, malformed date, room capacity), conflict handling (a booked room is refused; an
overlap with one's own event needs "Save anyway") and a room availability grid. Each
episode's calendar comes from a data seed drawn from the reset seed: a "today" somewhere
in 2026, about 150 of my events over five months and about 600 room bookings of others.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when the task's checker (reward/calendar.py) passes on the backend's events and, for
questions, on the `finished(content=...)` answer; every event the task did not ask to
change must be as it was.

## Starting State
The backend installed fresh at setup; the page opens on the month of "today" (or on a
prefilled event form). The wall clock plays no part.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.

The small oracle helpers at the top (click an element, fill a field, pick from a
<select>, wait for the app's API calls) are shared with the Admin console tasks.
"""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.calendar import (calendar_event_changed, calendar_event_created, calendar_events_deleted,
                                       calendar_others_unchanged, calendar_series_created)
from hybridgym.reward.checkers import all_of, answer_matches
from hybridgym.tasks.webapps import calendar as cal

from .base import Task, register_task

# -- oracle helpers (shared with the other web-app task modules) ---------------------


def wait_idle(sb, js: str | None = None, page=None) -> None:
    """Wait until the app has no API request open (and `js`, if given, is true).

    `page`: a tab other than the one the env opened (default `sb.browser.page`).
    """
    cond = "window.__pending === 0" + (f" && ({js})" if js else "")
    (page or sb.browser.page).wait_for_function(f"() => {cond}", timeout=8000)


def click(sb, selector: str, page=None) -> dict:
    """A click on the centre of the first visible element matching `selector` (in `page`, default the env's tab)."""
    page = page or sb.browser.page
    wait_idle(sb, page=page)
    el = page.wait_for_selector(selector, state="visible", timeout=8000)
    box = el.bounding_box()
    inner = page.evaluate("[innerWidth, innerHeight]")
    if box["y"] < 0 or box["y"] + box["height"] / 2 > inner[1] or box["x"] + box["width"] / 2 > inner[0]:
        raise RuntimeError(f"oracle: {selector!r} is outside the visible page {box}; it would need a scroll action")
    x, y = sb.browser.to_screen(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return {"action_type": "click", "x": x, "y": y}


def fill(sb, selector: str, text: str) -> Iterator[dict]:
    """Click a text field, select what is in it and type over it."""
    yield click(sb, selector)
    yield {"action_type": "hotkey", "keys": ["ctrl", "a"]}
    yield {"action_type": "type", "text": text}


def choose(sb, selector: str, label: str, page=None) -> Iterator[dict]:
    """Open a <select>, type the start of an option's label, press Enter."""
    yield click(sb, selector, page)
    yield {"action_type": "type", "text": label}
    yield {"action_type": "hotkey", "keys": ["enter"]}


_LOADS = itertools.count(1)


def open_app(sb, path: str, hash_: str, ready: str) -> None:
    """Load an app page afresh and wait for `ready` (a selector) and its API calls.

    A fresh query string each time: a URL that differs from the current one only
    in its #hash would not reload the page, and the old episode's page would stay.
    """
    sb.browser.load(sb.server.url(path, visit=next(_LOADS)) + hash_)
    sb.browser.page.wait_for_selector(ready, timeout=8000)
    wait_idle(sb)


def long_date(iso: str) -> str:
    d = dt.date.fromisoformat(iso)
    return f"{d:%A}, {d:%B} {d.day}, {d.year}"


# -- calendar helpers ---------------------------------------------------------------

_NEW_TITLES = ["Interview: backend engineer", "Offsite planning", "Tax advisor", "Partner kickoff",
               "Data review", "Parent-teacher meeting", "Car service", "Pitch rehearsal", "Office hours",
               "Team lunch", "Contract signing", "Mentoring session", "Launch go/no-go", "Wellness check"]
_NEW_PLACES = ["Room 4.12", "Café Linden", "Zoom", "Client HQ, Harbour St", "Rooftop terrace", "Lab 2",
               "Town hall", "Teams call"]


def _mine(data: dict) -> list[dict]:
    return [e for e in data["events"] if e["owner"] == cal.ME]


def _day(data: dict, offset: int) -> str:
    return (dt.date.fromisoformat(data["today"]) + dt.timedelta(days=offset)).isoformat()


def _free(events: list[dict], date: str, start: str, end: str, room: str | None = None,
          ignore: tuple[int, ...] = ()) -> bool:
    """No event of `events` (mine, or of `room` if given) overlaps the slot."""
    slot = {"date": date, "start": start, "end": end}
    return not any(cal.overlaps(e, slot) for e in events if e["id"] not in ignore
                   and (e["room"] == room if room else e["owner"] == cal.ME))


def _months_between(a: str, b: str) -> int:
    return (int(b[:4]) - int(a[:4])) * 12 + int(b[5:7]) - int(a[5:7])


def _weeks_between(a: str, b: str) -> int:
    da, db = dt.date.fromisoformat(a), dt.date.fromisoformat(b)
    return ((db - dt.timedelta(days=db.weekday())) - (da - dt.timedelta(days=da.weekday()))).days // 7


def _visible_in_month(data: dict, ev: dict) -> bool:
    """The event shows as a chip in the month grid (its day has at most 3 events)."""
    return sum(e["date"] == ev["date"] for e in _mine(data)) <= 3


def _sample_data(rng: np.random.Generator) -> tuple[int, dict]:
    seed = int(rng.integers(0, 2**31 - 1))
    return seed, cal.generate(seed)


def _pick(rng: np.random.Generator, items: list):
    return items[int(rng.integers(len(items)))]


class CalendarTask(Task):
    """Shared parts: seed the backend, open the month of "today", read the events."""

    suite = "browser"

    def setup(self, sb, params: dict) -> None:
        data = cal.generate(params["data_seed"])
        cal.install(sb, data)
        hash_ = params.get("start_hash") or f"#month/{data['today'][:7]}"
        open_app(sb, "/calendar/index.html", hash_, "#month-grid, #event-form")

    def read_state(self, sb, params: dict) -> dict:
        return {"events": cal.backend_of(sb).state()["events"]}

    # oracle pieces
    def goto_month(self, sb, today: str, date: str) -> Iterator[dict]:
        y, m = int(today[:4]), int(today[5:7])
        for _ in range(_months_between(today, date)):
            yield click(sb, "#next")
            y, m = (y + 1, 1) if m == 12 else (y, m + 1)
            # the 15th of a month is in that month's grid only
            wait_idle(sb, f"document.querySelector('.cell[data-date=\"{y}-{m:02d}-15\"]') !== null")

    def goto_week(self, sb, today: str, date: str) -> Iterator[dict]:
        yield click(sb, "#view-week")
        monday = dt.date.fromisoformat(today) - dt.timedelta(days=dt.date.fromisoformat(today).weekday())
        wait_idle(sb, f"document.querySelector('.col[data-date=\"{monday}\"]') !== null")
        for _ in range(_weeks_between(today, date)):
            yield click(sb, "#next")
            monday += dt.timedelta(weeks=1)
            wait_idle(sb, f"document.querySelector('.col[data-date=\"{monday}\"]') !== null")

    def open_event(self, sb, event_id: int) -> Iterator[dict]:
        yield click(sb, f"[data-id=\"{event_id}\"]")
        wait_idle(sb, "document.querySelector('#detail-title') !== null")

    def edit_event(self, sb, today: str, ev: dict) -> Iterator[dict]:
        yield from self.goto_month(sb, today, ev["date"])
        yield from self.open_event(sb, ev["id"])
        yield click(sb, "#detail-edit")

    def set_times(self, sb, start: str, end: str) -> Iterator[dict]:
        yield from choose(sb, "#start", start)
        yield from choose(sb, "#end", end)

    def save(self, sb) -> Iterator[dict]:
        yield click(sb, "#save")
        wait_idle(sb, "document.querySelector('#event-form') === null")


# -- tasks ---------------------------------------------------------------------------


@register_task
class CalendarCreateEvent(CalendarTask):
    """Create an event one to two months ahead with a title, a date, a start and end time and a location.

    The date is picked with the form's date picker (month paging) or typed. The
    checker wants exactly one new event with those fields and no room, and every
    other event untouched.
    """

    id = "browser.calendar-create-event-v0"
    max_steps = 28

    def sample(self, rng):
        seed, data = _sample_data(rng)
        while True:
            date = _day(data, int(rng.integers(20, 60)))
            start = int(rng.integers(8, 17)) * 60 + int(rng.choice([0, 30]))
            end = start + int(rng.choice([30, 60, 90]))
            s, e = cal.hhmm(start), cal.hhmm(end)
            if dt.date.fromisoformat(date).weekday() < 5 and _free(_mine(data), date, s, e):
                break
        return {"data_seed": seed, "today": data["today"], "title": _pick(rng, _NEW_TITLES),
                "date": date, "start": s, "end": e, "location": _pick(rng, _NEW_PLACES)}

    def instruction(self, p):
        return (f"In the Calendar, create an event \"{p['title']}\" on {long_date(p['date'])} "
                f"from {p['start']} to {p['end']}, location \"{p['location']}\".")

    def check(self, state, p, answer, baseline):
        return calendar_event_created(baseline["events"], state["events"],
                                      {k: p[k] for k in ("title", "date", "start", "end", "location")} | {"room": None})

    def oracle(self, sb, p):
        yield click(sb, "#new-event")
        yield from fill(sb, "#title", p["title"])
        yield click(sb, "#date-btn")
        for _ in range(_months_between(p["today"], p["date"])):
            yield click(sb, "#picker-next")
        yield click(sb, f"#picker [data-date=\"{p['date']}\"]")
        yield from self.set_times(sb, p["start"], p["end"])
        yield from fill(sb, "#location", p["location"])
        yield from self.save(sb)
        yield {"action_type": "finished", "content": ""}


@register_task
class CalendarWeeklySeries(CalendarTask):
    """Create a weekly event that repeats 3-6 times (the form's Repeat and occurrence dropdowns).

    Every occurrence's slot is free. The checker wants one new event on each of
    the weekly dates with the title, times and location, and nothing else changed.
    """

    id = "browser.calendar-weekly-series-v0"
    max_steps = 34

    def sample(self, rng):
        seed, data = _sample_data(rng)
        while True:
            first = _day(data, int(rng.integers(2, 21)))
            n = int(rng.integers(3, 7))
            start = int(rng.integers(16, 34)) * 30
            s, e = cal.hhmm(start), cal.hhmm(start + int(rng.choice([30, 45, 60])))
            dates = [(dt.date.fromisoformat(first) + dt.timedelta(weeks=k)).isoformat() for k in range(n)]
            if dt.date.fromisoformat(first).weekday() < 5 and all(_free(_mine(data), d, s, e) for d in dates):
                break
        return {"data_seed": seed, "today": data["today"], "title": _pick(rng, _NEW_TITLES), "start": s, "end": e,
                "location": _pick(rng, _NEW_PLACES), "dates": dates}

    def instruction(self, p):
        d = dt.date.fromisoformat(p["dates"][0])
        return (f"Set up \"{p['title']}\" as a weekly event on {d:%A}s from {p['start']} to {p['end']} at "
                f"\"{p['location']}\", starting {long_date(p['dates'][0])}, {len(p['dates'])} times in total.")

    def check(self, state, p, answer, baseline):
        return calendar_series_created(baseline["events"], state["events"],
                                       {k: p[k] for k in ("title", "start", "end", "location")} | {"room": None},
                                       p["dates"])

    def oracle(self, sb, p):
        yield click(sb, "#new-event")
        yield from fill(sb, "#title", p["title"])
        yield from fill(sb, "#date", p["dates"][0])
        yield from self.set_times(sb, p["start"], p["end"])
        yield from fill(sb, "#location", p["location"])
        yield from choose(sb, "#repeat", "Every week")
        yield from choose(sb, "#occurrences", f"{len(p['dates'])} times")
        yield from self.save(sb)
        yield {"action_type": "finished", "content": ""}


@register_task
class CalendarFixForm(CalendarTask):
    """Repair a half-filled event form that fails validation, then save it.

    The form opens with the title and location filled in, a date written as
    DD/MM/YYYY (the app wants YYYY-MM-DD) and an end time before the start time.
    The checker wants one new event with the instructed date and times.
    """

    id = "browser.calendar-fix-form-v0"
    max_steps = 14

    def sample(self, rng):
        seed, data = _sample_data(rng)
        while True:
            date = _day(data, int(rng.integers(3, 26)))
            start = int(rng.integers(9, 17)) * 60
            s, e = cal.hhmm(start), cal.hhmm(start + int(rng.choice([30, 60])))
            if _free(_mine(data), date, s, e):
                break
        d = dt.date.fromisoformat(date)
        bad_end = cal.hhmm(start - 60)
        title, place = _pick(rng, _NEW_TITLES), _pick(rng, _NEW_PLACES)
        return {"data_seed": seed, "today": data["today"], "title": title, "date": date, "start": s, "end": e,
                "location": place,
                "start_hash": f"#new?title={title}&date={d.day:02d}/{d.month:02d}/{d.year}&start={s}&end={bad_end}"
                              f"&location={place}"}

    def instruction(self, p):
        return (f"The new-event form for \"{p['title']}\" is filled in but does not save. Fix it so the event is "
                f"saved on {long_date(p['date'])} from {p['start']} to {p['end']}; keep its title and location.")

    def check(self, state, p, answer, baseline):
        return calendar_event_created(baseline["events"], state["events"],
                                      {k: p[k] for k in ("title", "date", "start", "end", "location")})

    def oracle(self, sb, p):
        yield click(sb, "#save")
        wait_idle(sb, "document.querySelector('#form-error') !== null")
        yield from fill(sb, "#date", p["date"])
        yield from choose(sb, "#end", p["end"])
        yield from self.save(sb)
        yield {"action_type": "finished", "content": ""}


@register_task
class CalendarReschedule(CalendarTask):
    """Move an existing event to another date and start time, keeping its duration.

    The checker wants the event's date, start and end changed and all its other
    fields, and all other events, as they were.
    """

    id = "browser.calendar-reschedule-v0"
    max_steps = 20

    def sample(self, rng):
        seed, data = _sample_data(rng)
        lo, hi = _day(data, 1), _day(data, 40)
        pool = [e for e in _mine(data) if lo <= e["date"] <= hi and not e["room"] and _visible_in_month(data, e)]
        while True:
            ev = _pick(rng, pool)
            dur = cal.minutes(ev["end"]) - cal.minutes(ev["start"])
            date = _day(data, int(rng.integers(5, 45)))
            start = int(rng.integers(16, 34)) * 30
            s, e = cal.hhmm(start), cal.hhmm(start + dur)
            if date != ev["date"] and _free(_mine(data), date, s, e, ignore=(ev["id"],)):
                break
        return {"data_seed": seed, "today": data["today"], "event": ev, "date": date, "start": s, "end": e}

    def instruction(self, p):
        ev = p["event"]
        return (f"In the Calendar, move \"{ev['title']}\" (now on {long_date(ev['date'])} at {ev['start']}) to "
                f"{long_date(p['date'])} at {p['start']}, keeping its length (it will end at {p['end']}).")

    def check(self, state, p, answer, baseline):
        return calendar_event_changed(baseline["events"], state["events"], p["event"]["id"],
                                      {"date": p["date"], "start": p["start"], "end": p["end"]})

    def oracle(self, sb, p):
        ev = p["event"]
        yield from self.edit_event(sb, p["today"], ev)
        yield from fill(sb, "#date", p["date"])
        yield from self.set_times(sb, p["start"], p["end"])
        yield from self.save(sb)
        yield {"action_type": "finished", "content": ""}


@register_task
class CalendarDeleteEvent(CalendarTask):
    """Delete one event whose title also appears on other dates (those must stay).

    The delete goes through a confirmation dialog. The checker wants exactly that
    event gone and every other event unchanged.
    """

    id = "browser.calendar-delete-event-v0"
    max_steps = 12

    def sample(self, rng):
        seed, data = _sample_data(rng)
        lo, hi = _day(data, 1), _day(data, 60)
        mine = _mine(data)
        pool = [e for e in mine if lo <= e["date"] <= hi and _visible_in_month(data, e)
                and sum(o["title"] == e["title"] for o in mine) >= 2
                and sum(o["title"] == e["title"] and o["date"] == e["date"] for o in mine) == 1]
        return {"data_seed": seed, "today": data["today"], "event": _pick(rng, pool)}

    def instruction(self, p):
        ev = p["event"]
        return f"Delete the event \"{ev['title']}\" on {long_date(ev['date'])} from the Calendar (only that one)."

    def check(self, state, p, answer, baseline):
        return calendar_events_deleted(baseline["events"], state["events"], [p["event"]["id"]])

    def oracle(self, sb, p):
        yield from self.goto_month(sb, p["today"], p["event"]["date"])
        yield from self.open_event(sb, p["event"]["id"])
        yield click(sb, "#detail-delete")
        yield click(sb, "#confirm-delete")
        wait_idle(sb, "document.querySelector('#month-grid') !== null")
        yield {"action_type": "finished", "content": ""}


@register_task
class CalendarWhereAnswer(CalendarTask):
    """Answer where an event one to three months ahead takes place (finished(content=<location>)).

    The checker compares the answer with the event's location and confirms that no
    event changed.
    """

    id = "browser.calendar-where-answer-v0"
    max_steps = 10

    def sample(self, rng):
        seed, data = _sample_data(rng)
        lo, hi = _day(data, 25), _day(data, 85)
        mine = _mine(data)
        pool = [e for e in mine if lo <= e["date"] <= hi and _visible_in_month(data, e)
                and sum(o["title"] == e["title"] and o["date"] == e["date"] for o in mine) == 1]
        return {"data_seed": seed, "today": data["today"], "event": _pick(rng, pool)}

    def instruction(self, p):
        ev = p["event"]
        return (f"Where does \"{ev['title']}\" on {long_date(ev['date'])} take place? "
                "Answer with the location only.")

    def check(self, state, p, answer, baseline):
        return all_of(answer_matches(answer, p["event"]["location"]),
                      calendar_others_unchanged(baseline["events"], state["events"]))

    def oracle(self, sb, p):
        yield from self.goto_month(sb, p["today"], p["event"]["date"])
        yield from self.open_event(sb, p["event"]["id"])
        where = sb.browser.page.inner_text("#detail-where").replace("(room booked)", "").strip()
        yield {"action_type": "finished", "content": where}


@register_task
class CalendarCountDay(CalendarTask):
    """Count the events on a day two to six weeks ahead (finished(content=<number>)), e.g. in the week view.

    Days with more than three events show "+N more" in the month grid, so the
    week view is the reliable place to count.
    """

    id = "browser.calendar-count-day-v0"
    max_steps = 14

    def sample(self, rng):
        seed, data = _sample_data(rng)
        while True:
            date = _day(data, int(rng.integers(10, 42)))
            n = sum(e["date"] == date for e in _mine(data))
            if dt.date.fromisoformat(date).weekday() < 5 and n >= 1:
                break
        return {"data_seed": seed, "today": data["today"], "date": date, "count": n}

    def instruction(self, p):
        return f"How many events are in your calendar on {long_date(p['date'])}? Answer with a number."

    def check(self, state, p, answer, baseline):
        return all_of(answer_matches(answer, str(p["count"]), numeric=True),
                      calendar_others_unchanged(baseline["events"], state["events"]))

    def oracle(self, sb, p):
        yield from self.goto_week(sb, p["today"], p["date"])
        n = sb.browser.page.locator(f".col[data-date=\"{p['date']}\"] .block").count()
        yield {"action_type": "finished", "content": str(n)}


def _guests(rng, k: int, exclude=()) -> list[str]:
    return sorted(str(x) for x in rng.choice([p for p in cal.PEOPLE if p not in exclude], size=k, replace=False))


def _guest_list(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


class RoomBookingTask(CalendarTask):
    """Booking through the Rooms page: pick the day, click a free slot, fill the form."""

    def book(self, sb, p, room: str) -> Iterator[dict]:
        yield click(sb, "#nav-rooms")
        wait_idle(sb, "document.querySelector('#rooms-grid') !== null")
        yield from fill(sb, "#room-date", p["date"])
        yield click(sb, "#room-go")
        wait_idle(sb, f"document.querySelector('#room-date').value === '{p['date']}'"
                      f" && location.hash === '#rooms/{p['date']}'")
        yield click(sb, f"#rooms-grid tr[data-room=\"{room}\"] td.free[data-start=\"{p['start']}\"]")
        wait_idle(sb, "document.querySelector('#event-form') !== null")
        yield from fill(sb, "#title", p["title"])
        for name in p["guests"]:
            yield click(sb, f"input[name=att][value=\"{name}\"]")
        yield from self.save(sb)
        yield {"action_type": "finished", "content": ""}


@register_task
class CalendarBookRoom(RoomBookingTask):
    """Book a one-hour meeting with 2-5 guests in any room that seats everyone and is free then.

    At least one big-enough room is busy at that hour. The checker wants one new
    event with the title, date, times and guests, in a room with enough seats
    (the backend refuses double bookings), and nothing else changed.
    """

    id = "browser.calendar-book-room-v0"
    max_steps = 22

    def sample(self, rng):
        seed, data = _sample_data(rng)
        rooms = {r["id"]: r for r in data["rooms"]}
        while True:
            date = _day(data, int(rng.integers(1, 21)))
            start = int(rng.integers(18, 33)) * 30
            s, e = cal.hhmm(start), cal.hhmm(start + 60)
            k = int(rng.integers(2, 6))
            big = [r for r in rooms.values() if r["capacity"] >= k + 1]
            ok = [r["id"] for r in big if _free(data["events"], date, s, e, room=r["id"])]
            if (dt.date.fromisoformat(date).weekday() < 5 and ok and len(ok) < len(big)
                    and _free(_mine(data), date, s, e)):
                break
        return {"data_seed": seed, "today": data["today"], "title": _pick(rng, _NEW_TITLES), "date": date,
                "start": s, "end": e, "guests": _guests(rng, k), "rooms_ok": sorted(ok)}

    def instruction(self, p):
        return (f"Book a meeting room for \"{p['title']}\" on {long_date(p['date'])} from {p['start']} to "
                f"{p['end']} with {_guest_list(p['guests'])} as guests. Use any room that seats everyone "
                "(you included) and is free at that time.")

    def check(self, state, p, answer, baseline):
        res = calendar_event_created(baseline["events"], state["events"],
                                     {k: p[k] for k in ("title", "date", "start", "end")} | {"attendees": p["guests"]})
        if not res.success:
            return res
        old = {e["id"] for e in baseline["events"]}
        new = next(e for e in state["events"] if e["id"] not in old)
        if new["room"] not in p["rooms_ok"]:
            return CheckResult.failed(f"the meeting is in room {new['room']!r}; rooms that fit and are free: {p['rooms_ok']}")
        return res

    def oracle(self, sb, p):
        yield from self.book(sb, p, p["rooms_ok"][0])


@register_task
class CalendarFreeSlot(RoomBookingTask):
    """Find the earliest one-hour slot from 09:00 when a given room and I are both free, and book it.

    09:00 itself is never free. Slots start on the hour or half hour and end by
    18:00. The checker wants the booking at exactly that earliest slot, with the
    two guests, and nothing else changed.
    """

    id = "browser.calendar-free-slot-v0"
    max_steps = 22

    def sample(self, rng):
        seed, data = _sample_data(rng)
        rooms = [r for r in data["rooms"] if r["capacity"] >= 3]
        while True:
            date = _day(data, int(rng.integers(1, 21)))
            room = _pick(rng, rooms)
            if dt.date.fromisoformat(date).weekday() >= 5:
                continue

            def ok(t):
                s, e = cal.hhmm(t), cal.hhmm(t + 60)
                return _free(data["events"], date, s, e, room=room["id"]) and _free(_mine(data), date, s, e)
            slots = [t for t in range(9 * 60, 17 * 60 + 1, 30) if ok(t)]
            if slots and slots[0] > 9 * 60:
                break
        return {"data_seed": seed, "today": data["today"], "title": _pick(rng, _NEW_TITLES), "date": date,
                "room": room["id"], "room_name": room["name"], "start": cal.hhmm(slots[0]),
                "end": cal.hhmm(slots[0] + 60), "guests": _guests(rng, 2)}

    def instruction(self, p):
        return (f"On {long_date(p['date'])}, book room {p['room_name']} for a one-hour meeting \"{p['title']}\" "
                f"with {_guest_list(p['guests'])}. Take the earliest start from 09:00 on (on the hour or half "
                "hour) at which the room is free for the whole hour and you have no other event.")

    def check(self, state, p, answer, baseline):
        return calendar_event_created(baseline["events"], state["events"],
                                      {k: p[k] for k in ("title", "date", "start", "end", "room")}
                                      | {"attendees": p["guests"]})

    def oracle(self, sb, p):
        yield from self.book(sb, p, p["room"])


@register_task
class CalendarResolveConflict(CalendarTask):
    """Add an event that clashes with an existing one, and move the existing one to a given time that day.

    The app warns about the overlap ("Save anyway"); the instruction forbids
    double-booking. The checker wants the new event created, the old one at its
    new times with everything else kept, and nothing else changed.
    """

    id = "browser.calendar-resolve-conflict-v0"
    max_steps = 36

    def sample(self, rng):
        seed, data = _sample_data(rng)
        lo, hi = _day(data, 2), _day(data, 25)
        mine = _mine(data)
        pool = [e for e in mine if lo <= e["date"] <= hi and not e["room"] and _visible_in_month(data, e)
                and cal.minutes(e["start"]) <= 16 * 60]
        while True:
            ev = _pick(rng, pool)
            s = ev["start"]
            e = cal.hhmm(cal.minutes(s) + 60)
            dur = cal.minutes(ev["end"]) - cal.minutes(ev["start"])
            others = [o for o in mine if o["id"] != ev["id"]]
            if not _free(others, ev["date"], s, e):
                continue
            new_slot = {"date": ev["date"], "start": s, "end": e}
            moves = [t for t in range(17 * 60, 20 * 60 + 1, 30)
                     if _free(others, ev["date"], cal.hhmm(t), cal.hhmm(t + dur))
                     and not cal.overlaps(new_slot, {"date": ev["date"], "start": cal.hhmm(t), "end": cal.hhmm(t + dur)})]
            if moves:
                break
        m = moves[0]
        return {"data_seed": seed, "today": data["today"], "event": ev, "title": _pick(rng, _NEW_TITLES),
                "date": ev["date"], "start": s, "end": e, "move_start": cal.hhmm(m), "move_end": cal.hhmm(m + dur)}

    def instruction(self, p):
        ev = p["event"]
        return (f"Add \"{p['title']}\" to the Calendar on {long_date(p['date'])} from {p['start']} to {p['end']}. "
                f"It clashes with \"{ev['title']}\"; do not double-book: move \"{ev['title']}\" to "
                f"{p['move_start']}–{p['move_end']} the same day (keep everything else about it).")

    def check(self, state, p, answer, baseline):
        before, after = baseline["events"], state["events"]
        old = {e["id"] for e in before}
        added = [e["id"] for e in after if e["id"] not in old]
        return all_of(
            calendar_event_created(before, after, {k: p[k] for k in ("title", "date", "start", "end")},
                                   touched=[p["event"]["id"]]),
            calendar_event_changed(before, after, p["event"]["id"],
                                   {"start": p["move_start"], "end": p["move_end"]}, allow_added=1, touched=added))

    def oracle(self, sb, p):
        ev = p["event"]
        yield from self.edit_event(sb, p["today"], ev)
        yield from self.set_times(sb, p["move_start"], p["move_end"])
        yield from self.save(sb)
        yield click(sb, "#new-event")
        yield from fill(sb, "#title", p["title"])
        yield from fill(sb, "#date", p["date"])
        yield from self.set_times(sb, p["start"], p["end"])
        yield from self.save(sb)
        yield {"action_type": "finished", "content": ""}


@register_task
class CalendarAddGuests(CalendarTask):
    """Add two guests to an existing event and change its location.

    The checker wants the event's guests to be the old ones plus the two, its
    location the new one, everything else and all other events unchanged.
    """

    id = "browser.calendar-add-guests-v0"
    max_steps = 18

    def sample(self, rng):
        seed, data = _sample_data(rng)
        lo, hi = _day(data, 1), _day(data, 40)
        mine = _mine(data)
        pool = [e for e in mine if lo <= e["date"] <= hi and not e["room"] and _visible_in_month(data, e)
                and len(e["attendees"]) <= 3
                and sum(o["title"] == e["title"] and o["date"] == e["date"] for o in mine) == 1]
        ev = _pick(rng, pool)
        place = _pick(rng, [x for x in _NEW_PLACES if x != ev["location"]])
        return {"data_seed": seed, "today": data["today"], "event": ev,
                "guests": _guests(rng, 2, exclude=ev["attendees"]), "location": place}

    def instruction(self, p):
        ev = p["event"]
        return (f"Invite {_guest_list(p['guests'])} to \"{ev['title']}\" on {long_date(ev['date'])} (keep the "
                f"current guests) and change its location to \"{p['location']}\".")

    def check(self, state, p, answer, baseline):
        ev = p["event"]
        return calendar_event_changed(baseline["events"], state["events"], ev["id"],
                                      {"attendees": sorted(ev["attendees"] + p["guests"]), "location": p["location"]})

    def oracle(self, sb, p):
        ev = p["event"]
        yield from self.edit_event(sb, p["today"], ev)
        for name in p["guests"]:
            yield click(sb, f"input[name=att][value=\"{name}\"]")
        yield from fill(sb, "#location", p["location"])
        yield from self.save(sb)
        yield {"action_type": "finished", "content": ""}


@register_task
class CalendarClearWeek(CalendarTask):
    """Delete every event with a given title in one week (two or more of them); same-titled events in other weeks stay.

    The checker wants exactly those events gone and nothing else changed.
    """

    id = "browser.calendar-clear-week-v0"
    max_steps = 30

    def sample(self, rng):
        seed, data = _sample_data(rng)
        mine = _mine(data)
        today = dt.date.fromisoformat(data["today"])
        mon0 = today - dt.timedelta(days=today.weekday())
        options = []
        for w in range(1, 9):
            mon = mon0 + dt.timedelta(weeks=w)
            week = [e for e in mine if mon.isoformat() <= e["date"] <= (mon + dt.timedelta(days=6)).isoformat()]
            for title in sorted({e["title"] for e in week}):
                ids = [e["id"] for e in week if e["title"] == title]
                if 2 <= len(ids) <= 4 and sum(e["title"] == title for e in mine) > len(ids):
                    options.append((mon.isoformat(), title, ids))
        monday, title, ids = _pick(rng, options)
        return {"data_seed": seed, "today": data["today"], "monday": monday, "title": title, "ids": ids}

    def instruction(self, p):
        return (f"Delete every \"{p['title']}\" event in the week that starts on {long_date(p['monday'])} "
                "(Monday to Sunday). Leave all other events alone.")

    def check(self, state, p, answer, baseline):
        return calendar_events_deleted(baseline["events"], state["events"], p["ids"])

    def oracle(self, sb, p):
        yield from self.goto_week(sb, p["today"], p["monday"])
        for eid in p["ids"]:
            yield from self.open_event(sb, eid)
            yield click(sb, "#detail-delete")
            yield click(sb, "#confirm-delete")
            wait_idle(sb, f"document.querySelector('#modal-root').children.length === 0"
                          f" && document.querySelector('[data-id=\"{eid}\"]') === null")
        yield {"action_type": "finished", "content": ""}
