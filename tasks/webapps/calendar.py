"""Backend of the Calendar web app (assets/web/calendar/): seeded events and room bookings, a JSON API, state for checkers.

`generate(seed)` makes one episode's data (a "today", my events, other people's
room bookings, rooms, people); the seed's parity is its split (`split_of_seed`: even seeds
are training calendars in 2026 with the training half of the titles, odd seeds test calendars
in 2027 with the other half), so a test instance never shows a training calendar; `CalendarBackend` answers `/calendar/api/` (a task
installs it with `sb.server.install(CalendarBackend.prefix, CalendarBackend)` and
loads the data of a seed with `.load(seed)`). The backend validates like a real calendar:
a title is required, the end must be after the start, a room cannot be booked
twice at the same time (refused), and an overlap with one of my own events is
refused until the client confirms it (`"confirm_conflicts": true`).

API (JSON):
    GET    bootstrap                      today, rooms, people
    GET    events?from=YYYY-MM-DD&to=...  my events in a date range (inclusive)
    GET    events/<id>                    one event
    POST   events                         create ("repeat_weeks": n makes n weekly events, one series);
                                          422 {"errors": {field: msg}}, 409 {"conflicts": [...]}
    PUT    events/<id>                    update (same answers; one occurrence of a series)
    DELETE events/<id>[?series=1]         delete (with series=1: every event of its series)
    GET    rooms?date=YYYY-MM-DD          rooms and all their bookings that day

The functions at the end (`mine`, `is_free`, `long_date`, ...) pick events and slots for
task parameters.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import random

import numpy as np

from hybridgym.sandbox.webserver import ApiError, JsonBackend, Response, endpoint
from hybridgym.tasks.kit.data import Pool

ME = "me"
PEOPLE = ["Amara Okafor", "Ben Carter", "Chloé Martin", "Diego Alvarez", "Eva Novak", "Farid Haddad",
          "Grace Liu", "Hiro Tanaka", "Isla Murphy", "Jonas Weber", "Kofi Mensah", "Lena Fischer",
          "Marco Rossi", "Nadia Petrova", "Omar Siddiqui", "Priya Nair"]
ROOMS = [  # id, name, capacity, floor, equipment
    ("aurora", "Aurora", 4, 2, "Screen"),
    ("birch", "Birch", 6, 2, "Screen, whiteboard"),
    ("cedar", "Cedar", 8, 3, "Video conferencing"),
    ("delta", "Delta", 12, 3, "Video conferencing, whiteboard"),
    ("everest", "Everest", 20, 4, "Projector, microphones"),
    ("fjord", "Fjord", 3, 4, "Phone booth"),
]
TITLES = Pool(["Team standup", "1:1 with manager", "Design review", "Sprint planning", "Budget sync",
          "Customer call", "Lunch with Sam", "Dentist", "Hiring panel", "Product demo",
          "Quarterly review", "Architecture deep-dive", "Vendor meeting", "Yoga class", "Onboarding session",
          "Roadmap workshop", "Security training", "Board prep", "Coffee chat", "Release retro"])
PLACES = ["Zoom", "Google Meet", "Café Linden", "Client office, 5th Ave", "Home office", "Gym", "Main lobby",
          "Webex", "Library, 2nd floor", "Studio B", "Riverside park", "Cafeteria", "Co-working hub",
          "Hotel Meridian", "Phone", "Site office"]
DAY_START, DAY_END = "07:00", "21:00"   # the time pickers offer 07:00..21:00 in 15-minute steps


def minutes(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def hhmm(mins: int) -> str:
    return f"{mins // 60:02d}:{mins % 60:02d}"


def overlaps(a: dict, b: dict) -> bool:
    """Two bookings on the same date whose [start, end) intervals intersect."""
    return (a["date"] == b["date"] and minutes(a["start"]) < minutes(b["end"])
            and minutes(b["start"]) < minutes(a["end"]))


def split_of_seed(seed: int) -> str:
    """The split a data seed belongs to: even seeds "train", odd seeds "test"."""
    return "test" if seed % 2 else "train"


def data_seed(k: int, split: str) -> int:
    """The k-th data seed of a split (its parity is the split)."""
    return 2 * k + (split == "test")


def generate(seed: int) -> dict:
    """One episode's calendar: today, my events (no two overlap), others' room bookings, rooms, people.
    Training seeds (even) give a today in 2026 and the training half of `TITLES`; test seeds (odd) 2027
    and the other half."""
    return copy.deepcopy(_generate(seed))


@functools.lru_cache(maxsize=8)   # a task's sample and setup draw the same seed
def _generate(seed: int) -> dict:
    rng = random.Random(seed)   # fast and stable for a given seed
    split = split_of_seed(seed)
    titles = TITLES.half(split)
    today = dt.date(2026 if split == "train" else 2027, 1, 5) + dt.timedelta(days=rng.randrange(330))
    events: list[dict] = []
    by_key: dict[tuple, list[dict]] = {}   # (date, owner "me" or a room id) -> bookings
    next_id = 1

    def free(ev: dict, key: tuple) -> bool:
        return not any(overlaps(ev, o) for o in by_key.get(key, ()))

    def add(ev: dict) -> None:
        events.append(ev)
        if ev["owner"] == ME:
            by_key.setdefault((ev["date"], ME), []).append(ev)
        if ev["room"]:
            by_key.setdefault((ev["date"], ev["room"]), []).append(ev)

    for offset in range(-35, 100):
        day = today + dt.timedelta(days=offset)
        n = rng.choice([0, 1, 1, 2, 2, 3]) if day.weekday() < 5 else int(rng.random() < 0.25)
        for _ in range(n):
            start = rng.randrange(16, 36) * 30        # 08:00 .. 17:30
            dur = rng.choice([30, 30, 60, 60, 60, 90, 120])
            room = rng.choice(ROOMS)[0] if rng.random() < 0.45 else None
            ev = {"id": next_id, "title": rng.choice(titles), "date": day.isoformat(),
                  "start": hhmm(start), "end": hhmm(min(start + dur, 19 * 60)), "room": room,
                  "location": next(r[1] for r in ROOMS if r[0] == room) if room else rng.choice(PLACES),
                  "attendees": sorted(rng.sample(PEOPLE, rng.randrange(5))),
                  "owner": ME, "notes": "", "series": None}
            if free(ev, (ev["date"], ME)) and (not room or free(ev, (ev["date"], room))):
                add(ev)
                next_id += 1
    # other people's room bookings: they block rooms but are not in my calendar
    for offset in range(-7, 60):
        day = today + dt.timedelta(days=offset)
        if day.weekday() >= 5:
            continue
        for rid, name, *_ in ROOMS:
            for _ in range(rng.randrange(1, 5)):
                start = rng.randrange(16, 35) * 30
                ev = {"id": next_id, "title": "Busy", "date": day.isoformat(), "start": hhmm(start),
                      "end": hhmm(start + rng.choice([30, 60, 60, 90])), "room": rid, "location": name,
                      "attendees": [], "owner": rng.choice(PEOPLE), "notes": "", "series": None}
                if free(ev, (ev["date"], rid)):
                    add(ev)
                    next_id += 1
    rooms = [{"id": r[0], "name": r[1], "capacity": r[2], "floor": r[3], "equipment": r[4]} for r in ROOMS]
    return {"today": today.isoformat(), "events": events, "rooms": rooms, "people": list(PEOPLE)}


class CalendarBackend(JsonBackend):
    """One episode's calendar state, answering the app's API."""

    name = "calendar"
    prefix = "/calendar/api/"

    def clear(self) -> None:
        self.today = ""
        self.rooms: list[dict] = []
        self.people: list[str] = []
        self.events: list[dict] = []
        self._next_id = 1

    def populate(self, seed: int) -> None:
        """The calendar of `seed` (`generate(seed)`)."""
        data = generate(seed)
        self.today, self.rooms, self.people, self.events = data["today"], data["rooms"], data["people"], data["events"]
        self._next_id = max((e["id"] for e in self.events), default=0) + 1

    # -- reading -------------------------------------------------------------
    def state(self) -> dict:
        """A snapshot for checkers: {"today", "events" (all owners), "rooms"}."""
        with self.lock:
            return {"today": self.today, "events": copy.deepcopy(self.events), "rooms": copy.deepcopy(self.rooms)}

    def mine(self) -> list[dict]:
        return [e for e in self.events if e["owner"] == ME]

    # -- validation ----------------------------------------------------------
    def validate(self, body: dict, editing: int | None = None) -> tuple[dict, dict, list]:
        """Clean an event from the client: (event, field errors, my conflicting events)."""
        errors: dict[str, str] = {}
        ev = {"title": str(body.get("title") or "").strip(), "location": str(body.get("location") or "").strip(),
              "notes": str(body.get("notes") or "").strip(), "room": body.get("room") or None}
        if not ev["title"]:
            errors["title"] = "Title is required."
        elif len(ev["title"]) > 80:
            errors["title"] = "Title must be at most 80 characters."
        date = str(body.get("date") or "").strip()
        try:
            ev["date"] = dt.date.fromisoformat(date).isoformat()
        except ValueError:
            errors["date"] = "Enter a valid date as YYYY-MM-DD." if date else "Date is required."
        for key in ("start", "end"):
            val = str(body.get(key) or "")
            try:
                m = minutes(val)
                ok = minutes(DAY_START) <= m <= minutes(DAY_END) and m % 15 == 0 and len(val) == 5
            except ValueError:
                ok = False
            if ok:
                ev[key] = val
            else:
                errors[key] = f"Pick a {key} time between {DAY_START} and {DAY_END}."
        if "start" in ev and "end" in ev and minutes(ev["end"]) <= minutes(ev["start"]):
            errors["end"] = "End time must be after the start time."
        people = body.get("attendees") or []
        if not isinstance(people, list) or any(p not in self.people for p in people):
            errors["attendees"] = "Attendees must be chosen from the directory."
        else:
            ev["attendees"] = sorted(set(people))
        room = next((r for r in self.rooms if r["id"] == ev["room"]), None)
        if ev["room"] and room is None:
            errors["room"] = f"Unknown room {ev['room']!r}."
        if room and not ev["location"]:
            ev["location"] = room["name"]
        if room and "attendees" in ev and len(ev["attendees"]) + 1 > room["capacity"]:
            errors["room"] = f"{room['name']} seats {room['capacity']}; this meeting has {len(ev['attendees']) + 1} people."
        conflicts: list[dict] = []
        if not errors:
            others = [e for e in self.events if e["id"] != editing]
            taken = [e for e in others if room and e["room"] == room["id"] and overlaps(e, ev)]
            if taken:
                t = taken[0]
                who = "you" if t["owner"] == ME else t["owner"]
                errors["room"] = (f"{room['name']} is already booked {t['start']}–{t['end']} by {who}. "
                                  "Choose another room or time.")
            conflicts = [e for e in others if e["owner"] == ME and overlaps(e, ev)]
        return ev, errors, conflicts

    # -- the API ---------------------------------------------------------------
    @endpoint("GET", "bootstrap")
    def bootstrap(self, req, body):
        return {"today": self.today, "rooms": self.rooms, "people": self.people}

    @endpoint("GET", "rooms")
    def room_day(self, req, body):
        date = req.arg("date", self.today)
        return {"date": date, "rooms": self.rooms,
                "bookings": [self._public(e) for e in self.events if e["room"] and e["date"] == date]}

    def _public(self, e: dict) -> dict:
        """What anyone may see of a booking: other people's meetings show as busy."""
        if e["owner"] == ME:
            return copy.deepcopy(e)
        return {k: e[k] for k in ("id", "date", "start", "end", "room", "owner")} | {"title": "Busy"}

    @endpoint("GET", "events")
    def event_range(self, req, body):
        lo, hi = req.arg("from", "0000-01-01"), req.arg("to", "9999-12-31")
        return [copy.deepcopy(e) for e in self.mine() if lo <= e["date"] <= hi]

    @endpoint("POST", "events")
    def create(self, req, body):
        return self._save(body, None)

    def _event(self, eid: str) -> dict:
        try:
            num = int(eid)
        except ValueError:
            raise ApiError(400, f"event id must be an integer, got {eid!r}") from None
        ev = next((e for e in self.mine() if e["id"] == num), None)
        if ev is None:
            raise ApiError(404, f"no event {num}")
        return ev

    @endpoint("GET", "events/{eid}")
    def event(self, req, body, eid):
        return copy.deepcopy(self._event(eid))

    @endpoint("PUT", "events/{eid}")
    def edit(self, req, body, eid):
        return self._save(body, self._event(eid))

    @endpoint("DELETE", "events/{eid}")
    def delete(self, req, body, eid):
        ev = self._event(eid)
        gone = [e for e in self.mine() if e is ev or (ev["series"] and req.arg("series") == "1"
                                                        and e["series"] == ev["series"])]
        for e in gone:
            self.events.remove(e)
        return {"deleted": [e["id"] for e in gone]}

    def _save(self, body: dict, existing: dict | None) -> Response:
        ev, errors, conflicts = self.validate(body, existing["id"] if existing else None)
        weeks = body.get("repeat_weeks", 1) if existing is None else 1
        if not isinstance(weeks, int) or not 1 <= weeks <= 12:
            errors["repeat"] = "A weekly event repeats 2 to 12 times."
        if errors:
            return Response(422, {"errors": errors})
        series = [ev]
        for k in range(1, weeks):   # later occurrences: same rules, one week apart each
            date = (dt.date.fromisoformat(ev["date"]) + dt.timedelta(weeks=k)).isoformat()
            more, errs, confl = self.validate({**body, "date": date})
            if errs:
                return Response(422, {"errors": {f: f"On {date}: {m}" for f, m in errs.items()}})
            series.append(more)
            conflicts += confl
        if conflicts and body.get("confirm_conflicts") is not True:
            return Response(409, {"conflicts": [copy.deepcopy(c) for c in conflicts]})
        if existing is None:
            first = self._next_id
            for one in series:
                one.update(id=self._next_id, owner=ME, series=first if weeks > 1 else None)
                self._next_id += 1
                self.events.append(one)
            return Response(201, copy.deepcopy(ev))
        existing.update(ev)
        return Response(200, copy.deepcopy(existing))


