"""Mobile suite tasks on the phone's tool apps (Notes, Settings, Files, Gallery, Expenses): data entry and edits,
settings changes, file and photo management, questions answered with finished(content=...), and tasks that
carry information from one app to another. Every task seeds all the tool apps with distractor records and is
checked on the exact difference of the phone's records (see docs/mobile-apps-tools.md)."""

from __future__ import annotations

from typing import Iterator

import numpy as np

from hybridgym.tasks.kit.phone import boot_phone
from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of
from hybridgym.reward.phone import answer_in
from hybridgym.reward.phone_tools import answer_amount, answer_date, phone_changed, setting_near, text_appended

from .base import Task, register_task
from .mobile import OK, PHONE_FIELDS, TODAY, done, open_app, phone_world, pick_date, reach, tap, typed

TOOL_FIELDS = {
    "notes": ("title", "body", "pinned", "updated"),
    "settings": ("wifi", "bluetooth", "airplane", "dnd", "brightness", "ringtone", "font_size", "dark_mode"),
    "files": ("name", "folder", "size_kb", "kind", "modified"),
    "photos": ("name", "album", "date", "favorite", "trashed"),
    "expenses": ("title", "amount", "category", "date"),
}
FIELDS = {**PHONE_FIELDS, **TOOL_FIELDS}

# ---- the seeded world ----------------------------------------------------------------------------------------

_NOTES = [
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
]
_NOTE_ADDITIONS = ["buy more coffee", "call the landlord", "return the library books", "book a dentist visit",
                   "renew the parking permit", "back up the laptop"]
_NEW_NOTES = [("Weekend trip", "train at 8:15 from platform 4"), ("Birthday party", "bring balloons and the cake"),
              ("Project ideas", "a bird feeder camera and a herb garden"), ("Wifi guest", "network Hearth, ask for the key"),
              ("Plant care", "water the fern every Tuesday"), ("Bike repair", "new chain and brake pads")]

_FILES = {
    "Download": ["boarding_pass.pdf", "invoice_0342.pdf", "setup_guide.pdf", "holiday_photos.zip", "bank_statement.pdf",
                 "podcast_ep12.mp3", "lunch_menu.pdf", "concert_tickets.pdf", "firmware_update.zip"],
    "Documents": ["resume_2026.docx", "budget.xlsx", "meeting_notes.txt", "tax_return_2025.pdf", "lease.pdf",
                  "thesis_draft.docx", "packing.txt"],
    "Pictures": ["IMG_2041.jpg", "screenshot_0312.png", "passport_scan.jpg", "wallpaper.png", "receipt_scan.jpg"],
    "Music": ["morning_run.mp3", "lofi_beats.mp3", "voice_memo_03.m4a", "piano_sonata.flac", "road_trip_mix.mp3"],
}
_KINDS = {"pdf": "pdf", "docx": "doc", "txt": "text", "xlsx": "sheet", "jpg": "image", "png": "image", "mp3": "audio",
          "m4a": "audio", "flac": "audio", "zip": "zip"}
_SIZES_KB = {"pdf": (80, 6000), "doc": (20, 900), "text": (1, 40), "sheet": (15, 600), "image": (300, 6000),
             "audio": (900, 12000), "zip": (500, 40000)}
_NEW_FILE_NAMES = ["trip_itinerary", "old_invoice", "archive_2025", "keep_this", "final_version", "for_review"]

_PHOTO_NAMES = {
    "Travel": ["beach_lisbon", "mountain_alps", "city_tokyo", "lake_como", "sunset_pier", "snow_cabin"],
    "Pets": ["cat_milo", "dog_biscuit", "cat_nap", "dog_park"],
    "Food": ["pizza_night", "cake_birthday", "pizza_napoli"],
    "Family": ["forest_walk", "flowers_garden", "beach_picnic", "city_visit"],
    "Camera": ["flowers_market", "forest_trail", "lake_morning", "sunset_roof"],
}

_EXPENSES = {
    "Food": [("Groceries", 25, 90), ("Lunch with Sam", 9, 25), ("Coffee beans", 8, 18), ("Pizza delivery", 15, 35),
             ("Bakery", 4, 12), ("Dinner out", 30, 80)],
    "Transport": [("Bus pass", 30, 60), ("Taxi", 12, 40), ("Train ticket", 20, 70), ("Fuel", 35, 75)],
    "Shopping": [("Running shoes", 60, 140), ("Book", 10, 30), ("Phone case", 12, 30), ("Headphones", 40, 120)],
    "Bills": [("Electricity", 45, 95), ("Internet", 30, 50), ("Phone plan", 20, 45), ("Water", 20, 40)],
    "Entertainment": [("Cinema", 10, 28), ("Concert", 35, 90), ("Streaming", 8, 16), ("Museum", 12, 25)],
    "Health": [("Pharmacy", 6, 30), ("Dentist", 60, 150), ("Gym membership", 25, 45), ("Vitamins", 10, 25)],
}
CATEGORIES = list(_EXPENSES)
_MONTH_NAMES = ["January", "February", "March"]
_RINGTONES = ["Atria", "Beacon", "Chime", "Dawn", "Galaxy", "Lollipop", "Pixel Ring", "Zen"]
_FONT_SIZES = ["Small", "Default", "Large", "Largest"]


