"""The per-env web server: static files, the record API, installed app backends, and a task's own routes and mounts."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from hybridgym.sandbox import AppServer, Response
from hybridgym.sandbox.webserver import ApiError, JsonBackend, RecordStore, endpoint


def _get(url: str, data: bytes | None = None, method: str | None = None):
    req = urllib.request.Request(url, data=data, method=method)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


@pytest.fixture
def server(tmp_path):
    (tmp_path / "index.html").write_text("<p>root</p>")
    srv = AppServer(tmp_path)
    yield srv
    srv.close()


def test_route_answers_its_prefix_with_the_handlers_response(server):
    seen = []

    def handler(req):
        seen.append((req.method, req.path, req.arg("q"), req.json()))
        return Response(200, {"hits": [req.arg("q")]}, headers={"X-Test": "1"})

    server.route("/search/", handler)
    status, headers, body = _get(server.url("/search/items", q="lamp"))
    assert status == 200 and json.loads(body) == {"hits": ["lamp"]} and headers["X-Test"] == "1"
    _get(server.url("/search/x"), data=b'{"a": 1}', method="POST")
    assert seen == [("GET", "items", "lamp", None), ("POST", "x", "", {"a": 1})]


def test_longest_prefix_wins_and_handler_errors_become_500(server):
    server.route("/a/", lambda req: Response(200, "short", "text/plain"))
    server.route("/a/b/", lambda req: 1 / 0)
    assert _get(server.url("/a/x"))[2] == b"short"
    status, _, body = _get(server.url("/a/b/c"))
    assert status == 500 and b"ZeroDivisionError" in body


def test_mount_serves_a_folder_and_refuses_escapes(server, tmp_path_factory):
    other = tmp_path_factory.mktemp("pages")
    (other / "page.html").write_text("<p>mounted</p>")
    server.mount("/pages/", other)
    status, headers, body = _get(server.url("/pages/page.html"))
    assert body == b"<p>mounted</p>" and headers["Content-Type"] == "text/html; charset=utf-8"
    assert _get(server.url("/pages/../index.html"))[0] in (200, 404)  # normalized by the client
    assert _get(server.url("/pages/%2e%2e/index.html"))[0] == 404
    with pytest.raises(ValueError):
        server.mount("/nope/", other / "missing")


def test_reset_removes_routes_mounts_and_records(server, tmp_path_factory):
    other = tmp_path_factory.mktemp("pages")
    (other / "p.html").write_text("x")
    server.route("/r/", lambda req: Response(200, "r", "text/plain"))
    server.mount("/m/", other)
    server.store.load({"notes": [{"t": "a"}]}, {"notes": ("t",)})
    assert json.loads(_get(server.url("/api/notes"))[2]) == [{"id": 1, "t": "a"}]
    server.reset()
    assert _get(server.url("/r/x"))[0] == 404
    assert _get(server.url("/m/p.html"))[0] == 404
    assert _get(server.url("/api/notes"))[0] == 404
    assert _get(server.url("/"))[2] == b"<p>root</p>"


def test_record_api_creates_updates_and_refuses_unknown_fields(server):
    server.store.load({}, {"notes": ("t", "done")})
    status, _, body = _get(server.url("/api/notes"), data=b'{"t": "x"}', method="POST")
    assert status == 201 and json.loads(body) == {"id": 1, "t": "x"}
    assert _get(server.url("/api/notes/1"), data=b'{"done": true}', method="PUT")[0] == 200
    assert server.store.snapshot() == {"notes": [{"id": 1, "t": "x", "done": True}]}
    status, _, body = _get(server.url("/api/notes/1"), data=b'{"colour": "red"}', method="PUT")
    assert status == 400 and "unknown fields ['colour']" in json.loads(body)["error"]
    assert _get(server.url("/api/notes/x"))[0] == 400
    assert _get(server.url("/api/notes/1"), method="DELETE")[0] == 200 and server.store.snapshot() == {"notes": []}


class Counter(JsonBackend):
    """A backend for the tests: a count per name."""

    name = "counter"
    prefix = "/count/api/"

    def clear(self):
        self.counts = {}

    def populate(self, start: int):
        self.counts = {"a": start}

    def state(self):
        return dict(self.counts)

    @endpoint("GET", "counts/{key}")
    def get(self, req, body, key):
        if key not in self.counts:
            raise ApiError(404, f"no count {key!r}", known=sorted(self.counts))
        return {"key": key, "n": self.counts[key]}

    @endpoint("POST", "counts/{key}")
    def add(self, req, body, key):
        self.counts[key] = self.counts.get(key, 0) + int(body.get("by", 1))
        return Response(201, {"n": self.counts[key]})


def test_install_gives_the_same_backend_until_the_server_closes_and_reset_empties_it(server):
    backend = server.install(Counter.prefix, Counter)
    assert server.install(Counter.prefix, Counter) is backend
    status, _, body = _get(server.url("/count/api/counts/a"))
    assert status == 503 and "no data for this episode" in json.loads(body)["error"]
    backend.load(5)
    assert json.loads(_get(server.url("/count/api/counts/a"))[2]) == {"key": "a", "n": 5}
    assert _get(server.url("/count/api/counts/b"), data=b'{"by": 2}', method="POST")[0] == 201
    assert backend.state() == {"a": 5, "b": 2}
    server.reset()
    assert server.install(Counter.prefix, Counter) is backend and backend.state() == {}
    assert _get(server.url("/count/api/counts/a"))[0] == 503
    with pytest.raises(ValueError):
        server.install(Counter.prefix, RecordStore)
    assert server.install(RecordStore.prefix, RecordStore) is server.store


def test_a_json_backend_answers_unknown_paths_wrong_methods_and_bad_bodies(server):
    server.install(Counter.prefix, Counter).load(1)
    status, _, body = _get(server.url("/count/api/counts/zz"))
    assert status == 404 and json.loads(body) == {"error": "no count 'zz'", "known": ["a"]}
    status, _, body = _get(server.url("/count/api/nothing/here"))
    assert status == 404 and "no counter endpoint GET /nothing/here" in json.loads(body)["error"]
    status, _, body = _get(server.url("/count/api/counts/a"), method="DELETE")
    assert status == 405 and "GET or POST" in json.loads(body)["error"]
    status, _, body = _get(server.url("/count/api/counts/a"), data=b"{nope", method="POST")
    assert status == 400 and "not JSON" in json.loads(body)["error"]
    status, _, body = _get(server.url("/count/api/counts/a"), data=b"[1, 2]", method="POST")
    assert status == 400 and "JSON object" in json.loads(body)["error"]


def test_a_static_file_comes_before_a_backend_under_the_same_prefix(server, tmp_path):
    (tmp_path / "count").mkdir()
    (tmp_path / "count" / "page.html").write_text("<p>page</p>")
    server.install("/count/", Counter).load(3)
    assert _get(server.url("/count/page.html"))[2] == b"<p>page</p>"
    assert json.loads(_get(server.url("/count/counts/a"))[2])["n"] == 3
