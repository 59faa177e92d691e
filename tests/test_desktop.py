"""The computer suite's desktop on a real Xvfb: apps start and become ready, the panel and window rules hold, reset restores the home."""

from __future__ import annotations

import subprocess

import pytest

from hybridgym.assets import ASSETS
from hybridgym.sandbox import APPS, Sandbox
from hybridgym.sandbox.desktop import BACKGROUND, PANEL_HEIGHT, _session_pids

from .conftest import cmdline, descendants

W, H = 1280, 800


@pytest.fixture(scope="module")
def desk():
    sb = Sandbox(W, H, desktop=True, web_root=ASSETS / "desktop" / "web").start()
    yield sb
    sb.close()


@pytest.fixture
def clean(desk):
    desk.kill_apps()
    desk.workspace.clear()
    yield desk
    desk.kill_apps()


def _app_windows(sb: Sandbox) -> list[dict]:
    return [w for w in sb.windows() if "tint2" not in w["wm_class"]]


@pytest.mark.parametrize("name", sorted(APPS))
def test_each_app_starts_and_its_window_lands_where_the_rules_say(clean, name):
    wid = clean.open_app(name)
    x, y, w, h = clean.window_geometry(wid)
    placement = APPS[name].placement
    if placement == "maximized":
        assert x == 0 and w == W and y + h == H - PANEL_HEIGHT, (x, y, w, h)
    else:
        assert (x, y, w, h) == placement


def test_open_apps_starts_several_together_and_focuses_the_last(clean):
    clean.workspace.write_text("Documents/a.txt", "a")
    wids = clean.open_apps("terminal", ("files", "Documents"), "editor")
    assert [clean.window_geometry(w)[2] for w in wids] == [W, W, W]
    from Xlib import X, display as xdisplay
    d = xdisplay.Display(clean.display.name)
    try:
        active = d.screen().root.get_full_property(d.intern_atom("_NET_ACTIVE_WINDOW"), X.AnyPropertyType)
    finally:
        d.close()
    assert active.value[0] == wids[-1]


def test_the_panel_is_up_at_the_bottom_and_the_background_is_painted(clean):
    panel = [w for w in clean.windows() if "tint2" in w["wm_class"]]
    assert [w["geometry"] for w in panel] == [(0, H - PANEL_HEIGHT, W, PANEL_HEIGHT)]
    r, g, b = (int(v) for v in clean.capture.grab()[200, 600])
    assert (r, g, b) == ((BACKGROUND >> 16) & 255, (BACKGROUND >> 8) & 255, BACKGROUND & 255)


def test_a_panel_launcher_starts_an_app_and_kill_apps_stops_it(clean):
    clean.input.click(19, H - PANEL_HEIGHT // 2)    # the first launcher: the terminal
    clean.input.sync()
    clean.wait_ready("xterm", placement="maximized")
    clean.kill_apps()
    assert _app_windows(clean) == []


def test_apps_share_the_home_and_settings_land_in_the_home(clean):
    clean.open_app("calculator")
    assert (clean.workspace.root / ".config/galculator").is_dir()   # it saves its settings there at quit
    env = clean.desktop.env()
    assert env["HOME"] == str(clean.workspace.root) and env["GSETTINGS_BACKEND"] == "keyfile"


def test_the_browser_reaches_only_the_local_server(desk):
    argv = desk.desktop.argv("browser")
    assert "--proxy-server=http://127.0.0.1:9" in argv
    assert any(a.startswith("--proxy-bypass-list=<-loopback>;127.0.0.1:") for a in argv)
    assert any(a.startswith(f"--user-data-dir={desk.workspace.root}") for a in argv)


def test_fonts_render_cjk():
    out = subprocess.run(["fc-match", "sans:lang=zh-cn"], capture_output=True, text=True).stdout
    assert "CJK" in out


def test_reset_restores_the_home_and_restarts_the_apps(suite_env):
    env = suite_env("computer").unwrapped
    env.reset(seed=0, options={"task": "computer.files-rename-v0"})
    sb = env.sandbox
    template = sorted(sb.workspace.snapshot())
    sb.workspace.write_text("stray.txt", "left over")
    sb.open_app("calculator")
    env.reset(seed=0, options={"task": "computer.files-rename-v0"})
    assert sorted(sb.workspace.snapshot()) == template
    assert [w["wm_class"][0] for w in _app_windows(sb)] == ["pcmanfm"]


def test_closing_the_desktop_leaves_no_process():
    before = descendants()
    sb = Sandbox(640, 480, desktop=True).start()
    sb.open_app("terminal")
    sb.open_app("images")    # its settings service (xfconfd) is started by the bus and detaches
    started = descendants() - before
    assert any("tint2" in cmdline(p) for p in started) and any("dbus-daemon" in cmdline(p) for p in started)
    runtime = str(sb.desktop.runtime)
    sb.close()
    assert not [cmdline(p) for p in descendants() - before]
    assert _session_pids(runtime) == []