def _pick(rng: np.random.Generator, items: list, k: int | None = None):
    """One item (k None) or k distinct items, in a seeded order."""
    if k is None:
        return items[int(rng.integers(len(items)))]
    return [items[i] for i in rng.permutation(len(items))[:k]]


def _day(rng: np.random.Generator, months=(1, 2, 3)) -> str:
    m = int(_pick(rng, list(months)))
    last = {1: 31, 2: 28, 3: 13}[m]   # the phone's today is 2026-03-14
    return f"2026-{m:02d}-{int(rng.integers(1, last + 1)):02d}"


def _money(rng: np.random.Generator, lo: float, hi: float) -> float:
    """An amount in dollars and cents; some round to a quarter, as prices do."""
    cents = int(rng.integers(int(lo * 100), int(hi * 100)))
    return round(cents / 25) * 25 / 100 if rng.random() < .4 else cents / 100


def world(rng: np.random.Generator) -> dict[str, list[dict]]:
    """The tool apps' records for one episode: notes, one settings record, files, photos, expenses."""
    notes = [{"title": t, "body": b, "pinned": bool(rng.random() < .25),
              "updated": f"{_day(rng)} {int(rng.integers(7, 22)):02d}:{int(rng.integers(0, 60)):02d}"}
             for t, b in _pick(rng, _NOTES, int(rng.integers(5, 7)))]
    settings = [{"wifi": True, "bluetooth": bool(rng.random() < .5), "airplane": False, "dnd": False,
                 "brightness": int(rng.integers(20, 91)), "ringtone": _pick(rng, _RINGTONES),
                 "font_size": _pick(rng, _FONT_SIZES[:3]), "dark_mode": False}]
    files, sizes = [], set()
    for folder, names in _FILES.items():
        for name in _pick(rng, names, int(rng.integers(4, 6))):
            kind = _KINDS[name.rsplit(".", 1)[1]]
            size = int(rng.integers(*_SIZES_KB[kind]))
            while size in sizes:   # no two files of the same size: "the largest" is one file
                size += 1
            sizes.add(size)
            files.append({"name": name, "folder": folder, "size_kb": size, "kind": kind, "modified": _day(rng)})
        top, second = sorted((f for f in files if f["folder"] == folder), key=lambda f: -f["size_kb"])[:2]
        if top["size_kb"] < second["size_kb"] * 1.1:   # the largest also looks largest ("6.0 MB" vs "6.0 MB")
            top["size_kb"] = int(second["size_kb"] * 1.2) + 1
    photos = []
    for album in _pick(rng, list(_PHOTO_NAMES), 4):
        for name in _pick(rng, _PHOTO_NAMES[album], int(rng.integers(2, 4))):
            photos.append({"name": f"{name}.jpg", "album": album, "date": _day(rng), "favorite": bool(rng.random() < .2),
                           "trashed": False})
    for p in _pick(rng, photos, 1):
        p["trashed"] = True
    expenses = []
    for month, n in ((1, 5), (2, 6), (3, 6)):
        titles = set()
        while len(titles) < n:   # distinct titles in a month; categories may repeat
            cat = _pick(rng, CATEGORIES[:4] if rng.random() < .5 else CATEGORIES)
            title, lo, hi = _pick(rng, _EXPENSES[cat])
            if title not in titles:
                titles.add(title)
                expenses.append({"title": title, "amount": _money(rng, lo, hi), "category": cat,
                                 "date": _day(rng, (month,))})
    return {"notes": notes, "settings": settings, "files": files, "photos": photos, "expenses": expenses}


def _by(rows: list[dict], **match) -> dict:
    return next(r for r in rows if all(r[k] == v for k, v in match.items()))


# ---- oracle steps (the shell's helpers are in tasks/mobile.py: tap, reach, typed, open_app, done, OK) ----------

def menu_choice(value: str) -> str:
    """A choice in the bottom sheet the shell's ctx.menu shows."""
    return f'.scrim .menu button[data-value="{value}"]'


def _write_note(sb, title: str, body: str) -> Iterator[dict]:
    """From anywhere: open Notes, write a new note, save it."""
    yield open_app("notes")
    yield tap(sb, "#notes-add")
    yield tap(sb, "#note-title")
    yield typed(title)
    yield tap(sb, "#note-body")
    yield typed(body)
    yield tap(sb, "#note-save")


# ---- the task family ---------------------------------------------------------------------------------------------

class ToolTask(Task):
    """A phone task on the tool apps. The phone starts on the home screen at 2026-03-14 09:30 with every
    app seeded from the reset seed (`world` for the tool apps, `phone_world` for contacts, messages, calls,
    alarms and events), plus what the task adds; the checker compares all the phone's
    collections before and after (`phone_changed`) and, for questions, the answer."""

    suite = "mobile"
    max_steps = 12

    def sample(self, rng: np.random.Generator) -> dict:
        params = {"world": {**world(rng), **phone_world(rng)}}
        params.update(self.draw(rng, params["world"]))
        return params

    def draw(self, rng: np.random.Generator, w: dict) -> dict:
        """The task's own parameters; may add records to `w`."""
        return {}

    def setup(self, sb, params: dict) -> None:
        boot_phone(sb, params["world"], FIELDS)

    def read_state(self, sb, params: dict) -> dict:
        return sb.server.store.snapshot()

    def expected(self, params: dict) -> dict:
        """The exact change asked for, as `collections_changed` wants it (ids are the seeded records' ids)."""
        return {}

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        return phone_changed(baseline, state, self.expected(params))


