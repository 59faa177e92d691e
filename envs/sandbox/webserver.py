"""A local web server per env on 127.0.0.1 (a free port): static app files plus a JSON API over per-episode records."""

from __future__ import annotations

import copy
import json
import mimetypes
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit


class RecordStore:
    """The backend state of a web app: named collections of JSON records with integer ids.

    The app's pages read and write it through `/api/<collection>[/<id>]`
    (GET list / GET one / POST create / PUT update / DELETE); checkers read
    `snapshot()`. A task seeds it at reset with `load()`.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._data: dict[str, list[dict]] = {}
        self._next_id = 1
        self.fields: dict[str, tuple[str, ...]] = {}  # collection -> fields a client may set

    def load(self, collections: dict[str, list[dict]], fields: dict[str, tuple[str, ...]]) -> None:
        with self._lock:
            self._data = {}
            self._next_id = 1
            self.fields = dict(fields)
            for name, rows in collections.items():
                self._data[name] = []
                for row in rows:
                    self._data[name].append({"id": self._next_id, **copy.deepcopy(row)})
                    self._next_id += 1
            for name in fields:
                self._data.setdefault(name, [])

    def snapshot(self) -> dict[str, list[dict]]:
        with self._lock:
            return copy.deepcopy(self._data)

    def handle(self, method: str, parts: list[str], body: object) -> tuple[int, object]:
        if not parts or parts[0] not in self._data:
            return 404, {"error": f"no collection {'/'.join(parts)!r}; have {sorted(self._data)}"}
        name = parts[0]
        with self._lock:
            rows = self._data[name]
            if len(parts) == 1:
                if method == "GET":
                    return 200, copy.deepcopy(rows)
                if method == "POST":
                    clean, err = self._clean(name, body)
                    if err:
                        return 400, {"error": err}
                    row = {"id": self._next_id, **clean}
                    self._next_id += 1
                    rows.append(row)
                    return 201, copy.deepcopy(row)
                return 405, {"error": f"{method} not allowed on a collection; use GET or POST"}
            try:
                rid = int(parts[1])
            except ValueError:
                return 400, {"error": f"record id must be an integer, got {parts[1]!r}"}
            match = [r for r in rows if r["id"] == rid]
            if not match:
                return 404, {"error": f"no record {rid} in {name}"}
            row = match[0]
            if method == "GET":
                return 200, copy.deepcopy(row)
            if method == "PUT":
                clean, err = self._clean(name, body)
                if err:
                    return 400, {"error": err}
                row.update(clean)
                return 200, copy.deepcopy(row)
            if method == "DELETE":
                rows.remove(row)
                return 200, {"deleted": rid}
            return 405, {"error": f"{method} not allowed on a record; use GET, PUT or DELETE"}

    def _clean(self, name: str, body: object) -> tuple[dict, str | None]:
        if not isinstance(body, dict):
            return {}, "request body must be a JSON object"
        allowed = self.fields.get(name, ())
        unknown = sorted(set(body) - set(allowed))
        if unknown:
            return {}, f"unknown fields {unknown} for {name}; allowed: {list(allowed)}"
        bad = [k for k, v in body.items() if not isinstance(v, (str, int, float, bool)) and v is not None]
        if bad:
            return {}, f"fields {bad} must be strings, numbers or booleans"
        return dict(body), None


class AppServer:
    """Serves `root` (static files) and `/api/...` (a RecordStore) on 127.0.0.1."""

    def __init__(self, root: Path):
        self.root = Path(root).resolve()
        self.store = RecordStore()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def _send(self, status: int, body: bytes, ctype: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def _api(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    self._send(400, b'{"error": "body is not JSON"}', "application/json")
                    return
                path = urlsplit(self.path).path
                parts = [unquote(p) for p in path.split("/")[2:] if p]
                status, payload = server.store.handle(self.command, parts, body)
                self._send(status, json.dumps(payload).encode(), "application/json")

            def _static(self) -> None:
                path = unquote(urlsplit(self.path).path).lstrip("/") or "index.html"
                target = (server.root / path).resolve()
                if target.is_dir():
                    target = target / "index.html"
                if server.root not in target.parents or not target.is_file():
                    self._send(404, b"not found", "text/plain")
                    return
                ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
                self._send(200, target.read_bytes(), ctype)

            def do_GET(self):
                self._api() if self.path.startswith("/api/") else self._static()

            do_HEAD = do_GET

            def do_POST(self):
                self._api() if self.path.startswith("/api/") else self._send(405, b"", "text/plain")

            do_PUT = do_POST
            do_DELETE = do_POST

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="hybridgym-appserver", daemon=True)
        self._thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def url(self, path: str = "/", **query: object) -> str:
        q = "&".join(f"{k}={v}" for k, v in query.items())
        return f"{self.origin}/{path.lstrip('/')}" + (f"?{q}" if q else "")

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)
