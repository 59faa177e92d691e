"""Driveshare: the backend of a file-sharing web app (folders, files with owners and dates, previews, downloads, rename, move, share, trash).

A drive is generated from a seed and a split (`drive(seed, split)`, cached; the two splits
draw file names, owners, invoice numbers and years from disjoint pools): folders, and files of
several kinds (CSV sales exports, text notes, JSON configs, ZIP archives, PDFs)
with their bytes. `Driveshare` is the app's backend under `/files/` (a task installs it
with `sb.server.install(Driveshare.prefix, Driveshare)` and loads the drive of a seed with
`.load(seed, split=...)`); it keeps the drive's metadata as records (collections `folders`, `files`,
`shares`, which checkers read with `state()`). Its API, under `/files/api/`:

    GET  list?folder=<id>           (default 1, "My Drive") the folder's path, subfolders and files (trashed ones hidden)
    GET  file/<id>                  one file with a preview (text, table, JSON, ZIP listing)
    GET  download/<id>              the bytes, as an attachment (the browser saves it)
    GET  search?q=..                files whose name holds the words
    POST rename/<id> {name}         409 if the name is taken in the folder, 400 if empty or has "/"
    POST move/<id>   {folder}
    POST share/<id>  {email, role}  role "viewer" or "editor"; returns the share with its link
    POST trash/<id>
    GET  /files/s/<token>           the page a share link opens (name, owner, a download button)

The page itself is static: `assets/web/files/` (the server answers static files first).
"""

from __future__ import annotations

import csv
import functools
import hashlib
import html
import io
import json
import random
import re
import zipfile
from dataclasses import dataclass

import numpy as np

from hybridgym.sandbox.webserver import ApiError, JsonBackend, RecordStore, Response, endpoint
from hybridgym.tasks.kit.data import Pool

#: name pools, each cut in two disjoint halves (`Pool`: train the even-indexed, test the odd-indexed),
#: so that no file, owner or date of a test drive is named like one of a training drive
_OWNERS = Pool(["Marta Keller", "Sven Olsen", "Jonas Weber", "Aiko Tanaka", "Priya Nair", "Bruno Lima",
                "Tomás Rivera", "Chiara Conti", "Ana Costa", "Farid Haddad", "Lea Fischer", "Ingrid Berg"])
OWNERS = ["me", *_OWNERS.half("train")]   # a training drive's owners ("me" is the drive's user)
SPLITS = ("train", "test")
#: the year a split's files were modified in
YEARS = {"train": 2026, "test": 2027}
FIELDS = {"folders": ("name", "parent"),
          "files": ("name", "folder", "size", "modified", "owner", "kind", "trashed"),
          "shares": ("file", "email", "role", "link")}
_REGIONS = Pool(["north", "coastal", "south", "alpine", "east", "metro", "west", "rural", "central", "island"])
_PRODUCTS = [("Desk lamp", 24.5), ("Office chair", 149.0), ("Monitor arm", 59.9), ("USB hub", 19.99),
             ("Notebook A5", 3.25), ("Standing desk", 389.0), ("Headset", 74.0), ("Webcam", 49.5)]
_CUSTOMERS = ["Acme Ltd", "Bluefin GmbH", "Corvid SA", "Delta Works", "Elmstreet Co", "Fjord AS", "Granite BV"]
_SERVICES = Pool(["billing", "payments", "search", "ledger", "checkout", "gateway", "inventory", "catalog",
                   "mailer", "notifier", "reports", "scheduler"])
_TOPICS = Pool(["budget review", "team offsite", "hiring plan", "pricing update", "office move", "customer survey",
                "release planning", "product launch", "vendor selection", "data retention", "security audit",
                "onboarding plan"])
_ZIPS = Pool(["team_backup", "nightly_dump", "q2_exports", "site_snapshot", "design_assets", "old_mailboxes",
              "legacy_reports", "crm_export"])