def record_id(params: dict, collection: str, **match) -> int:
    """The id the store gives a seeded record: records are numbered from 1 in the order of `world`'s collections."""
    n = 1
    for name, rows in params["world"].items():
        for row in rows:
            if name == collection and all(row[k] == v for k, v in match.items()):
                return n
            n += 1
    raise LookupError(f"no {collection} record with {match}")


class Question(ToolTask):
    """A question about what is on the phone: the answer goes in finished(content=...); nothing may change."""

    def truth_check(self, answer: str | None, params: dict) -> CheckResult:
        raise NotImplementedError

    def check(self, state, params, answer, baseline):
        return all_of(self.truth_check(answer, params), phone_changed(baseline, state, {}))


# ---- Notes ---------------------------------------------------------------------------------------------------

@register_task
class NoteCreate(ToolTask):
    """Create a note with a given title and text in Notes. Checker: exactly one new note with that title and body."""

    id = "mobile.notes-create-v0"
    max_steps = 20

    def draw(self, rng, w):
        title, body = _pick(rng, [n for n in _NEW_NOTES if n[0] not in {x["title"] for x in w["notes"]}])
        return {"title": title, "body": body}

    def instruction(self, params):
        return f"Create a note titled \"{params['title']}\" with the text \"{params['body']}\"."

    def expected(self, params):
        return {"notes": {"added": [{"title": params["title"], "body": params["body"], "pinned": False}]}}

    def oracle(self, sb, params):
        yield from _write_note(sb, params["title"], params["body"])
        yield done()


@register_task
class NoteAppend(ToolTask):
    """Add a line at the end of an existing note. Checker: that note's text is its old text followed by the line;
    nothing else changed."""

    id = "mobile.notes-append-v0"

    def draw(self, rng, w):
        note = _pick(rng, w["notes"])
        return {"title": note["title"], "addition": _pick(rng, _NOTE_ADDITIONS)}

    def instruction(self, params):
        return f"In the note \"{params['title']}\", add \"{params['addition']}\" at the end of its text."

    def check(self, state, params, answer, baseline):
        rid = record_id(params, "notes", title=params["title"])
        old = _by(baseline["notes"], id=rid)["body"]
        new = next((r["body"] for r in state["notes"] if r["id"] == rid), None)
        if new is None:
            return CheckResult.failed(f"the note {params['title']!r} was deleted")
        return all_of(text_appended(old, new, params["addition"]),
                      phone_changed(baseline, state, {"notes": {"changed": {rid: {"body": new}}}}))

    def oracle(self, sb, params):
        rid = record_id(params, "notes", title=params["title"])
        yield open_app("notes")
        yield from reach(sb, f'.note-item[data-id="{rid}"]')
        box = sb.browser.page.locator("#note-body").bounding_box()   # below the text: the caret goes to its end
        x, y = sb.browser.to_screen(box["x"] + box["width"] / 2, box["y"] + box["height"] - 30)
        yield {"action_type": "tap", "x": x, "y": y}
        yield typed(" " + params["addition"])
        yield tap(sb, "#note-save")
        yield done()


@register_task
class NotePin(ToolTask):
    """Pin a note (long press it, then Pin). Checker: only that note's `pinned` became true."""

    id = "mobile.notes-pin-v0"

    def draw(self, rng, w):
        return {"title": _pick(rng, [n for n in w["notes"] if not n["pinned"]])["title"]}

    def instruction(self, params):
        return f"Pin the note \"{params['title']}\" to the top of Notes."

    def expected(self, params):
        return {"notes": {"changed": {record_id(params, "notes", title=params["title"]): {"pinned": True}}}}

    def oracle(self, sb, params):
        yield open_app("notes")
        yield from reach(sb, f'.note-item[data-id="{record_id(params, "notes", title=params["title"])}"]', "long_press")
        yield tap(sb, menu_choice("pin"))
        yield done()


@register_task
class NoteDelete(ToolTask):
    """Delete a note (long press, Delete, confirm). Checker: only that note is gone."""

    id = "mobile.notes-delete-v0"

    def draw(self, rng, w):
        return {"title": _pick(rng, w["notes"])["title"]}

    def instruction(self, params):
        return f"Delete the note \"{params['title']}\"."

    def expected(self, params):
        return {"notes": {"removed": [record_id(params, "notes", title=params["title"])]}}

    def oracle(self, sb, params):
        yield open_app("notes")
        yield from reach(sb, f'.note-item[data-id="{record_id(params, "notes", title=params["title"])}"]', "long_press")
        yield tap(sb, menu_choice("delete"))
        yield tap(sb, OK)
        yield done()


@register_task
class NoteLookup(Question):
    """Read a code written in a note: the note "Door codes" holds two codes; the answer is the asked one."""

    id = "mobile.notes-lookup-v0"

    def draw(self, rng, w):
        codes = {"front door": str(int(rng.integers(1000, 10000))), "garage": str(int(rng.integers(1000, 10000)))}
        w["notes"].append({"title": "Door codes", "body": f"Front door: {codes['front door']}\nGarage: {codes['garage']}",
                           "pinned": False, "updated": "2026-02-11 19:05"})
        which = _pick(rng, sorted(codes))
        return {"which": which, "code": codes[which]}

    def instruction(self, params):
        return f"What is the {params['which']} code written in my notes? Answer with the code only."

    def truth_check(self, answer, params):
        return answer_in(answer, [params["code"]])

    def oracle(self, sb, params):
        yield open_app("notes")
        yield from reach(sb, f'.note-item[data-id="{record_id(params, "notes", title="Door codes")}"]')
        yield done(params["code"])


