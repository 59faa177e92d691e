"""The per-env web server: static files, the record API, and a task's own routes and mounts."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from hybridgym.sandbox import AppServer, Response


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
    server.reset()
    assert _get(server.url("/r/x"))[0] == 404
    assert _get(server.url("/m/p.html"))[0] == 404
    assert _get(server.url("/api/notes"))[0] == 404
    assert _get(server.url("/"))[2] == b"<p>root</p>"
