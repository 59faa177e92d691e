"""A local web server per env on 127.0.0.1 (a free port): static app files, the web apps' backends, a task's own routes.

A web app's backend is a `JsonBackend` subclass (endpoints, JSON bodies, error answers,
one lock, one episode's data). `AppServer.install(prefix, Backend)` serves the server's
one instance of it under `prefix`; `AppServer.reset()` empties every backend. The
`RecordStore` (named collections of records at `/api/`) is one such backend, always
installed, as `server.store`.
"""

from __future__ import annotations

import copy
import json
import mimetypes
import sys
import re
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, ClassVar, TypeVar
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


class ApiError(Exception):
    """An endpoint's refusal: answered with `status` and `{"error": message, **extra}`."""

    def __init__(self, status: int, message: str, **extra: object):
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra

    def response(self) -> Response:
        return Response(self.status, {"error": self.message, **self.extra})


def endpoint(method: str, pattern: str):
    """Mark a `JsonBackend` method as the answer to `method` on `pattern`, a path below the
    backend's prefix whose `{name}` parts match one path segment each ("orders/{oid}");
    a method may carry several marks."""
    def mark(fn):
        fn.endpoints = (*getattr(fn, "endpoints", ()), (method.upper(), pattern))
        return fn
    return mark


def _match(pattern: tuple[str, ...], parts: list[str]) -> dict[str, str] | None:
    if len(pattern) != len(parts):
        return None
    captures = {}
    for want, got in zip(pattern, parts):
        if want.startswith("{") and want.endswith("}"):
            captures[want[1:-1]] = got
        elif want != got:
            return None
    return captures


class JsonBackend:
    """The base of a web app's backend: its endpoints, JSON bodies, error answers, and one episode's data.

    A subclass marks its methods with `@endpoint("GET", "orders/{oid}")`. Such a method gets
    the request, the JSON body (a dict, {} when the request has none) and the pattern's
    `{names}` as keyword strings; it returns a `Response` or a JSON value (answered 200) and
    raises `ApiError` to refuse. Requests are answered one at a time, under `lock`. A path no
    endpoint matches is answered by `not_found` (a JSON 404), a known path with another
    method 405, a body that is not a JSON object 400.

    The data: `load(...)` fills in one episode's (it passes its arguments to the subclass's
    `populate`, after `clear()`); `reset()`, which the server calls at every env reset, empties
    it, and until the next `load` every request is answered 503. Subclasses define `clear()`
    (the state of a backend without data), `populate(...)` and a `state()` for checkers.
    """

    #: what the app is called in error messages
    name: ClassVar[str] = "web app"
    #: where the app's pages call it (their JavaScript names it); `AppServer.install` takes it
    prefix: ClassVar[str] = "/"
    _endpoints: ClassVar[list[tuple[str, tuple[str, ...], str]]] = []

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        found = []
        for klass in reversed(cls.__mro__):
            for attr, fn in vars(klass).items():
                for method, pattern in getattr(fn, "endpoints", ()):
                    found.append((method, tuple(p for p in pattern.split("/") if p), attr))
        cls._endpoints = found

    def __init__(self):
        self.lock = threading.RLock()
        self.loaded = False
        self.clear()

    # -- the episode's data ----------------------------------------------------
    def clear(self) -> None:
        """Empty the state: the backend as it is without an episode's data."""

    def populate(self, *args, **kwargs) -> None:
        raise NotImplementedError(f"{type(self).__name__} defines no populate(...): it cannot load data")

    def load(self, *args, **kwargs):
        """Replace the state by one episode's data (the arguments of `populate`); returns the backend."""
        with self.lock:
            self.clear()
            self.populate(*args, **kwargs)
            self.loaded = True
        return self

    def reset(self) -> None:
        """Forget the episode's data (the server calls this at every env reset)."""
        with self.lock:
            self.clear()
            self.loaded = False

    # -- HTTP ---------------------------------------------------------------
    def __call__(self, req: Request) -> Response:
        parts = [p for p in req.path.split("/") if p]
        method = "GET" if req.method == "HEAD" else req.method
        others = []
        for want, pattern, attr in self._endpoints:
            captures = _match(pattern, parts)
            if captures is None:
                continue
            if want == method:
                break
            others.append(want)
        else:
            if others:
                return Response(405, {"error": f"/{req.path} answers {' or '.join(sorted(set(others)))}, "
                                               f"not {req.method}"})
            return self.not_found(req)
        try:
            body = self._body(req)
            with self.lock:
                if not self.loaded:
                    raise ApiError(503, f"the {self.name} has no data for this episode: a task's setup "
                                        f"loads it (server.install(...).load(...))")
                out = getattr(self, attr)(req, body, **captures)
        except ApiError as e:
            return e.response()
        return out if isinstance(out, Response) else Response(200, out)

    def not_found(self, req: Request) -> Response:
        """The answer to a path no endpoint matches (a JSON 404 naming the API's module)."""
        return Response(404, {"error": f"no {self.name} endpoint {req.method} /{req.path}; "
                                       f"see {type(self).__module__} for the API"})

    @staticmethod
    def _body(req: Request) -> dict:
        if not req.body:
            return {}
        try:
            data = json.loads(req.body)
        except ValueError:
            raise ApiError(400, "the request body is not JSON") from None
        if data is None:
            return {}
        if not isinstance(data, dict):
            raise ApiError(400, "the request body must be a JSON object")
        return data