# ---- Settings ------------------------------------------------------------------------------------------------

_TOGGLES = {  # key -> (label, settings page)
    "wifi": ("Wi-Fi", "#set-network"), "bluetooth": ("Bluetooth", "#set-devices"), "airplane": ("airplane mode", "#set-network"),
}


@register_task
class SettingsToggle(ToolTask):
    """Turn Wi-Fi, Bluetooth or airplane mode on or off in Settings (the opposite of how it starts).
    Checker: only that setting changed, to the asked value."""

    id = "mobile.settings-toggle-v0"

    def draw(self, rng, w):
        key = _pick(rng, sorted(_TOGGLES))
        return {"key": key, "value": not w["settings"][0][key]}

    def instruction(self, params):
        return f"Turn {'on' if params['value'] else 'off'} {_TOGGLES[params['key']][0]} in Settings."

    def expected(self, params):
        return {"settings": {"changed": {record_id(params, "settings"): {params["key"]: params["value"]}}}}

    def oracle(self, sb, params):
        yield open_app("settings")
        yield tap(sb, _TOGGLES[params["key"]][1])
        yield tap(sb, f"#sw-{params['key']}")
        yield done()


@register_task
class SettingsDnd(ToolTask):
    """Turn on Do Not Disturb (Settings > Sound & vibration). Checker: only `dnd` became true."""

    id = "mobile.settings-dnd-v0"

    def instruction(self, params):
        return "Turn on Do Not Disturb."

    def expected(self, params):
        return {"settings": {"changed": {record_id(params, "settings"): {"dnd": True}}}}

    def oracle(self, sb, params):
        yield open_app("settings")
        yield tap(sb, "#set-sound")
        yield tap(sb, "#sw-dnd")
        yield done()


@register_task
class SettingsBrightness(ToolTask):
    """Set the screen brightness to about X% by dragging the slider in Settings > Display.
    Checker: brightness within ±4 of X, no other setting changed."""

    id = "mobile.settings-brightness-v0"
    TOLERANCE = 4

    def draw(self, rng, w):
        now = w["settings"][0]["brightness"]
        target = int(rng.choice([t for t in range(10, 100, 5) if abs(t - now) >= 20]))
        return {"target": target}

    def instruction(self, params):
        return f"Set the screen brightness to about {params['target']}%."

    def check(self, state, params, answer, baseline):
        return all_of(setting_near(baseline["settings"], state["settings"], "brightness", params["target"], self.TOLERANCE),
                      phone_changed({**baseline, "settings": []}, {**state, "settings": []}, {}))

    def oracle(self, sb, params):
        yield open_app("settings")
        yield tap(sb, "#set-display")
        x1, y1 = sb.browser.screen_point("#brightness-thumb")
        box = sb.browser.page.locator("#brightness-track").bounding_box()
        x2, _ = sb.browser.to_screen(box["x"] + box["width"] * params["target"] / 100, 0)
        yield {"action_type": "drag", "x1": x1, "y1": y1, "x2": x2, "y2": y1}
        yield done()


@register_task
class SettingsRingtone(ToolTask):
    """Choose a given phone ringtone (Settings > Sound & vibration > Phone ringtone). Checker: only `ringtone` changed."""

    id = "mobile.settings-ringtone-v0"

    def draw(self, rng, w):
        return {"ringtone": _pick(rng, [r for r in _RINGTONES if r != w["settings"][0]["ringtone"]])}

    def instruction(self, params):
        return f"Change the phone ringtone to \"{params['ringtone']}\"."

    def expected(self, params):
        return {"settings": {"changed": {record_id(params, "settings"): {"ringtone": params["ringtone"]}}}}

    def oracle(self, sb, params):
        yield open_app("settings")
        yield tap(sb, "#set-sound")
        yield tap(sb, "#set-ringtone")
        yield tap(sb, menu_choice(params["ringtone"]))
        yield done()


@register_task
class SettingsDisplay(ToolTask):
    """Turn on the dark theme and set the font size (Settings > Display): two changes in one visit.
    Checker: `dark_mode` true and `font_size` the asked size, nothing else."""

    id = "mobile.settings-display-v0"

    def draw(self, rng, w):
        return {"font_size": _pick(rng, [f for f in _FONT_SIZES if f != w["settings"][0]["font_size"]])}

    def instruction(self, params):
        return f"Turn on the dark theme and set the font size to {params['font_size']}."

    def expected(self, params):
        return {"settings": {"changed": {record_id(params, "settings"): {"dark_mode": True, "font_size": params["font_size"]}}}}

    def oracle(self, sb, params):
        yield open_app("settings")
        yield tap(sb, "#set-display")
        yield tap(sb, "#sw-dark_mode")
        yield tap(sb, "#set-font-size")
        yield tap(sb, menu_choice(params["font_size"]))
        yield done()


# ---- Files ---------------------------------------------------------------------------------------------------

def _open_file_menu(sb, params: dict, name: str, folder: str) -> Iterator[dict]:
    yield open_app("files")
    yield from reach(sb, f'.folder-row[data-folder="{folder}"]')
    yield from reach(sb, f'.file-more[data-id="{record_id(params, "files", name=name, folder=folder)}"]')


