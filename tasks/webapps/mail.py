"""Backend of the Webmail app (assets/web/mail/): seeded mailbox with folders, stars, search, sending and attachments.

`MailApp` answers `/mail/api/...`: a task installs it with
`sb.server.install(MailApp.prefix, MailApp)` and loads an episode's mailbox with
`.load(seed, extra=[...])`; `state()` is the snapshot checkers read. Mail from
`generate_mailbox(seed)` carries `facts` (the figures its text states) so tasks can
ask about them; the API never sends `facts` to the page. The functions at the end
(`inbox`, `by_sender`, ...) pick messages for task parameters.

API (JSON; errors are `{"error": ..., "fields": {field: message}}` with status 400/404):
    GET  meta                          me, folders with total/unread counts, custom folders
    GET  messages?folder=&q=&page=     one page of a folder (newest first), or search results
    GET  messages/<id>                 one message with body and attachments (marks it read)
    PUT  messages/<id> {read?, starred?, folder?}
    POST move {ids, folder}            POST delete {ids}: to Trash (from Trash: deleted for good)
    POST folders {name}                a new custom folder
    POST send {to, cc, subject, body, in_reply_to?, forward_of?}   into Sent
    GET  contacts?q=                   address-book matches (autocomplete)
    GET  attachments/<message>/<n>/<filename>   the attachment's content, shown inline
"""

from __future__ import annotations

import copy
import re
from datetime import datetime, timedelta

import numpy as np

from hybridgym.sandbox.webserver import ApiError, JsonBackend, Response, endpoint

ME = {"name": "Sam Carter", "addr": "sam.carter@mailbox.test"}
SYSTEM_FOLDERS = ["inbox", "sent", "archive", "trash"]
FOLDER_LABELS = {"inbox": "Inbox", "sent": "Sent", "archive": "Archive", "trash": "Trash"}
CUSTOM_FOLDERS = ["Projects", "Receipts", "Travel"]
PER_PAGE = 20
NOW = datetime(2026, 3, 14, 9, 30)
#: The word lists below come in two halves: a mailbox of the "train" split draws its people,
#: projects, rooms, flight codes and newsletters from the even-indexed items, a "test" mailbox
#: from the odd-indexed ones (`half`), so no test mailbox shares a name with a training one.
SPLITS = ("train", "test")
PEOPLE = ["Priya Nair", "Jonas Weber", "Maria Rossi", "Kenji Sato", "Fatima Zahra", "Liam O'Brien", "Chloe Dubois",
          "Mateo Garcia", "Aisha Bello", "Oskar Lind", "Hannah Cole", "Ravi Menon", "Elena Petrova", "Tom Becker",
          "Grace Okafor", "Lucas Moreau", "Nina Kowalski", "David Chen", "Sofia Alves", "Marek Novak",
          "Yuki Tanaka", "Omar Haddad", "Ingrid Berg", "Pablo Ruiz", "Amara Singh", "Felix Wagner", "Leila Rahimi",
          "Connor Walsh", "Mei Lin", "Tariq Aziz", "Olga Ivanova", "Samuel Adeyemi", "Clara Jensen",
          "Diego Torres", "Anya Kapoor", "Henrik Dahl"]
DOMAINS = ["northwind.test", "bluepeak.test", "example.org", "lumen-labs.test", "harbor.test"]
PROJECTS = ["Atlas", "Beacon", "Cobalt", "Delta", "Ember", "Falcon", "Granite", "Helix", "Iris", "Jasper",
            "Kestrel", "Lotus", "Mistral", "Nimbus", "Opal", "Pioneer"]
ROOMS = ["B2.14", "C1.03", "A4.20", "Orion", "Lisbon", "Maple", "D3.07", "Summit", "E1.11", "F2.09", "Vega",
         "Oslo", "Cedar", "G4.02", "Harbour", "Kyoto"]
