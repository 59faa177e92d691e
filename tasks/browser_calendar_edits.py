"""Browser tasks on the Calendar app (assets/web/calendar/, backend tasks/webapps/calendar.py): move, change, delete, read events.

## Description
A month/week calendar with an event form (date, time dropdowns, room, guests), a details
dialog (Edit, Delete with a confirmation), backend validation and conflict handling
(an overlap with one's own event needs "Save anyway"). Each episode's calendar comes
from a data seed drawn from the reset seed: a "today" somewhere in 2026 (2027 on test
seeds), about 150 of my
events over five months and about 600 room bookings of others. The tasks here change
existing events (reschedule, add guests, resolve a clash, delete one or a week's worth)
and answer questions about them. Creating events: `browser_calendar.py`.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when the task's checker (reward/calendar.py) passes on the backend's events and, for
questions, on the `finished(content=...)` answer (`reward.answers.match_answer` on the task's
`expected_answer`); every event the task did not ask to change must be exactly as it was.
Training seeds give calendars in 2026, test seeds in 2027 with other titles (the data seed's
parity), so no test instance is a training one.

## Starting State
The backend loaded fresh at setup; the page opens on the month of "today". The wall
clock plays no part.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1: the question tasks judge with `match_answer` (one whole answer; the room label as printed,
  "Aurora (room booked)", is right; where-answer draws the place first, uniformly); count-day asks about a day or a run of days (up to two weeks)
  with the count drawn uniformly; an edited event's other fields must be exactly as they were
  (no case changes: reschedule, add-guests, resolve-conflict); test seeds give 2027 calendars with
  test titles; clear-week (and the others) draw another calendar instead of crashing when one has
  nothing fitting.
"""

from __future__ import annotations

import datetime as dt
from typing import Iterator

from hybridgym.reward.calendar import (calendar_event_changed, calendar_event_created, calendar_events_deleted,
                                       calendar_others_unchanged)
from hybridgym.reward.answers import Answer, match_answer
from hybridgym.reward.checkers import all_of
from hybridgym.tasks.webapps import calendar as cal

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import pick, pool_of
from .kit.web import CalendarTask, choose, click, click_until, fill, gone, present, wait_ready


class EventsTask(CalendarTask):
    """Base of these calendar tasks: finding, opening, editing and deleting an event; answers."""

    def check(self, state, p, outcome: Outcome, baseline):
        """For the question tasks: the answer (`expected_answer`), and no event changed."""
        return all_of(match_answer(outcome.answer, self.expected_answer(p)),
                      calendar_others_unchanged(baseline["events"], state["events"]))

    # oracle pieces
    def goto_month(self, sb, today: str, date: str) -> Iterator[dict]:
        y, m = int(today[:4]), int(today[5:7])
        for _ in range(cal.months_between(today, date)):
            y, m = (y + 1, 1) if m == 12 else (y, m + 1)
            # the 15th of a month is in that month's grid only
            yield from click_until(sb, "#next", present(f'.cell[data-date="{y}-{m:02d}-15"]'))

    def goto_week(self, sb, today: str, date: str) -> Iterator[dict]:
        monday = dt.date.fromisoformat(today) - dt.timedelta(days=dt.date.fromisoformat(today).weekday())
        yield from click_until(sb, "#view-week", present(f'.col[data-date="{monday}"]'))
        for _ in range(cal.weeks_between(today, date)):
            monday += dt.timedelta(weeks=1)
            yield from click_until(sb, "#next", present(f'.col[data-date="{monday}"]'))

    def open_event(self, sb, event_id: int) -> Iterator[dict]:
        yield from click_until(sb, f"[data-id=\"{event_id}\"]", present("#detail-title"))

    def edit_event(self, sb, today: str, ev: dict) -> Iterator[dict]:
        yield from self.goto_month(sb, today, ev["date"])
        yield from self.open_event(sb, ev["id"])
        yield click(sb, "#detail-edit")

    def delete_open_event(self, sb, event_id: int) -> Iterator[dict]:
        """Delete the event whose details are open (confirmed), and wait until it is gone."""
        chip = gone(f'[data-id="{event_id}"]')
        yield click(sb, "#detail-delete")
        yield from click_until(sb, "#confirm-delete", f"document.querySelector('#modal-root').children.length === 0 && {chip}")

    def save(self, sb, start: str | None = None, end: str | None = None) -> Iterator[dict]:
        """Set the form's times (if given) and save it."""
        if start:
            yield from choose(sb, "#start", start)
            yield from choose(sb, "#end", end)
        yield from click_until(sb, "#save", gone("#event-form"))


