"""A local web server per env on 127.0.0.1 (a free port): static app files plus a JSON API over per-episode records."""

from __future__ import annotations

import copy
import json
import mimetypes
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qs, unquote, urlsplit


@dataclass
class Request:
    """One HTTP request, as a route handler sees it."""
    method: str
    path: str                      # the part after the route's prefix, unquoted, no leading "/"
    query: dict[str, list[str]]    # parse_qs of the query string
    headers: dict[str, str]
    body: bytes = b""

    def json(self) -> object:
        return json.loads(self.body) if self.body else None

    def arg(self, name: str, default: str = "") -> str:
        return self.query.get(name, [default])[0]


@dataclass
class Response:
    """What a route handler returns."""
    status: int = 200
    body: bytes | str | object = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)

    def payload(self) -> bytes:
        if isinstance(self.body, bytes):
            return self.body
        if isinstance(self.body, str):
            return self.body.encode()
        return json.dumps(self.body).encode()


#: a route handler: a function of the request
RouteHandler = Callable[[Request], Response]


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


class _QuietServer(ThreadingHTTPServer):
    """A browser that drops a connection mid-request (a page left while loading) is normal here."""

    def handle_error(self, request, client_address) -> None:
        import sys
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)):
            return
        super().handle_error(request, client_address)


class AppServer:
    """Serves `root` (static files) and `/api/...` (a RecordStore) on 127.0.0.1.

    A task can add, for its episode, route handlers (`route("/shop/api/", fn)`: any
    method, longest prefix wins, before the record API and static files) and
    static folders (`mount("/miniwob/", folder)`). `reset()` (called by the env at
    every reset, before the task's setup) removes them and empties the store.
    """

    def __init__(self, root: Path):
        self.root = Path(root).resolve()
        self.store = RecordStore()
        self._routes: dict[str, RouteHandler] = {}
        self._mounts: dict[str, Path] = {}
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
                url_path = unquote(urlsplit(self.path).path)
                root, rel = server.root, url_path.lstrip("/")
                for prefix, folder in sorted(server._mounts.items(), key=lambda kv: -len(kv[0])):
                    if url_path.startswith(prefix):
                        root, rel = folder, url_path[len(prefix):]
                        break
                target = (root / (rel or "index.html")).resolve()
                if target.is_dir():
                    target = target / "index.html"
                if root not in target.parents or not target.is_file():
                    self._send(404, b"not found", "text/plain")
                    return
                ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
                if ctype.startswith("text/") or ctype in ("application/javascript", "application/json"):
                    ctype += "; charset=utf-8"   # the pages are UTF-8 (else Chromium guesses Latin-1)
                self._send(200, target.read_bytes(), ctype)

            def _route(self) -> bool:
                split = urlsplit(self.path)
                url_path = unquote(split.path)
                for prefix, fn in sorted(server._routes.items(), key=lambda kv: -len(kv[0])):
                    if url_path.startswith(prefix):
                        break
                else:
                    return False
                length = int(self.headers.get("Content-Length") or 0)
                req = Request(self.command, url_path[len(prefix):].lstrip("/"), parse_qs(split.query),
                              {k.lower(): v for k, v in self.headers.items()},
                              self.rfile.read(length) if length else b"")
                try:
                    resp = fn(req)
                except Exception as e:  # a handler bug is the page's 500, not a dead server
                    resp = Response(500, {"error": f"{type(e).__name__}: {e}"})
                self.send_response(resp.status)
                body = resp.payload()
                self.send_header("Content-Type", resp.content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                for k, v in resp.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)
                return True

            def do_GET(self):
                if self._route():
                    return
                self._api() if self.path.startswith("/api/") else self._static()

            do_HEAD = do_GET

            def do_POST(self):
                if self._route():
                    return
                self._api() if self.path.startswith("/api/") else self._send(405, b"", "text/plain")

            do_PUT = do_POST
            do_DELETE = do_POST

        self._httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="hybridgym-appserver", daemon=True)
        self._thread.start()

    def route(self, prefix: str, handler: RouteHandler) -> None:
        """Answer every request whose path starts with `prefix` with `handler(Request)`."""
        if not prefix.startswith("/"):
            raise ValueError(f"a route prefix starts with '/', got {prefix!r}")
        self._routes[prefix] = handler

    def mount(self, prefix: str, folder: Path) -> None:
        """Serve the static files of `folder` under the URL path `prefix` (e.g. "/miniwob/")."""
        if not (prefix.startswith("/") and prefix.endswith("/")):
            raise ValueError(f"a mount prefix starts and ends with '/', got {prefix!r}")
        folder = Path(folder).resolve()
        if not folder.is_dir():
            raise ValueError(f"cannot mount {folder}: not a folder")
        self._mounts[prefix] = folder

    def reset(self) -> None:
        """Forget the episode's routes, mounts and records."""
        self._routes.clear()
        self._mounts.clear()
        self.store.load({}, {})

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