_STEMS = Pool(["old", "scan", "draft", "temp", "final", "backup", "copy", "notes", "export", "misc", "report",
               "extract"])
_SUMMARY = Pool(["summary.txt", "overview.txt"])
_ROADMAP = Pool(["roadmap.txt", "plan_of_record.txt"])
#: invoice numbers of a split
_INVOICES = {"train": (1000, 5499), "test": (5500, 9999)}
PAGE = 20  # files per page in the list


@dataclass
class DriveFile:
    name: str
    folder: int          # index into Drive.folders (0 = My Drive)
    owner: str
    modified: str        # "YYYY-MM-DD HH:MM"
    kind: str            # csv, txt, json, zip, pdf
    data: bytes
    facts: dict          # what the content says (totals, codes, keys) for truths


@dataclass
class Drive:
    folders: list[tuple[str, int]]   # (name, parent index); index 0 is the root "My Drive"
    files: list[DriveFile]

    def file(self, name: str) -> DriveFile:
        return next(f for f in self.files if f.name == name)


def _date(rng: random.Random, year: int = 2026) -> str:
    return f"{year}-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d} {rng.randint(7, 19):02d}:{rng.choice([0, 15, 30, 45]):02d}"


def _sales_csv(rng: random.Random) -> tuple[bytes, dict]:
    """A sales export of 60-140 rows; its columns are drawn at once by a generator seeded from `rng`
    (drives are built for every drawn seed, so this must be fast)."""
    g = np.random.default_rng(rng.getrandbits(63))
    n = int(g.integers(60, 141))
    prods, qs = g.integers(0, len(_PRODUCTS), n).tolist(), g.integers(1, 13, n).tolist()
    months, days = g.integers(1, 10, n).tolist(), g.integers(1, 29, n).tolist()
    jitter, custs = g.integers(0, 7, n).tolist(), g.integers(0, len(_CUSTOMERS), n).tolist()
    lines = ["date,order_id,customer,product,quantity,unit_price,amount"]
    total, qty = 0.0, 0
    for i in range(n):
        prod, price = _PRODUCTS[prods[i]]
        q = qs[i]
        amount = round(q * price, 2)
        total += amount
        qty += q
        lines.append(f"2026-{months[i]:02d}-{days[i]:02d},{10000 + i * 7 + jitter[i]},{_CUSTOMERS[custs[i]]},"
                     f"{prod},{q},{price:.2f},{amount:.2f}")
    return ("\n".join(lines) + "\n").encode(), {"rows": n, "total": round(total, 2), "quantity": qty}


def _config(rng: random.Random, services=tuple(_SERVICES)) -> dict:
    return {"service": rng.choice(services), "port": rng.randint(3000, 9999), "replicas": rng.randint(1, 9),
            "timeout_s": rng.choice([5, 10, 30, 60]), "region": rng.choice(["eu-1", "eu-2", "us-1", "ap-1"]),
            "owner_team": rng.choice(["platform", "payments", "growth", "data"])}


def _notes(rng: random.Random, topic: str, owners=tuple(OWNERS)) -> tuple[bytes, dict]:
    code = rng.randint(1000, 9999)
    room = f"{rng.choice('ABCD')}{rng.randint(1, 4)}.{rng.randint(10, 40)}"
    text = (f"Meeting notes: {topic}\n\nAttendees: {', '.join(rng.sample(list(owners[1:]), 3))}\n\n"
            f"1. Opened with the status of the {topic}.\n2. Agreed to meet again in room {room}.\n"
            f"3. The storage room door code is {code}; do not share it outside the team.\n"
            f"4. Action items are tracked in the shared sheet.\n")
    return text.encode(), {"code": code, "room": room}