class RecordStore(JsonBackend):
    """The backend state of a simple web app: named collections of JSON records with integer ids.

    The app's pages read and write it through `/api/<collection>[/<id>]`
    (GET list / GET one / POST create / PUT update / DELETE); checkers read
    `snapshot()`. A task seeds it at reset with `load()`.
    """

    name = "record API"
    prefix = "/api/"

    def __init__(self):
        super().__init__()
        self.load({}, {})

    def clear(self) -> None:
        self._data: dict[str, list[dict]] = {}
        self._next_id = 1
        self.fields: dict[str, tuple[str, ...]] = {}  # collection -> fields a client may set

    def load(self, collections: dict[str, list[dict]], fields: dict[str, tuple[str, ...]]) -> "RecordStore":
        """Replace every collection: `collections` (records get ids from 1 in order) and the fields a client may set."""
        with self.lock:
            self.clear()
            self.fields = dict(fields)
            for name, rows in collections.items():
                self._data[name] = []
                for row in rows:
                    self._data[name].append({"id": self._next_id, **copy.deepcopy(row)})
                    self._next_id += 1
            for name in fields:
                self._data.setdefault(name, [])
            self.loaded = True
        return self

    def reset(self) -> None:
        self.load({}, {})

    def snapshot(self) -> dict[str, list[dict]]:
        with self.lock:
            return copy.deepcopy(self._data)

    # -- records, for the endpoints and for backends built on a store ---------------
    def add(self, name: str, values: dict) -> dict:
        """A new record of `name` with `values` (fields a client may set); returns it."""
        with self.lock:
            row = {"id": self._next_id, **self._clean(name, values)}
            self._next_id += 1
            self._rows(name).append(row)
            return copy.deepcopy(row)

    def update(self, name: str, rid: int | str, values: dict) -> dict:
        """Set `values` on record `rid` of `name`; returns it."""
        with self.lock:
            row = self._row(name, rid)
            row.update(self._clean(name, values))
            return copy.deepcopy(row)

    def _rows(self, name: str) -> list[dict]:
        if name not in self._data:
            raise ApiError(404, f"no collection {name!r}; have {sorted(self._data)}")
        return self._data[name]

    def _row(self, name: str, rid: int | str) -> dict:
        rows = self._rows(name)
        try:
            rid = int(rid)
        except ValueError:
            raise ApiError(400, f"record id must be an integer, got {rid!r}") from None
        match = [r for r in rows if r["id"] == rid]
        if not match:
            raise ApiError(404, f"no record {rid} in {name}")
        return match[0]

    def _clean(self, name: str, body: dict) -> dict:
        allowed = self.fields.get(name, ())
        unknown = sorted(set(body) - set(allowed))
        if unknown:
            raise ApiError(400, f"unknown fields {unknown} for {name}; allowed: {list(allowed)}")
        bad = [k for k, v in body.items() if not isinstance(v, (str, int, float, bool)) and v is not None]
        if bad:
            raise ApiError(400, f"fields {bad} must be strings, numbers or booleans")
        return dict(body)

    @endpoint("GET", "{name}")
    def list_records(self, req, body, name):
        return copy.deepcopy(self._rows(name))

    @endpoint("POST", "{name}")
    def create_record(self, req, body, name):
        if not req.body:
            raise ApiError(400, "request body must be a JSON object")
        return Response(201, self.add(name, body))

    @endpoint("GET", "{name}/{rid}")
    def get_record(self, req, body, name, rid):
        return copy.deepcopy(self._row(name, rid))

    @endpoint("PUT", "{name}/{rid}")
    def update_record(self, req, body, name, rid):
        if not req.body:
            raise ApiError(400, "request body must be a JSON object")
        return self.update(name, rid, body)

    @endpoint("DELETE", "{name}/{rid}")
    def delete_record(self, req, body, name, rid):
        row = self._row(name, rid)
        self._rows(name).remove(row)
        return {"deleted": row["id"]}


