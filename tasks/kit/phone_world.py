"""The lived-in phone the mobile tasks start on: its collections' fields, the seeded records of all ten
apps (`phone_world`, `tool_world`), the draws several families share, the ids the store gives the records,
and the changes a task asks for, named by those ids (what `PhoneTask.expected` returns).

The phone's records are drawn from the reset seed, so the rows a task must not touch are there as
distractors. All dates are around the phone's today, 2026-03-14 (`kit.phone.PHONE_NOW`).

The test split holds out: every name an instruction can use (contacts' first names, alarm labels, event
titles, notes, file names, albums and their photos, expense titles) comes from a `Pool` whose halves the two
splits draw from, and the expenses reach back to October 2025 so that a test question asks about another
month than a training one (`expense_months`).
"""

from __future__ import annotations

import numpy as np

from .data import Pool, pick, pool_of, split_int, split_of  # noqa: F401  (split_int: the phone tasks import it here)

#: the collections of the first five apps (Contacts, Messages, Phone, Clock, Calendar) and the fields they write
PHONE_FIELDS = {
    "contacts": ("name", "phone", "email", "favorite"),
    "messages": ("contact", "phone", "body", "time", "outgoing", "read"),
    "calls": ("name", "phone", "time", "direction", "duration_s"),
    "alarms": ("time", "label", "enabled", "days"),
    "events": ("title", "date", "start", "end", "location", "notes"),
}
#: the collections of the five tool apps (Notes, Settings, Files, Gallery, Expenses)
TOOL_FIELDS = {
    "notes": ("title", "body", "pinned", "updated"),
    "settings": ("wifi", "bluetooth", "airplane", "dnd", "brightness", "ringtone", "font_size", "dark_mode"),
    "files": ("name", "folder", "size_kb", "kind", "modified"),
    "photos": ("name", "album", "date", "favorite", "trashed"),
    "expenses": ("title", "amount", "category", "date"),
}
ALL_FIELDS = {**PHONE_FIELDS, **TOOL_FIELDS}

# ---- contacts, messages, calls, alarms, events ---------------------------------------------------------
#: first names are unique on a phone (instructions may use them) and split-disjoint: a test contact is never a
#: training one
FIRST_NAMES = Pool(["Ana", "Bilal", "Chen", "Dara", "Elif", "Femi", "Greta", "Hiro", "Ines", "Jonas", "Kira", "Luca",
                    "Maya", "Nour", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tomás", "Uma", "Vera", "Wen", "Yara",
                    "Aziz", "Bea", "Carmen", "Dev", "Emil", "Farah", "Gus", "Hana", "Ivo", "Jade", "Kofi", "Lena",
                    "Mateo", "Nika"])
LAST_NAMES = ["Alvarez", "Berg", "Costa", "Dubois", "Eriksen", "Fischer", "García", "Haddad", "Ivanova", "Jensen",
              "Kowalski", "Li", "Moreau", "Nakamura", "Okafor", "Petrov", "Rossi", "Sato", "Tanaka", "Weber"]
CHAT = ["Are you coming tonight?", "Thanks for yesterday!", "Running 10 minutes late", "Did you see the game?",
        "Can you send me the photos?", "Happy birthday!", "Call me when you can", "The keys are under the mat",
        "See you at the station", "I left my umbrella at yours", "Let's try the new ramen place", "Good luck today!"]
ALARM_LABELS = Pool(["Wake up", "Gym", "Medication", "School run", "Standup", "Water plants", "Bus", "Yoga",
                     "Bake bread", "Dog walk", "Laundry", "Swim", "Train", "Meditate", "Stretch", "Pick up kids",
                     "Take out bins", "Lunch", "Check oven", "Piano practice"])
EVENT_TITLES = Pool(["Dentist", "Team sync", "Book club", "Piano lesson", "Car service", "Parents' evening", "Haircut",
                     "Project review", "Football practice", "Vet appointment", "Tax advisor", "Climbing", "Date night",
                     "Eye test", "Budget review", "Pottery class", "Guitar lesson", "Bike service", "School play",
                     "Physio", "Sprint planning", "Swimming lesson", "Bank appointment", "Yoga class", "Movie night",
                     "Choir rehearsal"])
#: event locations; the last one is "no location"
PLACES = ["Main St 4", "Room 2.17", "City library", "Riverside park", "Café Luma", "Harbour gym", "Town hall", ""]
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def params_of(row: dict, *keys: str, **extra) -> dict:
    """A task's parameters taken from a seeded record: its fields `keys`, and the `extra` ones."""
    return {**{k: row[k] for k in keys}, **extra}


