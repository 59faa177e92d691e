"""The computer suite's desktop on a real Xvfb: apps start and become ready, the panel and window rules hold, reset restores the home."""

from __future__ import annotations

import subprocess
import time

import pytest

from hybridgym.assets import ASSETS
from hybridgym.sandbox import APPS, Sandbox
from hybridgym.sandbox.desktop import BACKGROUND, PANEL_HEIGHT, SESSION_VAR

from hybridgym.sandbox.processes import cmdline, descendants, marked

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


def _active(sb: Sandbox) -> int:
    from Xlib import X, display as xdisplay
    d = xdisplay.Display(sb.display.name)
    try:
        return d.screen().root.get_full_property(d.intern_atom("_NET_ACTIVE_WINDOW"), X.AnyPropertyType).value[0]
    finally:
        d.close()


def _wait_active(sb: Sandbox, wid: int, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _active(sb) == wid:
            return True
        time.sleep(0.02)
    return False


def test_a_click_focuses_and_raises_a_window_and_its_title_bar_closes_it(clean):
    """The window manager behaves as a person expects: a taskbar button brings its window to the
    front; a click in a window behind brings it to the front with the keyboard focus (and still
    reaches the app); the title bar's close button closes the window."""
    calc, editor = clean.open_apps("calculator", "editor")   # the editor, maximized, hides the calculator
    assert _active(clean) == editor
    # the first task button (tint2rc: the launchers, then task buttons of at most 220 px in
    # the order of their application: galculator before Mousepad)
    clean.input.click(330, H - PANEL_HEIGHT // 2)
    clean.input.sync()
    assert _wait_active(clean, calc)
    clean.input.click(150, 600)   # the editor, outside the calculator
    clean.input.sync()
    assert _wait_active(clean, editor)
    clean.input.type_text("typed after a click")
    clean.input.sync()
    deadline = time.monotonic() + 3.0
    while not any(t.startswith("*") for t in _titles(clean, "Mousepad")) and time.monotonic() < deadline:
        time.sleep(0.05)
    # Mousepad marks a modified document in its title: the keys went to the editor
    assert any(t.startswith("*") for t in _titles(clean, "Mousepad")), _titles(clean)
    clean.input.click(330, H - PANEL_HEIGHT // 2)
    clean.input.sync()
    assert _wait_active(clean, calc)
    x, y, w, h = clean.window_geometry(calc)
    clean.input.click(x + w - 10, y - 10)   # its close button (title layout NLIMC: close at the right)
    clean.input.sync()
    deadline = time.monotonic() + 5.0
    while any(w["id"] == calc for w in clean.windows()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(w["id"] != calc for w in clean.windows())


def _titles(sb: Sandbox, wm_class: str | None = None) -> list[str]:
    return [w["title"] for w in _app_windows(sb) if wm_class is None or wm_class in w["wm_class"]]


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
    assert marked(SESSION_VAR, runtime) == []