def _draw_file(rng, w) -> dict:
    f = _pick(rng, w["files"])
    return {"name": f["name"], "folder": f["folder"]}


@register_task
class FileRename(ToolTask):
    """Rename a file (⋮ > Rename). Checker: only that file's name changed, to the new name."""

    id = "mobile.files-rename-v0"
    max_steps = 20

    def draw(self, rng, w):
        p = _draw_file(rng, w)
        p["new_name"] = f"{_pick(rng, _NEW_FILE_NAMES)}.{p['name'].rsplit('.', 1)[1]}"
        return p

    def instruction(self, params):
        return f"In Files, rename {params['name']} in the {params['folder']} folder to {params['new_name']}."

    def expected(self, params):
        rid = record_id(params, "files", name=params["name"], folder=params["folder"])
        return {"files": {"changed": {rid: {"name": params["new_name"]}}}}

    def oracle(self, sb, params):
        yield from _open_file_menu(sb, params, params["name"], params["folder"])
        yield tap(sb, menu_choice("rename"))
        yield typed(params["new_name"])   # the dialog opens with the old name selected
        yield {"action_type": "press_back"}   # hide the keyboard first: the dialog moves when it goes
        yield tap(sb, OK)
        yield done()


@register_task
class FileMove(ToolTask):
    """Move a file to another folder (⋮ > Move to…). Checker: only that file's folder changed."""

    id = "mobile.files-move-v0"

    def draw(self, rng, w):
        p = _draw_file(rng, w)
        p["to"] = _pick(rng, [f for f in _FILES if f != p["folder"]])
        return p

    def instruction(self, params):
        return f"Move {params['name']} from {params['folder']} to the {params['to']} folder."

    def expected(self, params):
        rid = record_id(params, "files", name=params["name"], folder=params["folder"])
        return {"files": {"changed": {rid: {"folder": params["to"]}}}}

    def oracle(self, sb, params):
        yield from _open_file_menu(sb, params, params["name"], params["folder"])
        yield tap(sb, menu_choice("move"))
        yield tap(sb, menu_choice(params["to"]))
        yield done()


@register_task
class FileDelete(ToolTask):
    """Delete a file (⋮ > Delete, confirm). Checker: only that file is gone."""

    id = "mobile.files-delete-v0"

    def draw(self, rng, w):
        return _draw_file(rng, w)

    def instruction(self, params):
        return f"Delete {params['name']} from the {params['folder']} folder."

    def expected(self, params):
        return {"files": {"removed": [record_id(params, "files", name=params["name"], folder=params["folder"])]}}

    def oracle(self, sb, params):
        yield from _open_file_menu(sb, params, params["name"], params["folder"])
        yield tap(sb, menu_choice("delete"))
        yield tap(sb, OK)
        yield done()


def _largest(w: dict, folder: str) -> str:
    return max((f for f in w["files"] if f["folder"] == folder), key=lambda f: f["size_kb"])["name"]


@register_task
class FileLargest(Question):
    """Which file in a folder is the largest? (sorting by size helps). The answer is its file name."""

    id = "mobile.files-largest-v0"

    def draw(self, rng, w):
        folder = _pick(rng, list(_FILES))
        return {"folder": folder, "answer": _largest(w, folder)}

    def instruction(self, params):
        return f"Which file in the {params['folder']} folder is the largest? Answer with its file name."

    def truth_check(self, answer, params):
        return answer_in(answer, [params["answer"]])

    def oracle(self, sb, params):
        yield open_app("files")
        yield from reach(sb, f'.folder-row[data-folder="{params["folder"]}"]')
        yield tap(sb, "#files-sort")
        yield tap(sb, menu_choice("size"))
        yield done(params["answer"])


# ---- Gallery -------------------------------------------------------------------------------------------------

def _draw_photo(rng, w, trashed: bool = False) -> dict:
    return {"photo": _pick(rng, [p for p in w["photos"] if p["trashed"] == trashed])["name"]}


def _photo_id(params: dict, name: str) -> int:
    return record_id(params, "photos", name=name)


@register_task
class PhotoFavorite(ToolTask):
    """Mark a photo as a favorite (open it, tap the heart). Checker: only that photo's `favorite` became true."""

    id = "mobile.gallery-favorite-v0"

    def draw(self, rng, w):
        return {"photo": _pick(rng, [p for p in w["photos"] if not p["trashed"] and not p["favorite"]])["name"]}

    def instruction(self, params):
        return f"In Gallery, add the photo {params['photo']} to your favorites."

    def expected(self, params):
        return {"photos": {"changed": {_photo_id(params, params["photo"]): {"favorite": True}}}}

    def oracle(self, sb, params):
        yield open_app("gallery")
        yield from reach(sb, f'.thumb[data-id="{_photo_id(params, params["photo"])}"]')
        yield tap(sb, "#photo-fav")
        yield done()


@register_task
class PhotoTrash(ToolTask):
    """Delete a photo (it goes to the trash). Checker: only that photo's `trashed` became true."""

    id = "mobile.gallery-trash-v0"

    def draw(self, rng, w):
        return _draw_photo(rng, w)

    def instruction(self, params):
        return f"Delete the photo {params['photo']} from the Gallery."

    def expected(self, params):
        return {"photos": {"changed": {_photo_id(params, params["photo"]): {"trashed": True}}}}

    def oracle(self, sb, params):
        yield open_app("gallery")
        yield from reach(sb, f'.thumb[data-id="{_photo_id(params, params["photo"])}"]')
        yield tap(sb, "#photo-delete")
        yield tap(sb, OK)
        yield done()