def phone_number(rng: np.random.Generator) -> str:
    """A number "+1 555 XXX XXXX" whose exchange is of the split's half (100-549 train, 550-999 test)."""
    return f"+1 555 {split_int(rng, 100, 1000)} {int(rng.integers(1000, 10000))}"


def hm(minutes: int) -> str:
    """Minutes after midnight as "HH:MM"."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def incoming_text(name: str, phone: str, body: str, time: str) -> dict:
    """An unread text message received at `time` ("YYYY-MM-DD HH:MM"); `name` "" for a number that is no contact."""
    return {"contact": name, "phone": phone, "body": body, "time": time, "outgoing": False, "read": False}


def logged_call(name: str, phone: str, direction: str, time: str, duration_s: int = 0) -> dict:
    """A row of the call log: direction "in", "out" or "missed"."""
    return {"name": name, "phone": phone, "direction": direction, "time": time, "duration_s": duration_s}


def new_contact_name(rng: np.random.Generator, contacts: list[dict]) -> str:
    """A full name whose first name no contact has (instructions may use first names)."""
    taken = {c["name"].split()[0] for c in contacts}
    return f"{pick(rng, [f for f in pool_of(rng, FIRST_NAMES) if f not in taken])} {pick(rng, LAST_NAMES)}"


def phone_world(rng: np.random.Generator) -> dict[str, list[dict]]:
    """A lived-in phone: 7-9 contacts, conversations, a call log, alarms and events (March 2026)."""
    names, first = [], set()
    while len(names) < int(rng.integers(7, 10)):
        f = pick(rng, FIRST_NAMES)   # the split's half
        if f not in first:   # first names unique: instructions may use them
            first.add(f)
            names.append(f"{f} {pick(rng, LAST_NAMES)}")
    contacts = [{"name": n, "phone": phone_number(rng),
                 "email": (f"{n.split()[0].lower()}@example.com" if rng.random() < .5 else ""),
                 "favorite": bool(rng.random() < .25)} for n in sorted(names)]
    messages = []
    for c in pick(rng, contacts, 4):
        day = int(rng.integers(9, 14))
        t = int(rng.integers(8 * 60, 20 * 60))
        for j in range(int(rng.integers(1, 4))):
            messages.append({"contact": c["name"], "phone": c["phone"], "body": pick(rng, CHAT),
                             "time": f"2026-03-{day:02d} {hm(t + 7 * j)}", "outgoing": bool(j % 2), "read": True})
    messages.append({"contact": "", "phone": phone_number(rng), "body": "Your parcel is out for delivery.",
                     "time": f"2026-03-{int(rng.integers(9, 14)):02d} {hm(int(rng.integers(480, 1200)))}",
                     "outgoing": False, "read": True})
    calls = []
    for _ in range(int(rng.integers(5, 9))):
        c = pick(rng, contacts) if rng.random() < .8 else {"name": "", "phone": phone_number(rng)}
        d = pick(rng, ["in", "out", "missed"])
        calls.append({"name": c["name"], "phone": c["phone"], "direction": d,
                      "time": f"2026-03-{int(rng.integers(8, 14)):02d} {hm(int(rng.integers(480, 1320)))}",
                      "duration_s": 0 if d == "missed" else int(rng.integers(20, 900))})
    alarms = []
    for label, m in zip(pick(rng, ALARM_LABELS, int(rng.integers(3, 5))),
                        rng.choice(np.arange(5 * 12, 10 * 12), 5, replace=False)):
        alarms.append({"time": hm(int(m) * 5), "label": label, "enabled": bool(rng.random() < .6),
                       "days": pick(rng, ["", "Mon,Tue,Wed,Thu,Fri", "Sat,Sun", "Mon,Wed,Fri"])})
    events = []
    for title in pick(rng, EVENT_TITLES, int(rng.integers(5, 8))):
        start = int(rng.integers(16, 38)) * 30
        events.append({"title": title, "date": f"2026-03-{int(rng.integers(10, 29)):02d}", "start": hm(start),
                       "end": hm(start + int(rng.integers(1, 4)) * 30), "location": pick(rng, PLACES), "notes": ""})
    return {"contacts": contacts, "messages": messages, "calls": calls, "alarms": alarms, "events": events}


# ---- notes, settings, files, photos, expenses ------------------------------------------------------------
NOTES = Pool([
    ("Groceries", "milk, eggs, spinach, basmati rice, lemons"),
    ("Gift ideas", "a scarf for mum, board game for Sam, concert tickets"),
    ("Book list", "The Overstory; Piranesi; Klara and the Sun"),
    ("Packing list", "passport, charger, swimsuit, sunscreen"),
    ("Gym plan", "Mon legs, Wed back, Fri chest and arms"),
    ("Recipe: pancakes", "2 eggs, 250 ml milk, 120 g flour, pinch of salt"),
    ("Meeting prep", "bring the Q1 numbers and the roadmap slides"),
    ("Movies to watch", "Past Lives, Perfect Days, Dune Part Two"),
    ("Garden", "water the tomatoes, buy compost, prune the roses"),
    ("Car service", "oil change due at 45,000 km, check tyre pressure"),
    ("Holiday plan", "book the ferry, pack the tent, ask Ana about the cabin"),
    ("Wine list", "Rioja for Friday, a dry white for the fish"),
    ("Work goals", "finish the API docs, mentor the new hire"),
    ("Podcast picks", "Hardcore History, 99% Invisible, Radiolab"),
    ("House chores", "clean the gutters, fix the tap, paint the shed"),
    ("Recipe: curry", "onion, garlic, ginger, coconut milk, chickpeas"),
    ("Reading notes", "chapter 4: the habit loop, cue and reward"),
    ("Birthday list", "Mum 12 May, Leo 3 July, Grandpa 30 October"),
    ("Running log", "5 km in 27 minutes, knee fine"),
    ("Questions for doctor", "ask about the allergy test and the booster"),
])
#: folder -> the file names it may hold
#: folder -> the file names it may hold (split-disjoint halves)
FOLDERS = {
    "Download": Pool(["boarding_pass.pdf", "invoice_0342.pdf", "setup_guide.pdf", "holiday_photos.zip",
                      "bank_statement.pdf", "podcast_ep12.mp3", "lunch_menu.pdf", "concert_tickets.pdf",
                      "firmware_update.zip", "train_ticket.pdf", "warranty_card.pdf", "course_slides.pdf"]),
    "Documents": Pool(["resume_2026.docx", "budget.xlsx", "meeting_notes.txt", "tax_return_2025.pdf", "lease.pdf",
                       "thesis_draft.docx", "packing.txt", "cover_letter.docx", "insurance_policy.pdf",
                       "timesheet.xlsx"]),
    "Pictures": Pool(["IMG_2041.jpg", "screenshot_0312.png", "passport_scan.jpg", "wallpaper.png", "receipt_scan.jpg",
                      "IMG_3377.jpg", "screenshot_0227.png", "id_card_scan.jpg", "banner.png", "ticket_scan.jpg"]),
    "Music": Pool(["morning_run.mp3", "lofi_beats.mp3", "voice_memo_03.m4a", "piano_sonata.flac", "road_trip_mix.mp3",
                   "evening_jazz.mp3", "study_focus.mp3", "voice_memo_07.m4a", "cello_suite.flac", "summer_hits.mp3"]),
}
_KINDS = {"pdf": "pdf", "docx": "doc", "txt": "text", "xlsx": "sheet", "jpg": "image", "png": "image", "mp3": "audio",
          "m4a": "audio", "flac": "audio", "zip": "zip"}
_SIZES_KB = {"pdf": (80, 6000), "doc": (20, 900), "text": (1, 40), "sheet": (15, 600), "image": (300, 6000),
             "audio": (900, 12000), "zip": (500, 40000)}
#: album -> the photos it may hold; the albums are split-disjoint (`ALBUMS`), so are their photos
_PHOTO_NAMES = {
    "Travel": ["beach_lisbon", "mountain_alps", "city_tokyo", "lake_como", "sunset_pier", "snow_cabin"],
    "Trips": ["beach_crete", "mountain_hike", "city_rome", "lake_bled", "sunset_dunes", "snow_peak"],
    "Pets": ["cat_milo", "dog_biscuit", "cat_nap", "dog_park"],
    "Animals": ["cat_luna", "dog_rex", "cat_window", "dog_beach"],
    "Food": ["pizza_night", "cake_birthday", "pizza_napoli"],
    "Cooking": ["cake_lemon", "pizza_homemade", "bread_loaf"],
    "Family": ["forest_walk", "flowers_garden", "beach_picnic", "city_visit"],
    "Friends": ["forest_camp", "flowers_wedding", "beach_party", "city_night"],
    "Camera": ["flowers_market", "forest_trail", "lake_morning", "sunset_roof"],
    "Nature": ["flowers_meadow", "forest_fog", "lake_sunrise", "sunset_hills"],
}
#: the albums a phone's photos are in: each split draws from its own half
ALBUMS = Pool(_PHOTO_NAMES)
#: category -> its expenses (title, lowest, highest amount), split-disjoint halves
_EXPENSES = {
    "Food": Pool([("Groceries", 25, 90), ("Lunch with Sam", 9, 25), ("Coffee beans", 8, 18), ("Pizza delivery", 15, 35),
                  ("Bakery", 4, 12), ("Dinner out", 30, 80)]),
    "Transport": Pool([("Bus pass", 30, 60), ("Taxi", 12, 40), ("Train ticket", 20, 70), ("Fuel", 35, 75),
                       ("Bike repair", 15, 60), ("Ferry ticket", 10, 30)]),
    "Shopping": Pool([("Running shoes", 60, 140), ("Book", 10, 30), ("Phone case", 12, 30), ("Headphones", 40, 120),
                      ("Winter jacket", 70, 160), ("Desk lamp", 20, 45)]),
    "Bills": Pool([("Electricity", 45, 95), ("Internet", 30, 50), ("Phone plan", 20, 45), ("Water", 20, 40),
                   ("Heating", 50, 110), ("Home insurance", 25, 60)]),
    "Entertainment": Pool([("Cinema", 10, 28), ("Concert", 35, 90), ("Streaming", 8, 16), ("Museum", 12, 25),
                           ("Theatre", 25, 70), ("Escape room", 20, 40)]),
    "Health": Pool([("Pharmacy", 6, 30), ("Dentist", 60, 150), ("Gym membership", 25, 45), ("Vitamins", 10, 25),
                    ("Optician", 40, 120), ("Yoga pass", 30, 60)]),
}
CATEGORIES = list(_EXPENSES)
#: expenses the seeded world never has: (title, category, lowest, highest amount)
_NEW_EXPENSES = Pool([("Haircut", "Health", 18, 40), ("Parking", "Transport", 3, 15),
                      ("Board game", "Entertainment", 20, 60), ("Sandwich", "Food", 5, 11),
                      ("Umbrella", "Shopping", 9, 25), ("Water bill", "Bills", 20, 45),
                      ("Massage", "Health", 40, 90), ("Car wash", "Transport", 8, 20),
                      ("Bowling", "Entertainment", 15, 45), ("Ice cream", "Food", 3, 9),
                      ("Backpack", "Shopping", 25, 80), ("Gas bill", "Bills", 30, 70)])
#: the ringtones the Settings app offers (assets/phone/apps/settings.js); a task asks for one of its split's half
RINGTONES = Pool(["Atria", "Beacon", "Chime", "Dawn", "Galaxy", "Lollipop", "Pixel Ring", "Zen"])
FONT_SIZES = ["Small", "Default", "Large", "Largest"]


_LAST_DAY = {1: 31, 2: 28, 3: 13, 10: 31, 11: 30, 12: 31}
#: the months of the seeded expenses, (year, month), oldest first; training questions ask about the last three,
#: test questions about the first three (`expense_months`)
EXPENSE_MONTHS = ((2025, 10), (2025, 11), (2025, 12), (2026, 1), (2026, 2), (2026, 3))


def expense_months(rng: np.random.Generator) -> tuple[tuple[int, int], ...]:
    """The months a question of `rng`'s split asks about: January-March 2026 (train), October-December 2025 (test)."""
    return EXPENSE_MONTHS[3:] if split_of(rng) == "train" else EXPENSE_MONTHS[:3]