@register_task(id="browser.calendar-reschedule-v1", max_steps=20)
class CalendarReschedule(EventsTask):
    """Move an existing event to another date and start time, keeping its duration.

    The checker wants the event's date, start and end changed and all its other
    fields, and all other events, as they were.
    """

    def sample_for(self, rng, data):
        pool = cal.shown_events(data, 1, 40, roomless=True)
        if not pool:
            return None
        while True:
            ev = pick(rng, pool)
            dur = cal.minutes(ev["end"]) - cal.minutes(ev["start"])
            date = cal.day(data, int(rng.integers(5, 45)))
            start = int(rng.integers(16, 34)) * 30
            s, e = cal.hhmm(start), cal.hhmm(start + dur)
            if date != ev["date"] and cal.is_free(cal.mine(data), date, s, e, ignore=(ev["id"],)):
                break
        return {"today": data["today"], "event": ev, "date": date, "start": s, "end": e}

    def instruction(self, p):
        ev = p["event"]
        return (f"In the Calendar, move \"{ev['title']}\" (now on {cal.long_date(ev['date'])} at {ev['start']}) to "
                f"{cal.long_date(p['date'])} at {p['start']}, keeping its length (it will end at {p['end']}).")

    def check(self, state, p, outcome: Outcome, baseline):
        return calendar_event_changed(baseline["events"], state["events"], p["event"]["id"],
                                      {"date": p["date"], "start": p["start"], "end": p["end"]})

    def oracle(self, sb, p):
        yield from self.edit_event(sb, p["today"], p["event"])
        yield from fill(sb, "#date", p["date"])
        yield from self.save(sb, p["start"], p["end"])
        yield act.finish()


@register_task(id="browser.calendar-delete-event-v0", max_steps=12)
class CalendarDeleteEvent(EventsTask):
    """Delete one event whose title also appears on other dates (those must stay).

    The delete goes through a confirmation dialog. The checker wants exactly that
    event gone and every other event unchanged.
    """

    def sample_for(self, rng, data):
        mine = cal.mine(data)
        pool = [e for e in cal.shown_events(data, 1, 60, single=True) if sum(o["title"] == e["title"] for o in mine) >= 2]
        if not pool:
            return None
        return {"today": data["today"], "event": pick(rng, pool)}

    def instruction(self, p):
        ev = p["event"]
        return f"Delete the event \"{ev['title']}\" on {cal.long_date(ev['date'])} from the Calendar (only that one)."

    def check(self, state, p, outcome: Outcome, baseline):
        return calendar_events_deleted(baseline["events"], state["events"], [p["event"]["id"]])

    def oracle(self, sb, p):
        yield from self.goto_month(sb, p["today"], p["event"]["date"])
        yield from self.open_event(sb, p["event"]["id"])
        yield from self.delete_open_event(sb, p["event"]["id"])
        wait_ready(sb, present("#month-grid"))
        yield act.finish()


@register_task(id="browser.calendar-where-answer-v1", max_steps=10)
class CalendarWhereAnswer(EventsTask):
    """Answer where an event one to three months ahead takes place (finished(content=<location>)).

    The checker compares the answer with the event's location and confirms that no
    event changed.
    """

    def sample_for(self, rng, data):
        pool = cal.shown_events(data, 25, 85, single=True)
        if not pool:
            return None
        where = pick(rng, sorted({e["location"] for e in pool}))   # the answer first, uniformly over places
        return {"today": data["today"], "event": pick(rng, [e for e in pool if e["location"] == where])}

    def instruction(self, p):
        ev = p["event"]
        return (f"Where does \"{ev['title']}\" on {cal.long_date(ev['date'])} take place? "
                "Answer with the location only.")

    def expected_answer(self, p):
        ev = p["event"]
        # the details dialog prints a booked room as "Aurora (room booked)": that label is right too
        return Answer(ev["location"], "text", aliases=(f"{ev['location']} (room booked)",) if ev["room"] else ())

    def oracle(self, sb, p):
        yield from self.goto_month(sb, p["today"], p["event"]["date"])
        yield from self.open_event(sb, p["event"]["id"])
        yield act.finish(sb.browser.page.inner_text("#detail-where").strip())   # the label as printed