@register_task
class PhotoMove(ToolTask):
    """Move a photo to another album. Checker: only that photo's `album` changed, to the asked album."""

    id = "mobile.gallery-move-v0"

    def draw(self, rng, w):
        p = _draw_photo(rng, w)
        albums = sorted({x["album"] for x in w["photos"]} - {_by(w["photos"], name=p["photo"])["album"]})
        p["album"] = _pick(rng, albums)
        return p

    def instruction(self, params):
        return f"Move the photo {params['photo']} to the album {params['album']}."

    def expected(self, params):
        return {"photos": {"changed": {_photo_id(params, params["photo"]): {"album": params["album"]}}}}

    def oracle(self, sb, params):
        yield open_app("gallery")
        yield from reach(sb, f'.thumb[data-id="{_photo_id(params, params["photo"])}"]')
        yield tap(sb, "#photo-move")
        yield tap(sb, menu_choice(params["album"]))
        yield done()


@register_task
class PhotoRestore(ToolTask):
    """Restore a photo from the trash (Albums > Trash). Checker: only that photo's `trashed` became false."""

    id = "mobile.gallery-restore-v0"

    def draw(self, rng, w):
        return _draw_photo(rng, w, trashed=True)

    def instruction(self, params):
        return f"Restore the photo {params['photo']} from the trash."

    def expected(self, params):
        return {"photos": {"changed": {_photo_id(params, params["photo"]): {"trashed": False}}}}

    def oracle(self, sb, params):
        yield open_app("gallery")
        yield tap(sb, "#tab-albums")
        yield from reach(sb, '.album-card[data-album="__trash"]')
        yield from reach(sb, f'.thumb[data-id="{_photo_id(params, params["photo"])}"]')
        yield tap(sb, "#photo-restore")
        yield done()


@register_task
class AlbumCount(Question):
    """How many photos are in an album (not counting the trash)? The answer is a number."""

    id = "mobile.gallery-count-v0"

    def draw(self, rng, w):
        album = _pick(rng, sorted({p["album"] for p in w["photos"]}))
        return {"album": album, "count": sum(p["album"] == album and not p["trashed"] for p in w["photos"])}

    def instruction(self, params):
        return f"How many photos are in the {params['album']} album in Gallery? Answer with a number."

    def truth_check(self, answer, params):
        return answer_in(answer, [str(params["count"])])

    def oracle(self, sb, params):
        yield open_app("gallery")
        yield tap(sb, "#tab-albums")
        yield done(str(params["count"]))


@register_task
class PhotoDate(Question):
    """On which date was a photo taken? (open it: the date is under it). Any clear date form is accepted."""

    id = "mobile.gallery-date-v0"

    def draw(self, rng, w):
        p = _pick(rng, [p for p in w["photos"] if not p["trashed"]])
        return {"photo": p["name"], "date": p["date"]}

    def instruction(self, params):
        return f"On what date was the photo {params['photo']} taken?"

    def truth_check(self, answer, params):
        return answer_date(answer, params["date"])

    def oracle(self, sb, params):
        yield open_app("gallery")
        yield from reach(sb, f'.thumb[data-id="{_photo_id(params, params["photo"])}"]')
        yield done(params["date"])


# ---- Expenses ------------------------------------------------------------------------------------------------

def _fill_expense(sb, e: dict) -> Iterator[dict]:
    """On an empty expense form: type the title and amount, pick the category, replace the date, save."""
    yield tap(sb, "#exp-title")
    yield typed(e["title"])
    yield tap(sb, "#exp-amount")
    yield typed(f"{e['amount']:.2f}")
    yield tap(sb, f'.cat-opt[data-cat="{e["category"]}"]')
    yield tap(sb, "#exp-date-clear")
    yield typed(e["date"])
    yield tap(sb, "#exp-save")


def _to_month(sb, date: str) -> Iterator[dict]:
    """From the Expenses list at March 2026, back to the month of `date`."""
    for _ in range(3 - int(date[5:7])):
        yield tap(sb, "#exp-prev")


_NEW_EXPENSES = [("Haircut", "Health", 18, 40), ("Parking", "Transport", 3, 15), ("Board game", "Entertainment", 20, 60),
                 ("Sandwich", "Food", 5, 11), ("Umbrella", "Shopping", 9, 25), ("Water bill", "Bills", 20, 45)]


def _new_expense(rng) -> dict:
    title, cat, lo, hi = _pick(rng, _NEW_EXPENSES)
    return {"title": title, "amount": _money(rng, lo, hi), "category": cat, "date": _day(rng, (2, 3))}


@register_task
class ExpenseAdd(ToolTask):
    """Add an expense with a title, amount, category and date. Checker: exactly one new expense with those values."""

    id = "mobile.expenses-add-v0"
    max_steps = 20

    def draw(self, rng, w):
        return {"expense": _new_expense(rng)}

    def instruction(self, params):
        e = params["expense"]
        return f"Add an expense \"{e['title']}\" of ${e['amount']:.2f} in the {e['category']} category, dated {e['date']}."

    def expected(self, params):
        return {"expenses": {"added": [params["expense"]]}}

    def oracle(self, sb, params):
        yield open_app("expenses")
        yield tap(sb, "#exp-add")
        yield from _fill_expense(sb, params["expense"])
        yield done()


