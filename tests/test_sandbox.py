"""The sandbox parts on their own: workspace confinement, the bubblewrap shell, the app server, the display and browser."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from hybridgym.assets import ASSETS
from hybridgym.sandbox import (AppServer, BubblewrapShell, Jail, PathEscapeError, Sandbox, Workspace)

from hybridgym.sandbox.processes import cmdline, descendants


@pytest.fixture
def ws():
    w = Workspace()
    yield w
    w.remove()


@pytest.fixture
def jail():
    j = Jail().start()
    yield j
    j.close()


# -- file API ---------------------------------------------------------------
def test_file_api_refuses_paths_outside_the_workspace(ws):
    ws.write_text("a/b.txt", "ok")
    assert ws.read_text("a/b.txt") == "ok"
    assert ws.read_text(str(ws.root / "a/b.txt")) == "ok"
    for bad in ["../escape.txt", "/etc/passwd", "a/../../x", "", "a\x00b"]:
        with pytest.raises(PathEscapeError):
            ws.resolve(bad)
    os.symlink("/etc", ws.root / "link")
    with pytest.raises(PathEscapeError):
        ws.read_text("link/passwd")
    with pytest.raises(PathEscapeError):
        ws.write_text("link/evil", "x")
    assert not os.path.exists("/etc/evil")


def test_file_api_caps_reads(ws):
    ws.max_read_bytes = 10
    ws.write_text("big.txt", "x" * 100)
    assert ws.read_text("big.txt").startswith("x" * 10 + "\n[truncated")


# -- shell --------------------------------------------------------------------
def test_shell_writes_only_the_workspace(jail):
    sh = BubblewrapShell(jail.home, jail=jail, timeout=10)
    r = sh.run("echo hi > f.txt && cat f.txt && touch /etc/hybridgym-probe; echo rc=$?; touch /root/x; echo rc=$?")
    assert "hi" in r.output and r.output.count("rc=1") == 2
    assert (jail.home / "f.txt").read_text() == "hi\n"
    assert not os.path.exists("/etc/hybridgym-probe")


def test_shell_has_no_network(jail):
    # a real server on this machine's loopback, reachable from the test process
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        sh = BubblewrapShell(jail.home, jail=jail, timeout=10)
        r = sh.run(f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2)\" "
                   f"&& echo CONNECTED || echo REFUSED")
        assert "REFUSED" in r.output and "CONNECTED" not in r.output
    finally:
        srv.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="the jail's network namespace needs root")
def test_shell_with_network_reaches_only_the_envs_own_listener(jail):
    host = socket.socket()
    host.bind(("127.0.0.1", 0))
    host.listen(1)
    inside = jail.listen(host.getsockname()[1] + 1 if host.getsockname()[1] < 65535 else 1024)
    try:
        sh = BubblewrapShell(jail.home, jail=jail, timeout=10, network=True)
        probe = "(exec 3<>/dev/tcp/127.0.0.1/{}) 2>/dev/null && echo OPEN-{} || echo SHUT-{}"
        r = sh.run("; ".join(probe.format(p, p, p) for p in (host.getsockname()[1], inside.getsockname()[1])))
        assert f"SHUT-{host.getsockname()[1]}" in r.output and f"OPEN-{inside.getsockname()[1]}" in r.output
        offline = BubblewrapShell(jail.home, jail=jail, timeout=10).run(probe.format(*[inside.getsockname()[1]] * 3))
        assert "SHUT" in offline.output
    finally:
        host.close()
        inside.close()


def test_shell_time_limit_kills_the_command(jail):
    sh = BubblewrapShell(jail.home, jail=jail, timeout=1.0)
    r = sh.run("sleep 30; echo never")
    assert r.timed_out and r.exit_code is None and "never" not in r.output
    assert r.seconds < 5
    assert "time limit" in r.render()


def test_shell_caps_output(jail):
    sh = BubblewrapShell(jail.home, jail=jail, timeout=10, max_output=1000)
    r = sh.run("yes hybridgym")
    assert r.truncated and len(r.output) <= 1000
    assert "[output truncated at 1000 bytes]" in r.render()


def test_shell_reports_exit_codes(jail):
    r = BubblewrapShell(jail.home, jail=jail).run("exit 3")
    assert r.exit_code == 3 and "[exit code 3]" in r.render()


# -- app server -------------------------------------------------------------
def test_app_server_serves_files_and_records():
    srv = AppServer(ASSETS / "web")
    try:
        srv.store.load({"todos": [{"title": "a", "priority": "low", "done": False}]},
                       {"todos": ("title", "priority", "done")})
        page = urllib.request.urlopen(srv.url("/todo/index.html")).read()
        assert b"Taskboard" in page
        rows = json.load(urllib.request.urlopen(srv.url("/api/todos")))
        assert rows == [{"id": 1, "title": "a", "priority": "low", "done": False}]
        req = urllib.request.Request(srv.url("/api/todos"), method="POST",
                                     data=json.dumps({"title": "b", "priority": "high"}).encode())
        assert json.load(urllib.request.urlopen(req))["id"] == 2
        bad = urllib.request.Request(srv.url("/api/todos"), method="POST", data=b'{"evil": 1}')
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(bad)
        assert e.value.code == 400 and b"allowed" in e.value.read()
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(srv.url("/../../etc/passwd"))
        assert len(srv.store.snapshot()["todos"]) == 2
    finally:
        srv.close()


# -- display, input, capture, browser ---------------------------------------
def test_display_is_private_and_close_stops_everything():
    before_display = os.environ.get("DISPLAY")
    before = descendants()
    sb = Sandbox(640, 480, browser="window", web_root=ASSETS / "web").start()
    try:
        assert os.environ.get("DISPLAY") == before_display
        assert sb.display.name.startswith(":")
        frame = sb.capture.grab()
        assert frame.shape == (480, 640, 3) and frame.dtype == np.uint8
        assert len(descendants() - before) >= 2   # Xvfb and Chromium at least
    finally:
        sb.close()
    left = descendants() - before

    assert not [cmdline(p) for p in left if "playwright" not in cmdline(p)], "processes left after close()"


class _Echo(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *a):
        pass


@pytest.mark.parametrize("web_host", [None, "webapps.test"])
def test_browser_reaches_only_the_task_server(web_host):
    other = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    sb = Sandbox(640, 480, browser="window", web_root=ASSETS / "web", web_host=web_host).start()
    try:
        page = sb.browser.load(sb.server.url("/todo/index.html"))
        probe = "u => fetch(u, {mode: 'no-cors'}).then(() => 'reached', () => 'blocked')"
        assert page.evaluate(probe, sb.server.url("/api/todos")) == "reached"
        assert page.evaluate(probe, f"http://127.0.0.1:{other.server_address[1]}/") == "blocked"
        assert page.evaluate(probe, "http://192.0.2.1/") == "blocked"
        assert page.evaluate(probe, "http://example.com/") == "blocked"
        if web_host:   # the name maps to the task's server on port 80 only; other names and ports stay unreachable
            assert page.url.startswith(f"http://{web_host}/")
            for url in (f"http://{web_host}:{other.server_address[1]}/", "http://other.test/",
                        f"http://sub.{web_host}/", f"https://{web_host}/"):
                assert page.evaluate(probe, url) == "blocked", url
    finally:
        sb.close()
        other.shutdown()
        other.server_close()


def test_xtest_types_unicode_into_chromium():
    sb = Sandbox(640, 480, browser="window", web_root=ASSETS / "web").start()
    try:
        page = sb.browser.load(sb.server.url("/todo/index.html"))
        x, y = sb.browser.screen_point("#title")
        sb.input.click(x, y)
        text = "Zoë's café — 会议 ✓ \"q\" <b>"
        sb.input.type_text(text)
        page.wait_for_function("t => document.getElementById('title').value === t", arg=text, timeout=5000)
    finally:
        sb.close()


def test_phone_taps_and_swipes_arrive_as_touch_events():
    from hybridgym.actions import model as A
    sb = Sandbox(720, 1600, browser="app", scale=2.0, touch=True, web_root=ASSETS / "phone").start()
    try:
        from hybridgym.tasks.kit.phone import boot_phone
        boot_phone(sb, {"contacts": [{"name": "Ana Li", "phone": "1"}]}, {"contacts": ("name", "phone")})
        page = sb.browser.page
        page.evaluate("window.__ev = []; for (const t of ['touchstart', 'touchmove', 'touchend', 'click']) "
                      "addEventListener(t, e => __ev.push(t), true)")
        x, y = sb.browser.screen_point("#icon-contacts")
        sb.execute(A.Tap(x, y))
        page.wait_for_function("__ev.includes('click')", timeout=5000)
        assert page.evaluate("__ev.slice(0, 2)") == ["touchstart", "touchend"]
        page.wait_for_function("phone.state().app === 'contacts'", timeout=5000)
        page.evaluate("__ev = []")
        sb.execute(A.Swipe(360, 1200, 360, 500))
        page.wait_for_function("__ev.includes('touchend')", timeout=5000)
        assert page.evaluate("__ev.filter(e => e === 'touchmove').length") >= 3
    finally:
        sb.close()


def test_settle_returns_what_the_browser_drew_after_the_mark():
    sb = Sandbox(320, 240, browser="app", web_root=ASSETS / "web").start()
    try:
        cap, page = sb.capture, sb.browser.load(sb.server.url("/todo/index.html"))
        cap.settle(quiet=0.05)
        cap.mark()
        before = cap.grab_raw()
        frame, raw, info = cap.settle(before=before, change_timeout=0.1, quiet=0.01)
        assert not info["changed"] and info["damage_events"] == 0 and raw == before
        cap.mark()
        before = cap.grab_raw()
        page.evaluate("""() => { const d = document.createElement('div');
            d.style.cssText = 'position:fixed;inset:0;background:rgb(255,0,0);z-index:99';
            document.body.append(d); }""")
        frame, raw, info = cap.settle(before=before, change_timeout=5.0, quiet=0.02)
        assert info["changed"] and info["damage_events"] >= 1
        assert (frame[20:200, 20:280] == (255, 0, 0)).all(), "the frame is not the one drawn after the change"
        assert frame.flags.writeable and np.array_equal(frame, cap.grab())
        # the X server's clock, as the damage events carry it, against ours
        cap.mark()
        page.evaluate("document.querySelector('div[style*=fixed]').style.background = 'rgb(0, 0, 255)'")
        assert cap.damage.wait(5.0)
        a0 = cap.damage.age()
        time.sleep(0.2)
        a1 = cap.damage.age()
        assert 0 <= a0 < 1.0 and 0.19 <= a1 - a0 < 1.0
        # a picture drawn longer ago than `older_than` does not end the wait for the change
        for older_than, events in ((0.15, 0), (None, 1)):
            cap.mark()
            page.evaluate("document.querySelector('div[style*=fixed]').style.background = 'rgb(0, 0, %d)'"
                          % (0 if older_than else 99))
            time.sleep(0.4)   # drawn meanwhile; the event not read yet
            frame, raw, info = cap.settle(before=raw, change_timeout=0.1, quiet=0.02, older_than=older_than)
            assert info["damage_events"] == events
    finally:
        sb.close()


def test_a_display_can_refresh_faster_than_60_hz():
    from Xlib import display as xdisplay
    from Xlib.ext import randr

    from hybridgym.sandbox import XvfbDisplay
    with pytest.raises(ValueError, match="refresh_hz"):
        XvfbDisplay(320, 240, refresh_hz=0)
    disp = XvfbDisplay(320, 240, refresh_hz=240).start()
    try:
        d = xdisplay.Display(disp.name)
        root = d.screen().root
        res = randr.get_screen_resources(root)
        mode_id = randr.get_crtc_info(root, res.crtcs[0], res.config_timestamp).mode
        mode = next(m for m in res.modes if m.id == mode_id)
        assert (mode.width, mode.height) == (320, 240)
        assert mode.dot_clock / (mode.h_total * mode.v_total) == 240
        d.close()
    finally:
        disp.stop()


def test_waiting_for_a_frame_survives_a_navigation_meanwhile():
    sb = Sandbox(640, 480, browser="window", web_root=ASSETS / "web").start()
    try:
        page = sb.browser.load(sb.server.url("/todo/index.html"))
        # the document is replaced while the env waits for its frames
        page.evaluate("setTimeout(() => { location.href = location.pathname + '?next=1'; }, 5)")
        sb.browser.wait_real_frame()
        page.wait_for_url("**?next=1", timeout=10000)
        sb.browser.wait_real_frame()
    finally:
        sb.close()