# -- picking events and slots for task parameters ----------------------------------------------

#: titles and places of the events tasks ask to create
#: (split pools: `pick` draws from the half of the rng's split)
NEW_TITLES = Pool(["Interview: backend engineer", "Offsite planning", "Tax advisor", "Partner kickoff",
                   "Data review", "Parent-teacher meeting", "Car service", "Pitch rehearsal", "Office hours",
                   "Team lunch", "Contract signing", "Mentoring session", "Launch go/no-go", "Wellness check",
                   "Grant proposal review", "Piano lesson", "Investor update", "Hackathon kickoff",
                   "Support rotation handover", "Book club", "Visa appointment", "Press briefing"])
NEW_PLACES = Pool(["Room 4.12", "Café Linden", "Zoom", "Client HQ, Harbour St", "Rooftop terrace", "Lab 2",
                   "Town hall", "Teams call", "Annex lounge", "Library, 3rd floor", "Garden pavilion",
                   "Studio C"])


def mine(data: dict) -> list[dict]:
    return [e for e in data["events"] if e["owner"] == ME]


def day(data: dict, offset: int) -> str:
    """The date `offset` days after the data's today."""
    return (dt.date.fromisoformat(data["today"]) + dt.timedelta(days=offset)).isoformat()


def is_free(events: list[dict], date: str, start: str, end: str, room: str | None = None,
            ignore: tuple[int, ...] = ()) -> bool:
    """No event of `events` (mine, or of `room` if given) overlaps the slot."""
    slot = {"date": date, "start": start, "end": end}
    return not any(overlaps(e, slot) for e in events if e["id"] not in ignore
                   and (e["room"] == room if room else e["owner"] == ME))