def _zip(rng: random.Random, services=tuple(_SERVICES)) -> tuple[bytes, dict]:
    cfg = _config(rng, services)
    sales, sf = _sales_csv(rng)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("config/settings.json", json.dumps(cfg, indent=2).encode()),
                           ("data/sales.csv", sales),
                           ("README.txt", b"Backup of the team folder. Restore with unzip.\n")):
            info = zipfile.ZipInfo(name, date_time=(2026, 5, 4, 12, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return buf.getvalue(), {"config": cfg, "sales": sf}


def _pdf(title: str) -> bytes:
    return (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
            b"% " + title.encode() + b"\ntrailer<</Root 1 0 R>>\n%%EOF\n")


@functools.lru_cache(maxsize=64)
def drive(seed: int, split: str = "train") -> Drive:
    """The drive of one episode, generated from `seed`, its names (files, owners) drawn from
    `split`'s half of the name pools and its dates in the split's year (`YEARS`)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    rng = random.Random(seed)
    owners = ["me", *_OWNERS.half(split)]
    services, topics = _SERVICES.half(split), _TOPICS.half(split)
    year = YEARS[split]
    folders = [("My Drive", 0), ("Reports", 0), ("Invoices", 0), ("Projects", 0), ("Team notes", 0),
               ("Archive", 0), ("Configs", 3), ("Backups", 3)]
    files: list[DriveFile] = []
    names: set[tuple[int, str]] = set()

    def add(folder: int, name: str, kind: str, data: bytes, facts: dict, owner: str | None = None) -> None:
        if (folder, name) in names:
            return
        names.add((folder, name))
        files.append(DriveFile(name, folder, owner or rng.choice(owners), _date(rng, year), kind, data, facts))

    for region in rng.sample(_REGIONS.half(split), 4):
        for q in rng.sample([1, 2, 3], 2):
            data, facts = _sales_csv(rng)
            add(1, f"sales_{region}_q{q}.csv", "csv", data, facts)
    add(1, _SUMMARY.half(split)[0], "txt", b"Quarterly summaries live in the CSV exports of this folder.\n", {})
    for i in range(rng.randint(5, 8)):
        no = rng.randint(*_INVOICES[split])
        add(2, f"invoice_{no}.pdf", "pdf", _pdf(f"Invoice {no}"), {})
    for topic in rng.sample(topics, 4):
        data, facts = _notes(rng, topic, owners)
        add(4, f"{topic.replace(' ', '_')}.txt", "txt", data, facts)
    for svc in rng.sample(services, 4):
        cfg = _config(rng, services)
        cfg["service"] = svc
        add(6, f"{svc}.json", "json", json.dumps(cfg, indent=2).encode(), {"config": cfg})
    for name in rng.sample(_ZIPS.half(split), 3):
        data, facts = _zip(rng, services)
        add(7, f"{name}.zip", "zip", data, facts)
    add(3, _ROADMAP.half(split)[0], "txt", b"Roadmap: ship search in Q3, billing revamp in Q4.\n", {})
    # the archive: many files, more than one page
    while sum(1 for f in files if f.folder == 5) < 46:
        kind = rng.choice(["csv", "txt", "pdf", "json"])
        stem = f"{rng.choice(_STEMS.half(split))}_{rng.randint(100, 999)}"
        if kind == "csv":
            data, facts = _sales_csv(rng)
        elif kind == "txt":
            data, facts = _notes(rng, rng.choice(topics), owners)
        elif kind == "json":
            facts = {"config": _config(rng, services)}
            data = json.dumps(facts["config"], indent=2).encode()
        else:
            data, facts = _pdf(stem), {}
        add(5, f"{stem}.{kind}", kind, data, facts)
    return Drive(folders, files)


def records(d: Drive) -> dict[str, list[dict]]:
    """RecordStore collections of a drive. The store numbers records from 1 in this order, so
    folder i of the drive gets id i + 1 (the root, "My Drive", is 1 and has parent 0), and
    file j gets id len(folders) + j + 1."""
    folders = [{"name": n, "parent": 0 if i == 0 else p + 1} for i, (n, p) in enumerate(d.folders)]
    files = [{"name": f.name, "folder": f.folder + 1, "size": len(f.data), "modified": f.modified,
              "owner": f.owner, "kind": f.kind, "trashed": False} for f in d.files]
    return {"folders": folders, "files": files, "shares": []}


def file_id(d: Drive, f: DriveFile) -> int:
    """The record id of a drive's file (see `records`)."""
    return len(d.folders) + d.files.index(f) + 1


def _preview(f: DriveFile) -> dict:
    if f.kind == "csv":
        rows = list(csv.reader(io.StringIO(f.data.decode())))
        return {"type": "table", "header": rows[0], "rows": rows[1:21], "total_rows": len(rows) - 1}
    if f.kind in ("txt", "json"):
        return {"type": "text", "text": f.data.decode()[:4000]}
    if f.kind == "zip":
        with zipfile.ZipFile(io.BytesIO(f.data)) as z:
            return {"type": "zip", "entries": [{"name": i.filename, "size": i.file_size} for i in z.infolist()]}
    return {"type": "none"}


_CONTENT_TYPES = {"csv": "text/csv", "txt": "text/plain", "json": "application/json", "zip": "application/zip",
                  "pdf": "application/pdf"}


class Driveshare(JsonBackend):
    """One episode's drive: its records (folders, files, shares) and the files' bytes."""

    name = "Driveshare"
    prefix = "/files/"

    def clear(self) -> None:
        self.records = RecordStore()
        self.content: dict[int, DriveFile] = {}

    def populate(self, seed: int, split: str = "train") -> None:
        """The drive of `seed` and `split` (`drive(seed, split)`)."""
        d = drive(seed, split)
        self.records.load(records(d), FIELDS)
        self.content = {file_id(d, f): f for f in d.files}

    def state(self) -> dict[str, list[dict]]:
        """The records, for checkers: {"folders", "files", "shares"}."""
        return self.records.snapshot()

    def rows(self, name: str) -> list[dict]:
        return self.records.snapshot()[name]

    def _file(self, fid: str) -> dict:
        try:
            num = int(fid)
        except ValueError:
            num = None
        rec = next((r for r in self.rows("files") if r["id"] == num), None)
        if rec is None:
            raise ApiError(404, f"no file {fid!r}; use an id from /files/api/list")
        return rec

    def _path_of(self, folder: int) -> list[dict]:
        fs = {r["id"]: r for r in self.rows("folders")}
        out, cur = [], folder
        while cur in fs:
            out.append({"id": cur, "name": fs[cur]["name"]})
            cur = fs[cur]["parent"]
        return out[::-1]

    # -- the API ---------------------------------------------------------------
    @endpoint("GET", "api/list")
    def listing(self, req, body):
        try:
            folder = int(req.arg("folder", "1"))
        except ValueError:
            raise ApiError(400, "folder must be a folder id") from None
        folders = self.rows("folders")
        if folder not in {r["id"] for r in folders}:
            raise ApiError(404, f"no folder {folder}")
        subs = [{"id": r["id"], "name": r["name"]} for r in folders if r["parent"] == folder]
        files = [r for r in self.rows("files") if r["folder"] == folder and not r["trashed"]]
        tree: list[dict] = []

        def walk(parent: int, depth: int) -> None:   # depth first: children right under their parent
            for r in folders:
                if r["parent"] == parent:
                    tree.append({"id": r["id"], "name": r["name"], "depth": depth})
                    walk(r["id"], depth + 1)
        walk(0, 0)
        return {"folder": folder, "path": self._path_of(folder), "folders": subs, "files": files, "tree": tree}

    @endpoint("GET", "api/search")
    def search(self, req, body):
        words = req.arg("q").lower().split()
        return {"files": [r for r in self.rows("files")
                          if not r["trashed"] and words and all(w in r["name"].lower() for w in words)]}

    @endpoint("GET", "api/file/{fid}")
    def details(self, req, body, fid):
        rec = self._file(fid)
        shares = [s for s in self.rows("shares") if s["file"] == rec["id"]]
        return {**rec, "preview": _preview(self.content[rec["id"]]), "shares": shares,
                "path": self._path_of(rec["folder"])}

    @endpoint("GET", "api/download/{fid}")
    def download(self, req, body, fid):
        rec = self._file(fid)
        return Response(200, self.content[rec["id"]].data, _CONTENT_TYPES[rec["kind"]],
                        {"Content-Disposition": f'attachment; filename="{rec["name"]}"'})

    @endpoint("POST", "api/rename/{fid}")
    def rename(self, req, body, fid):
        rec = self._file(fid)
        name = str(body.get("name", "")).strip()
        if not name or "/" in name:
            raise ApiError(400, "A name cannot be empty or contain '/'.")
        if any(r["name"] == name and r["folder"] == rec["folder"] and r["id"] != rec["id"] and not r["trashed"]
               for r in self.rows("files")):
            raise ApiError(409, f"A file named “{name}” already exists in this folder.")
        return self.records.update("files", rec["id"], {"name": name})

    @endpoint("POST", "api/move/{fid}")
    def move(self, req, body, fid):
        rec = self._file(fid)
        try:
            target = int(body.get("folder"))
        except (TypeError, ValueError):
            raise ApiError(400, "folder must be a folder id") from None
        if target not in {r["id"] for r in self.rows("folders")}:
            raise ApiError(404, f"no folder {target}")
        if any(r["name"] == rec["name"] and r["folder"] == target and not r["trashed"]
               for r in self.rows("files") if r["id"] != rec["id"]):
            raise ApiError(409, f"The destination already has a file named “{rec['name']}”.")
        return self.records.update("files", rec["id"], {"folder": target})

    @endpoint("POST", "api/share/{fid}")
    def share(self, req, body, fid):
        rec = self._file(fid)
        email = str(body.get("email", "")).strip()
        role = str(body.get("role", "viewer"))
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", email):
            raise ApiError(400, f"“{email}” is not a valid email address.")
        if role not in ("viewer", "editor"):
            raise ApiError(400, "role must be viewer or editor")
        if any(s["file"] == rec["id"] and s["email"] == email for s in self.rows("shares")):
            raise ApiError(409, f"The file is already shared with {email}.")
        link = "/files/s/" + hashlib.sha1(f"{rec['id']}:{email}".encode()).hexdigest()[:12]
        return Response(201, self.records.add("shares", {"file": rec["id"], "email": email, "role": role,
                                                         "link": link}))

    @endpoint("POST", "api/trash/{fid}")
    def trash(self, req, body, fid):
        return self.records.update("files", self._file(fid)["id"], {"trashed": True})

    @endpoint("GET", "s/{token}")
    def shared_page(self, req, body, token):
        """The page a share link opens."""
        share = next((x for x in self.rows("shares") if x["link"] == "/files/s/" + token), None)
        rec = next((r for r in self.rows("files") if share and r["id"] == share["file"]), None)
        if rec is None or rec["trashed"]:
            page = "<h1>Link not found</h1><p>The link is wrong, or the file was removed.</p>"
        else:
            size = f"{rec['size']:,} bytes"
            page = (f"<h1>{html.escape(rec['name'])}</h1><p>{html.escape(rec['owner'])} shared this file with "
                    f"{html.escape(share['email'])} ({'can edit' if share['role'] == 'editor' else 'can view'}).</p>"
                    f"<p>{size} · modified {rec['modified']}</p><a class='btn primary' id='download' "
                    f"href='/files/api/download/{rec['id']}'>⬇ Download</a>")
        return Response(200 if rec else 404, "<!doctype html><html><head><meta charset='utf-8'><title>Driveshare</title>"
                        "<link rel='stylesheet' href='/files/style.css'></head><body class='shared'>"
                        f"<header class='top'><div class='brand'><span class='logo'>▲</span> Driveshare</div></header>"
                        f"<main class='card'>{page}</main></body></html>", "text/html; charset=utf-8")