def past_date(rng: np.random.Generator, months=(1, 2, 3), year: int | None = None) -> str:
    """A date in one of `months` (of 2026 for January-March, of 2025 for October-December unless `year`), not
    after the phone's today (2026-03-14)."""
    m = int(pick(rng, list(months)))
    y = year or (2026 if m <= 3 else 2025)
    return f"{y}-{m:02d}-{int(rng.integers(1, _LAST_DAY[m] + 1)):02d}"


def price(rng: np.random.Generator, lo: float, hi: float) -> float:
    """An amount in dollars and cents; some round to a quarter, as prices do."""
    cents = int(rng.integers(int(lo * 100), int(hi * 100)))
    return round(cents / 25) * 25 / 100 if rng.random() < .4 else cents / 100


def new_expense(rng: np.random.Generator) -> dict:
    """An expense (title, amount, category, date in February or March) that no seeded expense has."""
    title, cat, lo, hi = pick(rng, _NEW_EXPENSES)
    return {"title": title, "amount": price(rng, lo, hi), "category": cat, "date": past_date(rng, (2, 3))}


def tool_world(rng: np.random.Generator) -> dict[str, list[dict]]:
    """The tool apps' records: 5-6 notes, one settings record, 16-20 files, 8-12 photos in 4 albums (one in the
    trash), 32 expenses from October 2025 to March 2026 (names from the split's halves)."""
    notes = [{"title": t, "body": b, "pinned": bool(rng.random() < .25),
              "updated": f"{past_date(rng)} {int(rng.integers(7, 22)):02d}:{int(rng.integers(0, 60)):02d}"}
             for t, b in pick(rng, NOTES, int(rng.integers(5, 7)))]
    settings = [{"wifi": True, "bluetooth": bool(rng.random() < .5), "airplane": False, "dnd": False,
                 "brightness": int(rng.integers(20, 91)), "ringtone": pick(rng, RINGTONES),
                 "font_size": pick(rng, FONT_SIZES[:3]), "dark_mode": False}]
    files, sizes = [], set()
    for folder, names in FOLDERS.items():
        for name in pick(rng, names, int(rng.integers(4, 6))):
            kind = _KINDS[name.rsplit(".", 1)[1]]
            size = int(rng.integers(*_SIZES_KB[kind]))
            while size in sizes:   # no two files of the same size: "the largest" is one file
                size += 1
            sizes.add(size)
            files.append({"name": name, "folder": folder, "size_kb": size, "kind": kind, "modified": past_date(rng)})
        top, second = sorted((f for f in files if f["folder"] == folder), key=lambda f: -f["size_kb"])[:2]
        if top["size_kb"] < second["size_kb"] * 1.1:   # the largest also looks largest ("6.0 MB" vs "6.0 MB")
            top["size_kb"] = int(second["size_kb"] * 1.2) + 1
    photos = []
    for album in pick(rng, ALBUMS, 4):
        for name in pick(rng, _PHOTO_NAMES[album], int(rng.integers(2, 4))):
            photos.append({"name": f"{name}.jpg", "album": album, "date": past_date(rng),
                           "favorite": bool(rng.random() < .2), "trashed": False})
    pick(rng, photos)["trashed"] = True
    expenses = []
    for (year, month), n in zip(EXPENSE_MONTHS, (5, 5, 5, 5, 6, 6)):
        titles = set()
        while len(titles) < n:   # distinct titles in a month; categories may repeat
            cat = pick(rng, CATEGORIES[:4] if rng.random() < .5 else CATEGORIES)
            title, lo, hi = pick(rng, _EXPENSES[cat])
            if title not in titles:
                titles.add(title)
                expenses.append({"title": title, "amount": price(rng, lo, hi), "category": cat,
                                 "date": past_date(rng, (month,), year)})
    return {"notes": notes, "settings": settings, "files": files, "photos": photos, "expenses": expenses}