def months_between(a: str, b: str) -> int:
    return (int(b[:4]) - int(a[:4])) * 12 + int(b[5:7]) - int(a[5:7])


def weeks_between(a: str, b: str) -> int:
    da, db = dt.date.fromisoformat(a), dt.date.fromisoformat(b)
    return ((db - dt.timedelta(days=db.weekday())) - (da - dt.timedelta(days=da.weekday()))).days // 7


def visible_in_month(data: dict, ev: dict) -> bool:
    """The event shows as a chip in the month grid (its day has at most 3 events)."""
    return sum(e["date"] == ev["date"] for e in mine(data)) <= 3


def one_that_day(events: list[dict], ev: dict) -> bool:
    """`ev` is the only one of `events` with its title on its date."""
    return sum(o["title"] == ev["title"] and o["date"] == ev["date"] for o in events) == 1


def shown_events(data: dict, first: int, last: int, roomless: bool = False, single: bool = False) -> list[dict]:
    """My events from `first` to `last` days after today that show in the month grid (in order);
    `roomless`: without a booked room; `single`: the only one with their title that day."""
    lo, hi, mine_ = day(data, first), day(data, last), mine(data)
    return [e for e in mine_ if lo <= e["date"] <= hi and visible_in_month(data, e)
            and not (roomless and e["room"]) and (not single or one_that_day(mine_, e))]


def sample_guests(rng: np.random.Generator, k: int, exclude=()) -> list[str]:
    return sorted(str(x) for x in rng.choice([p for p in PEOPLE if p not in exclude], size=k, replace=False))


def guest_list(names: list[str]) -> str:
    """"A, B and C"."""
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def long_date(iso: str) -> str:
    """"Monday, March 2, 2026"."""
    d = dt.date.fromisoformat(iso)
    return f"{d:%A}, {d:%B} {d.day}, {d.year}"