@register_task(id="browser.calendar-count-day-v1", max_steps=16)
class CalendarCountDay(EventsTask):
    """Count the events on a day, or on a run of up to two weeks' days, two to six weeks ahead
    (finished(content=<number>)), e.g. in the week view.

    Days with more than three events show "+N more" in the month grid, so the
    week view is the reliable place to count. The answer is drawn first, uniformly
    over the counts the calendar offers, then a day or run of days with that many.
    """

    def sample_for(self, rng, data):
        mine = cal.mine(data)
        today = dt.date.fromisoformat(data["today"])
        mon0 = today - dt.timedelta(days=today.weekday())
        by_count: dict[int, list[tuple[str, str]]] = {}
        for w in range(2, 6):   # a run of days in weeks w and w + 1
            days = [(mon0 + dt.timedelta(weeks=w, days=i)).isoformat() for i in range(14)]
            per_day = [sum(e["date"] == d for e in mine) for d in days]
            for i in range(7):
                for j in range(i, 14):
                    n = sum(per_day[i:j + 1])
                    if n >= 1:
                        by_count.setdefault(n, []).append((days[i], days[j]))
        if not by_count:
            return None
        n = pick(rng, sorted(by_count))
        first, last = pick(rng, by_count[n])
        return {"today": data["today"], "date": first, "last": last, "count": n}

    def instruction(self, p):
        if p["last"] == p["date"]:
            return f"How many events are in your calendar on {cal.long_date(p['date'])}? Answer with a number."
        return (f"How many events are in your calendar from {cal.long_date(p['date'])} to "
                f"{cal.long_date(p['last'])} (both days included)? Answer with a number.")

    def expected_answer(self, p):
        return Answer(p["count"], "number", context=self.instruction(p))

    def oracle(self, sb, p):
        yield from self.goto_week(sb, p["today"], p["date"])
        first, last = dt.date.fromisoformat(p["date"]), dt.date.fromisoformat(p["last"])
        days = [first + dt.timedelta(days=k) for k in range((last - first).days + 1)]
        sunday = first + dt.timedelta(days=6 - first.weekday())
        count = lambda ds: sum(sb.browser.page.locator(f".col[data-date=\"{d}\"] .block").count() for d in ds)
        n = count([d for d in days if d <= sunday])
        if last > sunday:   # the run goes on into the next week
            yield from click_until(sb, "#next", present(f'.col[data-date="{sunday + dt.timedelta(days=1)}"]'))
            n += count([d for d in days if d > sunday])
        yield act.finish(str(n))