FLIGHT_CODES = ["NW", "QA", "BP", "EZ", "LX", "TK"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
#: newsletter names (+ address) and subject templates; a mailbox has 3 senders of its split's half
NEWSLETTER_NAMES = [("TechBrief Weekly", "digest@techbrief.test"), ("Garden Notes", "hello@gardennotes.test"),
                    ("Northwind Deals", "offers@northwind-deals.test"), ("Metro Commuter", "news@metrocommuter.test"),
                    ("City Runners Club", "news@cityrunners.test"), ("Bookshelf Picks", "picks@bookshelf.test"),
                    ("Daily Dev Digest", "digest@dailydev.test"), ("Harbor Arts Guide", "arts@harborguide.test"),
                    ("Cloud Ops Bulletin", "bulletin@cloudops.test"), ("Trailhead Outfitters", "deals@trailhead.test"),
                    ("Startup Radar", "radar@startupradar.test"), ("Kitchen Table", "recipes@kitchentable.test"),
                    ("Design Weekly", "weekly@designweekly.test"), ("Market Morning", "am@marketmorning.test"),
                    ("Open Source Roundup", "roundup@osroundup.test"), ("Cycle Club News", "news@cycleclub.test"),
                    ("Photo Journal", "editor@photojournal.test"), ("Science Sunday", "sunday@sciencesunday.test"),
                    ("Local Food Box", "box@localfood.test"), ("Language Lab", "lab@languagelab.test"),
                    ("Weekend Hikes", "trails@weekendhikes.test"), ("Podcast Picks", "listen@podcastpicks.test"),
                    ("Green Home Tips", "tips@greenhome.test"), ("Chess Corner", "moves@chesscorner.test")]
_NEWSLETTER_SUBJECTS = ["{name} #{n}: {topic}", "This week from {name}: {topic}", "{name} news: {topic}"]


def half(items, split: str) -> list:
    """The half of a word list a split draws from: "train" the even-indexed items, "test" the odd-indexed ones."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    return list(items[0::2] if split == "train" else items[1::2])


def newsletters_for(rng: np.random.Generator, split: str) -> list[tuple[str, str, str]]:
    """The mailbox's 3 newsletter senders: (name, address, subject template)."""
    names = half(NEWSLETTER_NAMES, split)
    return [(names[int(i)][0], names[int(i)][1], _NEWSLETTER_SUBJECTS[k].replace("{name}", names[int(i)][0]))
            for k, i in enumerate(rng.choice(len(names), size=3, replace=False))]
TOPICS = ["AI chips", "spring sale", "trail season", "open source", "remote work", "battery tech", "new routes"]
REGIONS = ["North", "South", "East", "West", "Central"]
CHATTER = [
    ("Lunch on {day}?", "Hi Sam,\n\nAre you free for lunch on {day}? The new place on Mill Lane looks good.\n\n{first}"),
    ("Slides for the all-hands", "Hi Sam,\n\nI uploaded the slides for the all-hands to the shared drive. Comments welcome.\n\nThanks,\n{first}"),
    ("Quick question", "Hey Sam,\n\nDo you still have the contact of the printer supplier? Need to reorder toner.\n\n{first}"),
    ("Offsite dates", "Hi all,\n\nWe are looking at the second week of May for the offsite. Please keep it free.\n\nBest,\n{first}"),
    ("Re: onboarding checklist", "Thanks Sam, I added two items to the onboarding checklist.\n\n{first}"),
    ("Parking permits", "Hi Sam,\n\nThe new parking permits are ready at the front desk.\n\n{first}"),
    ("Code review for the {project} importer", "Hi Sam,\n\nCould you review my changes to the {project} importer this week?\n\nCheers,\n{first}"),
    ("Holiday schedule", "Hi Sam,\n\nI will be away from {day} next week; Tom covers for me.\n\n{first}"),
    ("Team photo", "Hi everyone,\n\nThe team photo is on {day} at noon in the lobby.\n\n{first}"),
    ("Conference tickets", "Hi Sam,\n\nEarly-bird tickets for the conference end this month. Shall I book two?\n\n{first}"),
]


def addr_of(name: str, domain: str) -> str:
    first, last = name.lower().replace("'", "").split(" ", 1)
    return f"{first}.{last.replace(' ', '')}@{domain}"


def contacts_for(rng: np.random.Generator, split: str = "train") -> list[dict]:
    return [{"name": n, "addr": addr_of(n, str(rng.choice(DOMAINS)))} for n in half(PEOPLE, split)]


def _msg(i: int, folder: str, sender: dict, to: list[dict], subject: str, body: str, when: datetime,
         read: bool, starred: bool = False, attachments=(), facts=None, cc=()) -> dict:
    return {"id": i, "folder": folder, "from": dict(sender), "to": [dict(t) for t in to], "cc": [dict(c) for c in cc],
            "subject": subject, "body": body, "date": when.strftime("%Y-%m-%d %H:%M"), "read": read,
            "starred": starred, "attachments": [dict(a) for a in attachments], "facts": dict(facts or {}),
            "in_reply_to": None, "forward_of": None}


def generate_mailbox(seed: int, split: str = "train") -> dict:
    """A mailbox: contacts, custom folders and ~75 messages with facts, newest first by date; its
    people, projects, rooms, flight codes and newsletters from the `split`'s half of the word lists."""
    rng = np.random.default_rng(seed)
    contacts = contacts_for(rng, split)
    pick = lambda: contacts[int(rng.integers(0, len(contacts)))]  # noqa: E731
    msgs: list[dict] = []
    when = NOW
    projects = [str(p) for p in rng.permutation(half(PROJECTS, split))]
    rooms, codes = half(ROOMS, split), half(FLIGHT_CODES, split)
    newsletters = newsletters_for(rng, split)

    def add(folder, sender, subject, body, read=None, **kw):
        nonlocal when
        when = when - timedelta(minutes=int(rng.integers(25, 600)))
        to = [ME] if sender is not ME else [pick()]
        msgs.append(_msg(len(msgs) + 1, folder, sender, to, subject, body, when,
                         bool(rng.random() < 0.6) if read is None else read, **kw))
        return msgs[-1]

    def inbox_or(p=0.8):
        return "inbox" if rng.random() < p else str(rng.choice(["archive", "Projects"]))

    for k in range(60):
        kind = int(rng.integers(0, 10))
        s = pick()
        first = s["name"].split()[0]
        if kind == 0:        # a meeting room
            proj, room, day = projects[k % 8], str(rng.choice(rooms)), str(rng.choice(DAYS))
            t = f"{int(rng.integers(9, 17))}:{rng.choice(['00', '30'])}"
            add(inbox_or(), s, f"{proj} review on {day}",
                f"Hi Sam,\n\nThe {proj} review on {day} is booked in room {room} at {t}. "
                f"Please bring the latest numbers.\n\nThanks,\n{first}", facts={"room": room, "time": t, "project": proj})
        elif kind == 1:      # an invoice with a text attachment
            inv, amount = f"INV-{int(rng.integers(1000, 9999))}", int(rng.integers(120, 9800))
            due = (NOW + timedelta(days=int(rng.integers(5, 30)))).strftime("%Y-%m-%d")
            lines = f"Invoice {inv}\nBilled to: {ME['name']}\n\nServices rendered: {amount - 50}.00\nFees: 50.00\nTotal due: {amount}.00\nDue date: {due}\n"
            add(inbox_or(0.6) if rng.random() < 0.7 else "Receipts", s, f"Invoice {inv}",
                f"Hello Sam,\n\nPlease find attached invoice {inv}. The total due is ${amount:,}.00, payable by {due}.\n\nRegards,\n{s['name']}",
                attachments=[{"name": f"{inv.lower()}.txt", "type": "text/plain", "content": lines}],
                facts={"invoice": inv, "amount": amount, "due": due})
        elif kind == 2:      # an approved budget
            proj, budget = projects[k % 8], int(rng.integers(8, 90)) * 500
            add(inbox_or(), s, f"Budget for {proj}",
                f"Hi Sam,\n\nFinance approved a budget of ${budget:,} for {proj} this quarter. "
                f"Let me know if you need a breakdown.\n\nBest,\n{first}", facts={"budget": budget, "project": proj})
        elif kind == 3:      # a flight
            code, seat = f"{rng.choice(codes)}{int(rng.integers(100, 999))}", f"{int(rng.integers(3, 40))}{rng.choice(list('ABCDEF'))}"
            add("inbox" if rng.random() < 0.6 else "Travel", s, f"Flight booking {code}",
                f"Hi Sam,\n\nYou are booked on flight {code} on {rng.choice(DAYS)}; your seat is {seat}.\n\n{first}",
                facts={"flight": code, "seat": seat})
        elif kind == 4:      # figures in a CSV attachment
            q = int(rng.integers(1, 5))
            rev = {r: int(rng.integers(40, 400)) * 100 for r in REGIONS}
            csv = "region,revenue\n" + "".join(f"{r},{v}\n" for r, v in rev.items())
            add(inbox_or(), s, f"Q{q} regional revenue",
                f"Hi Sam,\n\nAttached are the Q{q} revenue figures by region.\n\n{first}",
                attachments=[{"name": f"q{q}-revenue.csv", "type": "text/csv", "content": csv}], facts={"revenue": rev})
        elif kind == 5:      # newsletters
            name, addr, subj = newsletters[int(rng.integers(0, 3))]
            add("inbox", {"name": name, "addr": addr}, subj.format(n=int(rng.integers(100, 300)), topic=rng.choice(TOPICS)),
                f"Top stories this week about {rng.choice(TOPICS)}, {rng.choice(TOPICS)} and more.\n\nUnsubscribe at any time.")
        else:
            subj, body = CHATTER[int(rng.integers(0, len(CHATTER)))]
            fill = {"day": str(rng.choice(DAYS)), "project": projects[k % 8], "first": first}
            add(inbox_or(0.85), s, subj.format(**fill), body.format(**fill), starred=bool(rng.random() < 0.1))
    for _ in range(6):       # sent mail
        subj, body = CHATTER[int(rng.integers(0, len(CHATTER)))]
        add("sent", ME, subj.format(day="Friday", project=projects[0], first="Sam"),
            body.format(day="Friday", project=projects[0], first="Sam"), read=True)
    for _ in range(3):       # trash
        name, addr, subj = newsletters[int(rng.integers(0, 3))]
        add("trash", {"name": name, "addr": addr}, subj.format(n=int(rng.integers(100, 300)), topic=rng.choice(TOPICS)),
            "Old newsletter.", read=True)
    return {"contacts": contacts, "folders": list(CUSTOM_FOLDERS), "messages": msgs,
            "newsletters": [n[:2] for n in newsletters]}


_ADDR = re.compile(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")


def parse_addresses(text: str) -> tuple[list[str], list[str]]:
    """Addresses in a To/Cc field ("a@x.test, Name <b@y.test>") and the tokens that are not addresses."""
    good, bad = [], []
    for token in [t.strip() for t in re.split(r"[,;]", text) if t.strip()]:
        m = re.fullmatch(r"(?:[^<>]*<\s*([^<>\s]+)\s*>|([^<>\s]+))", token)
        addr = (m.group(1) or m.group(2)) if m else ""
        (good if _ADDR.fullmatch(addr) else bad).append(addr.lower() if _ADDR.fullmatch(addr) else token)
    return good, bad


class MailApp(JsonBackend):
    """One episode's mailbox; `messages` holds every message with its folder."""

    name = "webmail"
    prefix = "/mail/api/"

    def clear(self) -> None:
        self.contacts: list[dict] = []
        self.folders: list[str] = []
        self.messages: list[dict] = []

    def populate(self, seed: int, extra: list[dict] = (), split: str = "train") -> None:
        """The mailbox of `seed` (and `split`), and the task's `extra` messages (newest; fields as `_msg` makes them)."""
        box = generate_mailbox(seed, split)
        self.contacts, self.folders, self.messages = box["contacts"], box["folders"], box["messages"]
        for m in extra:
            self.messages.append({**_msg(len(self.messages) + 1, "inbox", ME, [ME], "", "", NOW, False), **m,
                                  "id": len(self.messages) + 1})

    def state(self) -> dict:
        with self.lock:
            return copy.deepcopy({"folders": self.folders, "messages": self.messages})

    def find(self, mid: int) -> dict | None:
        return next((m for m in self.messages if m["id"] == mid), None)

    def listing(self, folder: str = "inbox", q: str = "") -> list[dict]:
        words = q.casefold().split()
        hits = [m for m in self.messages if (folder == "starred" and m["starred"] and m["folder"] != "trash")
                or m["folder"] == folder]
        if words:
            hits = [m for m in hits if all(w in " ".join([m["from"]["name"], m["from"]["addr"], m["subject"], m["body"],
                                                          *(t["addr"] for t in m["to"])]).casefold() for w in words)]
        return sorted(hits, key=lambda m: (m["date"], m["id"]), reverse=True)

    @staticmethod
    def _public(m: dict, full: bool) -> dict:
        out = {k: v for k, v in m.items() if k not in ("facts", "body", "attachments")}
        out["snippet"] = m["body"][:90].replace("\n", " ")
        out["attachments"] = [{"n": i, "name": a["name"], "size": len(a["content"].encode())}
                              for i, a in enumerate(m["attachments"])]
        if full:
            out["body"] = m["body"]
        return out

    def _message(self, mid: str) -> dict:
        m = self.find(int(mid)) if mid.isdigit() else None
        if m is None:
            raise ApiError(404, f"no message {mid}")
        return m

    def _folder(self, name: object) -> str:
        if name not in SYSTEM_FOLDERS + self.folders:
            raise ApiError(400, f"no folder {name!r}")
        return name

    # -- the API ---------------------------------------------------------------
    @endpoint("GET", "meta")
    def meta(self, req, body):
        counts = {}
        for f in SYSTEM_FOLDERS + self.folders:
            ms = [m for m in self.messages if m["folder"] == f]
            counts[f] = {"total": len(ms), "unread": sum(not m["read"] for m in ms)}
        counts["starred"] = {"total": len(self.listing("starred")), "unread": 0}
        return {"me": ME, "system": SYSTEM_FOLDERS, "labels": FOLDER_LABELS, "custom": self.folders, "counts": counts}

    @endpoint("GET", "messages")
    def page(self, req, body):
        folder = req.arg("folder", "inbox") or "inbox"
        if folder not in SYSTEM_FOLDERS + self.folders + ["starred"]:
            raise ApiError(404, f"no folder {folder!r}")
        hits = self.listing(folder, req.arg("q"))
        pages = max(1, -(-len(hits) // PER_PAGE))
        page = max(1, min(pages, int(req.arg("page", "1") or 1)))
        return {"items": [self._public(m, False) for m in hits[(page - 1) * PER_PAGE: page * PER_PAGE]],
                "total": len(hits), "page": page, "pages": pages, "per": PER_PAGE}

    @endpoint("GET", "messages/{mid}")
    def read(self, req, body, mid):
        m = self._message(mid)
        m["read"] = True
        return self._public(m, True)

    @endpoint("PUT", "messages/{mid}")
    def flag(self, req, body, mid):
        m = self._message(mid)
        if "folder" in body:
            self._folder(body["folder"])
        for k in ("read", "starred", "folder"):
            if k in body:
                m[k] = body[k]
        return self._public(m, True)

    def _picked(self, body: dict) -> list[dict]:
        ids = [int(i) for i in body.get("ids", [])]
        found = [self.find(i) for i in ids]
        if not ids or None in found:
            raise ApiError(400, "select at least one existing message")
        return found

    @endpoint("POST", "move")
    def move(self, req, body):
        found = self._picked(body)
        folder = self._folder(body.get("folder"))
        for m in found:
            m["folder"] = folder
        return {"moved": [m["id"] for m in found]}

    @endpoint("POST", "delete")
    def delete(self, req, body):
        found = self._picked(body)
        for m in found:
            if m["folder"] == "trash":
                self.messages.remove(m)
            else:
                m["folder"] = "trash"
        return {"moved": [m["id"] for m in found]}

    @endpoint("POST", "folders")
    def new_folder(self, req, body):
        name = str(body.get("name", "")).strip()
        if not name:
            raise ApiError(400, "Give the folder a name.", fields={"name": "Required."})
        if len(name) > 30 or name.casefold() in [f.casefold() for f in SYSTEM_FOLDERS + self.folders] + ["starred"]:
            raise ApiError(400, f"A folder named \"{name}\" already exists or the name is too long.",
                           fields={"name": "Choose another name."})
        self.folders.append(name)
        return Response(201, {"name": name})

    @endpoint("GET", "contacts")
    def suggest(self, req, body):
        q = req.arg("q").casefold().strip()
        return [c for c in self.contacts if q and (q in c["name"].casefold() or q in c["addr"])][:8]

    @endpoint("GET", "attachments/{mid}/{n}/{filename}")
    def attachment(self, req, body, mid, n, filename):
        m = self.find(int(mid)) if mid.isdigit() else None
        if m is None or not n.isdigit() or int(n) >= len(m["attachments"]):
            raise ApiError(404, "no such attachment")
        a = m["attachments"][int(n)]
        return Response(200, a["content"], content_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f"inline; filename=\"{a['name']}\""})

    @endpoint("POST", "send")
    def send(self, req, body):
        fields = {}
        to, bad_to = parse_addresses(str(body.get("to", "")))
        cc, bad_cc = parse_addresses(str(body.get("cc", "")))
        if bad_to or not to:
            fields["to"] = f"Not a valid address: {bad_to[0]}" if bad_to else "Add at least one recipient."
        if bad_cc:
            fields["cc"] = f"Not a valid address: {bad_cc[0]}"
        subject = str(body.get("subject", "")).strip()
        if not subject:
            fields["subject"] = "Add a subject."
        ref = {}
        for k in ("in_reply_to", "forward_of"):
            if body.get(k) not in (None, ""):
                if self.find(int(body[k])) is None:
                    raise ApiError(400, f"{k} names no message")
                ref[k] = int(body[k])
        if fields:
            raise ApiError(400, "The message was not sent.", fields=fields)
        names = {c["addr"]: c["name"] for c in self.contacts}
        attachments = self.find(ref["forward_of"])["attachments"] if "forward_of" in ref else []
        m = _msg(max(x["id"] for x in self.messages) + 1, "sent", ME,
                 [{"name": names.get(a, ""), "addr": a} for a in to], subject, str(body.get("body", "")),
                 NOW + timedelta(minutes=1 + sum(x["folder"] == "sent" and x["date"] > NOW.strftime("%Y-%m-%d %H:%M")
                                                 for x in self.messages)),
                 True, attachments=attachments, cc=[{"name": names.get(a, ""), "addr": a} for a in cc])
        m.update(ref)
        self.messages.append(m)
        return Response(201, self._public(m, True))


# -- picking messages for task parameters ----------------------------------------------------------

#: subjects and bodies of the messages tasks write (or add to the mailbox)
NEW_SUBJECTS = ["Agenda for next week", "Draft proposal", "Vendor shortlist", "Hiring plan update",
                "Customer feedback summary", "Website copy review", "Travel plans for April"]
NEW_BODIES = ["Hi, here is the draft we talked about. Let me know what you think.",
              "Please find my notes below and share them with the team.",
              "Following up on our call: the next step is on your side."]


def inbox(box: dict) -> list[dict]:
    return [m for m in box["messages"] if m["folder"] == "inbox"]


def unique_subject(box: dict, m: dict) -> bool:
    """No other message of the mailbox has `m`'s subject."""
    return sum(x["subject"] == m["subject"] for x in box["messages"]) == 1


def by_sender(box: dict, min_count: int, max_count: int = 5) -> dict[str, list[dict]]:
    """Inbox messages per contact address, for contacts with `min_count` to `max_count` of them."""
    contacts = {c["addr"] for c in box["contacts"]}
    out: dict[str, list[dict]] = {}
    for m in inbox(box):
        if m["from"]["addr"] in contacts:
            out.setdefault(m["from"]["addr"], []).append(m)
    return {a: ms for a, ms in sorted(out.items()) if min_count <= len(ms) <= max_count}