def largest_file(records: dict, folder: str) -> str:
    """The name of the largest file in `folder`."""
    return max((f for f in records["files"] if f["folder"] == folder), key=lambda f: f["size_kb"])["name"]


# ---- the store's ids ----------------------------------------------------------------------------------------
def record_ids(params: dict, collection: str, **match) -> list[int]:
    """The ids the store gives the seeded records of `collection` with these field values: records are
    numbered from 1 in the order of `params["records"]`, collection after collection."""
    ids, n = [], 1
    for name, rows in params["records"].items():
        for row in rows:
            if name == collection and all(row[k] == v for k, v in match.items()):
                ids.append(n)
            n += 1
    return ids


def record_id(params: dict, collection: str, **match) -> int:
    """The id of the one seeded record of `collection` with these field values."""
    ids = record_ids(params, collection, **match)
    if len(ids) != 1:
        raise LookupError(f"expected one {collection} record with {match}, found {len(ids)}: "
                          "draw the task's target so that it is unique")
    return ids[0]


# ---- the changes a task asks for (`PhoneTask.expected`) -----------------------------------------------
def changed(params: dict, collection: str, where: dict, to: dict) -> dict:
    """`expected` for one seeded record (the one whose fields are `where`) whose fields become `to`."""
    return {collection: {"changed": {record_id(params, collection, **where): to}}}


def removed(params: dict, collection: str, **where) -> dict:
    """`expected` for one seeded record (the one whose fields are `where`) deleted."""
    return {collection: {"removed": [record_id(params, collection, **where)]}}


def added(collection: str, row: dict) -> dict:
    """`expected` for one new record of `collection` with (at least) these fields."""
    return {collection: {"added": [row]}}


def text_sent(phone: str, body: str) -> dict:
    """`expected` for one text message sent to `phone`."""
    return added("messages", {"phone": phone, "body": body, "outgoing": True})


def call_made(phone: str) -> dict:
    """`expected` for one outgoing call to `phone` in the call log."""
    return added("calls", {"phone": phone, "direction": "out"})