def _draw_march_expense(rng, w) -> dict:
    e = _pick(rng, [e for e in w["expenses"] if e["date"] >= "2026-03"])
    return {"title": e["title"], "date": e["date"], "amount": e["amount"]}


@register_task
class ExpenseEdit(ToolTask):
    """Correct the amount of an existing expense (tap it, clear the amount, type, Save).
    Checker: only that expense's amount changed, to the new value."""

    id = "mobile.expenses-edit-v0"

    def draw(self, rng, w):
        p = _draw_march_expense(rng, w)
        new = p["amount"]
        while abs(new - p["amount"]) < 1:
            new = _money(rng, 5, 120)
        p["new_amount"] = new
        return p

    def instruction(self, params):
        return (f"The expense \"{params['title']}\" of {params['date']} was really ${params['new_amount']:.2f}: "
                "correct its amount.")

    def expected(self, params):
        rid = record_id(params, "expenses", title=params["title"], date=params["date"])
        return {"expenses": {"changed": {rid: {"amount": params["new_amount"]}}}}

    def oracle(self, sb, params):
        rid = record_id(params, "expenses", title=params["title"], date=params["date"])
        yield open_app("expenses")
        yield from reach(sb, f'.exp-row[data-id="{rid}"]')
        yield tap(sb, "#exp-amount-clear")
        yield typed(f"{params['new_amount']:.2f}")
        yield tap(sb, "#exp-save")
        yield done()


@register_task
class ExpenseDelete(ToolTask):
    """Delete an expense (tap it, Delete expense, confirm). Checker: only that expense is gone."""

    id = "mobile.expenses-delete-v0"

    def draw(self, rng, w):
        return _draw_march_expense(rng, w)

    def instruction(self, params):
        return f"Delete the expense \"{params['title']}\" of {params['date']}."

    def expected(self, params):
        return {"expenses": {"removed": [record_id(params, "expenses", title=params["title"], date=params["date"])]}}

    def oracle(self, sb, params):
        yield open_app("expenses")
        yield from reach(sb, f'.exp-row[data-id="{record_id(params, "expenses", title=params["title"], date=params["date"])}"]')
        yield tap(sb, "#exp-delete")
        yield tap(sb, OK)
        yield done()


@register_task
class ExpenseTotal(Question):
    """How much was spent on a category in a month (January to March 2026)? The answer is an amount."""

    id = "mobile.expenses-total-v0"

    def draw(self, rng, w):
        pairs = [(int(e["date"][5:7]), e["category"]) for e in w["expenses"]]
        several = [p for p in pairs if pairs.count(p) > 1]   # a sum of several rows when there is one
        month, cat = _pick(rng, several or pairs)
        total = round(sum(x["amount"] for x in w["expenses"] if x["category"] == cat and int(x["date"][5:7]) == month), 2)
        return {"month": month, "category": cat, "total": total}

    def instruction(self, params):
        return (f"How much did I spend on {params['category']} in {_MONTH_NAMES[params['month'] - 1]} 2026 "
                "according to Expenses? Answer with the amount.")

    def truth_check(self, answer, params):
        return answer_amount(answer, params["total"])

    def oracle(self, sb, params):
        yield open_app("expenses")
        yield from _to_month(sb, f"2026-{params['month']:02d}")
        yield tap(sb, f'.chip[data-cat="{params["category"]}"]')
        yield done(f"${params['total']:.2f}")


# ---- across apps ---------------------------------------------------------------------------------------------

@register_task
class MessageToExpense(ToolTask):
    """A friend's text message says what they paid for you; log it in Expenses (title, category given; amount and
    date from the message). Checker: exactly one new expense with those values; messages may only be marked read."""

    id = "mobile.message-to-expense-v0"
    max_steps = 20

    def draw(self, rng, w):
        friend = _pick(rng, w["contacts"])
        e = _new_expense(rng)
        w["messages"].append({"contact": friend["name"], "phone": friend["phone"],
                              "body": f"I paid ${e['amount']:.2f} for the {e['title'].lower()} on {e['date']}, add it to your expenses?",
                              "time": "2026-03-14 08:47", "outgoing": False, "read": False})
        return {"friend": friend["name"], "expense": e}

    def instruction(self, params):
        e = params["expense"]
        return (f"{params['friend']} sent me a message about something they paid for. Add it in Expenses with the "
                f"title \"{e['title']}\", category {e['category']}, and the amount and date from the message.")

    def expected(self, params):
        return {"expenses": {"added": [params["expense"]]}}

    def oracle(self, sb, params):
        yield open_app("messages")
        yield open_app("expenses")
        yield tap(sb, "#exp-add")
        yield from _fill_expense(sb, params["expense"])
        yield done()


@register_task
class ContactToNote(ToolTask):
    """Write a note whose text is a contact's phone number (read it in Contacts). Checker: one new note with that
    title and the number as its text (digits compared)."""

    id = "mobile.contact-to-note-v0"
    max_steps = 20

    def draw(self, rng, w):
        c = _pick(rng, w["contacts"])
        return {"name": c["name"], "phone": c["phone"]}

    def instruction(self, params):
        return (f"Create a note titled \"Call {params['name']}\" whose text is {params['name']}'s phone number "
                "from Contacts.")

    def expected(self, params):
        return {"notes": {"added": [{"title": f"Call {params['name']}", "body": params["phone"]}]}}

    def oracle(self, sb, params):
        yield open_app("contacts")
        yield from _write_note(sb, f"Call {params['name']}", params["phone"])
        yield done()