@register_task(id="browser.calendar-resolve-conflict-v1", max_steps=36)
class CalendarResolveConflict(EventsTask):
    """Add an event that clashes with an existing one, and move the existing one to a given time that day.

    The app warns about the overlap ("Save anyway"); the instruction forbids
    double-booking. The checker wants the new event created, the old one at its
    new times with everything else kept, and nothing else changed.
    """

    def sample_for(self, rng, data):
        mine = cal.mine(data)
        pool = [e for e in cal.shown_events(data, 2, 25, roomless=True) if cal.minutes(e["start"]) <= 16 * 60]
        if not pool:
            return None
        for _ in range(200):
            ev = pick(rng, pool)
            s = ev["start"]
            e = cal.hhmm(cal.minutes(s) + 60)
            dur = cal.minutes(ev["end"]) - cal.minutes(ev["start"])
            others = [o for o in mine if o["id"] != ev["id"]]
            if not cal.is_free(others, ev["date"], s, e):
                continue
            new_slot = {"date": ev["date"], "start": s, "end": e}
            moves = [t for t in range(17 * 60, 20 * 60 + 1, 30)
                     if cal.is_free(others, ev["date"], cal.hhmm(t), cal.hhmm(t + dur))
                     and not cal.overlaps(new_slot, {"date": ev["date"], "start": cal.hhmm(t), "end": cal.hhmm(t + dur)})]
            if moves:
                break
        else:
            return None
        m = moves[0]
        return {"today": data["today"], "event": ev, "title": pick(rng, cal.NEW_TITLES),
                "date": ev["date"], "start": s, "end": e, "move_start": cal.hhmm(m), "move_end": cal.hhmm(m + dur)}

    def instruction(self, p):
        ev = p["event"]
        return (f"Add \"{p['title']}\" to the Calendar on {cal.long_date(p['date'])} from {p['start']} to {p['end']}. "
                f"It clashes with \"{ev['title']}\"; do not double-book: move \"{ev['title']}\" to "
                f"{p['move_start']}–{p['move_end']} the same day (keep everything else about it).")

    def check(self, state, p, outcome: Outcome, baseline):
        before, after = baseline["events"], state["events"]
        old = {e["id"] for e in before}
        added = [e["id"] for e in after if e["id"] not in old]
        return all_of(
            calendar_event_created(before, after, {k: p[k] for k in ("title", "date", "start", "end")},
                                   touched=[p["event"]["id"]]),
            calendar_event_changed(before, after, p["event"]["id"],
                                   {"start": p["move_start"], "end": p["move_end"]}, allow_added=1, touched=added))

    def oracle(self, sb, p):
        yield from self.edit_event(sb, p["today"], p["event"])
        yield from self.save(sb, p["move_start"], p["move_end"])
        yield click(sb, "#new-event")
        yield from fill(sb, "#title", p["title"])
        yield from fill(sb, "#date", p["date"])
        yield from self.save(sb, p["start"], p["end"])
        yield act.finish()


@register_task(id="browser.calendar-add-guests-v1", max_steps=18)
class CalendarAddGuests(EventsTask):
    """Add two guests to an existing event and change its location.

    The checker wants the event's guests to be the old ones plus the two, its
    location the new one, everything else and all other events unchanged.
    """

    def sample_for(self, rng, data):
        pool = [e for e in cal.shown_events(data, 1, 40, roomless=True, single=True) if len(e["attendees"]) <= 3]
        if not pool:
            return None
        ev = pick(rng, pool)
        place = pick(rng, [x for x in pool_of(rng, cal.NEW_PLACES) if x != ev["location"]])
        return {"today": data["today"], "event": ev,
                "guests": cal.sample_guests(rng, 2, exclude=ev["attendees"]), "location": place}

    def instruction(self, p):
        ev = p["event"]
        return (f"Invite {cal.guest_list(p['guests'])} to \"{ev['title']}\" on {cal.long_date(ev['date'])} (keep the "
                f"current guests) and change its location to \"{p['location']}\".")

    def check(self, state, p, outcome: Outcome, baseline):
        ev = p["event"]
        return calendar_event_changed(baseline["events"], state["events"], ev["id"],
                                      {"attendees": sorted(ev["attendees"] + p["guests"]), "location": p["location"]})

    def oracle(self, sb, p):
        yield from self.edit_event(sb, p["today"], p["event"])
        for name in p["guests"]:
            yield click(sb, f"input[name=att][value=\"{name}\"]")
        yield from fill(sb, "#location", p["location"])
        yield from self.save(sb)
        yield act.finish()


@register_task(id="browser.calendar-clear-week-v0", max_steps=30)
class CalendarClearWeek(EventsTask):
    """Delete every event with a given title in one week (two or more of them); same-titled events in other weeks stay.

    The checker wants exactly those events gone and nothing else changed.
    """

    def sample_for(self, rng, data):
        mine = cal.mine(data)
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
        if not options:   # no week with a repeated title in this calendar: another calendar
            return None
        monday, title, ids = pick(rng, options)
        return {"today": data["today"], "monday": monday, "title": title, "ids": ids}

    def instruction(self, p):
        return (f"Delete every \"{p['title']}\" event in the week that starts on {cal.long_date(p['monday'])} "
                "(Monday to Sunday). Leave all other events alone.")

    def check(self, state, p, outcome: Outcome, baseline):
        return calendar_events_deleted(baseline["events"], state["events"], p["ids"])

    def oracle(self, sb, p):
        yield from self.goto_week(sb, p["today"], p["monday"])
        for eid in p["ids"]:
            yield from self.open_event(sb, eid)
            yield from self.delete_open_event(sb, eid)
        yield act.finish()