class _QuietServer(ThreadingHTTPServer):
    """A browser that drops a connection mid-request (a page left while loading) is normal here."""

    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)):
            return
        super().handle_error(request, client_address)


B = TypeVar("B", bound=JsonBackend)


def _longest(table: dict, path: str):
    """(value, prefix) of the longest prefix of `path` in `table`, or (None, "")."""
    for prefix in sorted(table, key=len, reverse=True):
        if path.startswith(prefix):
            return table[prefix], prefix
    return None, ""


def _check_prefix(prefix: str, kind: str) -> None:
    if not (prefix.startswith("/") and prefix.endswith("/")):
        raise ValueError(f"a {kind} prefix starts and ends with '/', got {prefix!r}")


class AppServer:
    """Serves `root` (static files), the web apps' backends and a task's own routes on 127.0.0.1.

    A request is answered by, in this order: a route the task added for its episode
    (`route("/report.csv", fn)`, any method, longest prefix first); a static file of `root`
    or of a folder mounted for the episode (`mount("/miniwob/", folder)`; GET and HEAD); an
    installed backend (`install("/shop/api/", ShopApp)`, longest prefix first); else 404.
    `reset()` (called by the env at every reset, before the task's setup) removes the
    routes and mounts and empties every backend. `store` is the RecordStore at `/api/`.

    `host`: the name the browser knows the server by (e.g. "webapps.test"): `origin` and `url()` are then
    `http://<host>/...`, the same in every process, and the browser maps the name to the server's
    127.0.0.1 port (`browser_flags`: Chromium's `--host-resolver-rules`), so the address bar shows no random
    port. Without it, the origin is `http://127.0.0.1:<port>`. `local_origin` is always the latter
    (for an HTTP client of this process).
    """

    def __init__(self, root: Path, host: str | None = None):
        if host is not None and not re.fullmatch(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+", host):
            raise ValueError(f"host must be a dotted lower-case name such as 'webapps.test', got {host!r}")
        self.host = host
        self.root = Path(root).resolve()
        self._routes: dict[str, RouteHandler] = {}
        self._mounts: dict[str, Path] = {}
        self._backends: dict[str, JsonBackend] = {}
        self.store = self.install(RecordStore.prefix, RecordStore)
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                resp = server.respond(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                payload = resp.payload()
                self.send_response(resp.status)
                self.send_header("Content-Type", resp.content_type)
                self.send_header("Content-Length", str(len(payload)))
                self.send_header("Cache-Control", "no-store")
                for k, v in resp.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(payload)

            do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = _answer

        self._handler = Handler
        self._servers: list[tuple[_QuietServer, threading.Thread]] = []
        self._httpd = self._start(_QuietServer(("127.0.0.1", 0), Handler))

    def _start(self, httpd: "_QuietServer") -> "_QuietServer":
        httpd.daemon_threads = True
        thread = threading.Thread(target=httpd.serve_forever, name="hybridgym-appserver", daemon=True)
        thread.start()
        self._servers.append((httpd, thread))
        return httpd

    def serve(self, sock: socket.socket) -> None:
        """Answer on one more listening socket too (the env's jail reaches the server through a
        socket of its network namespace: `Jail.listen(server.port)`)."""
        httpd = _QuietServer(sock.getsockname(), self._handler, bind_and_activate=False)
        httpd.socket.close()
        httpd.socket = sock
        self._start(httpd)

    def respond(self, method: str, url: str, headers: dict[str, str], body: bytes = b"") -> Response:
        """The answer to one request (`url`: its path and query, as sent)."""
        split = urlsplit(url)
        path = unquote(split.path)
        handler, prefix = _longest(self._routes, path)
        if handler is None and method in ("GET", "HEAD"):
            static = self._static_file(path)
            if static is not None:
                ctype = mimetypes.guess_type(static.name)[0] or "application/octet-stream"
                if ctype.startswith("text/") or ctype in ("application/javascript", "application/json"):
                    ctype += "; charset=utf-8"   # the pages are UTF-8 (else Chromium guesses Latin-1)
                return Response(200, static.read_bytes(), ctype)
        if handler is None:
            handler, prefix = _longest(self._backends, path)
        if handler is None:
            return Response(404, b"not found", "text/plain") if method in ("GET", "HEAD") else Response(405, b"", "text/plain")
        req = Request(method, path[len(prefix):].lstrip("/"), parse_qs(split.query), headers, body)
        try:
            return handler(req)
        except Exception as e:  # a handler bug is the page's 500, not a dead server
            return Response(500, {"error": f"{type(e).__name__}: {e}"})

    def _static_file(self, url_path: str) -> Path | None:
        root, rel = self.root, url_path.lstrip("/")
        mount, prefix = _longest(self._mounts, url_path)
        if mount is not None:
            root, rel = mount, url_path[len(prefix):]
        target = (root / (rel or "index.html")).resolve()
        if target.is_dir():
            target = target / "index.html"
        return target if root in target.parents and target.is_file() else None

    def install(self, prefix: str, backend: type[B]) -> B:
        """Serve `prefix` with this server's one instance of `backend` (a JsonBackend class); returns it.

        The first call makes the instance; later calls return the same one for as long as the
        server lives (the env's reset empties it: its `load(...)` fills in an episode's data).
        A task's setup and `read_state` both reach the backend this way."""
        _check_prefix(prefix, "backend")
        have = self._backends.get(prefix)
        if have is None:
            have = self._backends[prefix] = backend()
        elif type(have) is not backend:
            raise ValueError(f"{prefix} is served by {type(have).__name__} on this server, not {backend.__name__}")
        return have

    def route(self, prefix: str, handler: RouteHandler) -> None:
        """Answer, for this episode, every request whose path starts with `prefix` with `handler(Request)`."""
        if not prefix.startswith("/"):
            raise ValueError(f"a route prefix starts with '/', got {prefix!r}")
        self._routes[prefix] = handler

    def mount(self, prefix: str, folder: Path) -> None:
        """Serve, for this episode, the static files of `folder` under the URL path `prefix` (e.g. "/miniwob/")."""
        _check_prefix(prefix, "mount")
        folder = Path(folder).resolve()
        if not folder.is_dir():
            raise ValueError(f"cannot mount {folder}: not a folder")
        self._mounts[prefix] = folder

    def reset(self) -> None:
        """Forget the episode: its routes and mounts, and every backend's data (the store's records too)."""
        self._routes.clear()
        self._mounts.clear()
        for backend in list(self._backends.values()):
            backend.reset()

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def origin(self) -> str:
        """The origin pages are loaded from: `http://<host>` (stable), or `http://127.0.0.1:<port>` without a host."""
        return f"http://{self.host}" if self.host else self.local_origin

    @property
    def local_origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def browser_flags(self) -> list[str]:
        """Chromium flags for a browser that shows this server's pages: Chromium's host-resolver rule that
        sends `host` (port 80) to the server's port, and the name treated as a secure context, as 127.0.0.1
        is (crypto.subtle, the clipboard API, ...)."""
        if not self.host:
            return []
        return [f"--host-resolver-rules=MAP {self.host}:80 127.0.0.1:{self.port}",
                f"--unsafely-treat-insecure-origin-as-secure={self.origin}"]

    def url(self, path: str = "/", **query: object) -> str:
        q = "&".join(f"{k}={v}" for k, v in query.items())
        return f"{self.origin}/{path.lstrip('/')}" + (f"?{q}" if q else "")

    def close(self) -> None:
        for httpd, thread in self._servers:
            httpd.shutdown()
            httpd.server_close()
            thread.join(timeout=5)
        self._servers.clear()