@register_task
class EventToExpense(ToolTask):
    """Log an expense on the date of a calendar event (read the date in Calendar). Checker: one new expense with the
    given title, amount and category and the event's date."""

    id = "mobile.event-to-expense-v0"
    max_steps = 20

    def draw(self, rng, w):
        e = _new_expense(rng)
        place = _pick(rng, ["Luigi's", "the Harbour Grill", "Casa Verde", "Sakura House"])
        event = {"title": f"Dinner at {place}", "date": e["date"], "start": "19:30", "end": "21:30", "location": place,
                 "notes": ""}
        w["events"].append(event)
        e.update(title=event["title"], category="Food")
        return {"expense": e}

    def instruction(self, params):
        e = params["expense"]
        return (f"Add an expense \"{e['title']}\" of ${e['amount']:.2f} in the Food category, dated the day of that "
                "dinner in my calendar.")

    def expected(self, params):
        return {"expenses": {"added": [params["expense"]]}}

    def oracle(self, sb, params):
        yield open_app("calendar")
        yield open_app("expenses")
        yield tap(sb, "#exp-add")
        yield from _fill_expense(sb, params["expense"])
        yield done()


@register_task
class LargestFileToNote(ToolTask):
    """Find the largest file in Download (Files) and write its name in a new note. Checker: one new note with the
    given title and the file name as its text."""

    id = "mobile.largest-file-to-note-v0"
    max_steps = 20

    def draw(self, rng, w):
        return {"title": _pick(rng, ["Clean up", "Biggest download", "Free up space"]), "answer": _largest(w, "Download")}

    def instruction(self, params):
        return (f"Create a note titled \"{params['title']}\" whose text is the name of the largest file in the "
                "Download folder.")

    def expected(self, params):
        return {"notes": {"added": [{"title": params["title"], "body": params["answer"]}]}}

    def oracle(self, sb, params):
        yield open_app("files")
        yield from reach(sb, '.folder-row[data-folder="Download"]')
        yield tap(sb, "#files-sort")
        yield tap(sb, menu_choice("size"))
        yield from _write_note(sb, params["title"], params["answer"])
        yield done()


_TRADES = ["Plumber", "Electrician", "Locksmith", "Piano tuner", "Dog sitter", "Window cleaner"]
_PEOPLE = ["Marta Quist", "Oskar Lind", "Rui Tavares", "Hana Novak", "Tariq Aziz", "Lena Vogel"]


@register_task
class NoteToContact(ToolTask):
    """A note names a tradesperson with a phone number; add them as a contact (read the note, then Contacts).
    Checker: exactly one new contact with that name and number (digits compared), nothing else changed."""

    id = "mobile.note-to-contact-v0"
    max_steps = 20

    def draw(self, rng, w):
        trade, name = _pick(rng, _TRADES), _pick(rng, _PEOPLE)
        phone = f"+1 555 {int(rng.integers(100, 1000))} {int(rng.integers(1000, 10000))}"
        w["notes"].append({"title": "Recommended by Joe", "body": f"{trade}: {name}, {phone} (ask for a quote)",
                           "pinned": False, "updated": "2026-03-12 20:14"})
        return {"trade": trade.lower(), "name": name, "phone": phone}

    def instruction(self, params):
        return (f"My note \"Recommended by Joe\" names a {params['trade']}. Add them to Contacts with the name and "
                "phone number from the note.")

    def expected(self, params):
        return {"contacts": {"added": [{"name": params["name"], "phone": params["phone"]}]}}

    def oracle(self, sb, params):
        yield open_app("notes")
        yield from reach(sb, f'.note-item[data-id="{record_id(params, "notes", title="Recommended by Joe")}"]')
        yield open_app("contacts")
        yield tap(sb, "#add-contact")
        yield tap(sb, "#name")
        yield typed(params["name"])
        yield tap(sb, "#number")
        yield typed(params["phone"])
        yield tap(sb, "#save")
        yield done()


@register_task
class PhotoToEvent(ToolTask):
    """Create a calendar event on the day a photo was taken (read the date in Gallery, then Calendar's date
    picker). Checker: exactly one new event with the given title on that date."""

    id = "mobile.photo-to-event-v0"
    max_steps = 24

    def draw(self, rng, w):
        p = _pick(rng, [p for p in w["photos"] if not p["trashed"]])
        title = _pick(rng, ["Print the photo", "Send the photo to Grandma", "Frame the picture"])
        return {"photo": p["name"], "date": p["date"], "title": title}

    def instruction(self, params):
        return (f"Create a calendar event titled \"{params['title']}\" on the date the photo {params['photo']} "
                "was taken.")

    def expected(self, params):
        return {"events": {"added": [{"title": params["title"], "date": params["date"]}]}}

    def oracle(self, sb, params):
        yield open_app("gallery")
        yield from reach(sb, f'.thumb[data-id="{_photo_id(params, params["photo"])}"]')
        yield open_app("calendar")
        yield tap(sb, "#add-event")
        yield tap(sb, "#event-title")
        yield typed(params["title"])
        yield tap(sb, "#event-date")
        yield from pick_date(sb, TODAY, params["date"])
        yield tap(sb, "#save")
        yield done()
