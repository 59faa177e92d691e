"""The desktop's accessibility tree (AT-SPI) on a real Xvfb desktop with the computer suite's real
apps: nodes with their roles, names, states and screen boxes; a click at a box's centre (through
the env's own step) hits the widget; the tree follows the apps after a step; caps hold; a reader
that dies or meets hostile names does not break a read. xterm has no accessibility support: it
exports no tree (only its window is listed)."""

from __future__ import annotations

import time

import gymnasium as gym
import pytest

import hybridgym  # noqa: F401  (registers the envs)
from hybridgym.sandbox import Sandbox
from hybridgym.sandbox.atspi import CONTAINER_ROLES, text_form

W, H = 1280, 800
KEYS = {"id", "parent", "depth", "role", "name", "value", "states", "box", "app"}


@pytest.fixture(scope="module")
def desk():
    sb = Sandbox(W, H, desktop=True).start()
    yield sb
    sb.close()


@pytest.fixture
def clean(desk):
    desk.kill_apps()
    desk.workspace.clear()
    yield desk
    desk.kill_apps()


def _tree(sb, **kw) -> list[dict]:
    nodes = sb.accessibility_tree(**kw)
    assert "error" not in sb._a11y.last, sb._a11y.last
    return nodes


def _find(nodes, role, name=None, app=None):
    return [n for n in nodes if n["role"] == role and (name is None or n["name"] == name)
            and (app is None or n["app"] == app)]


def _wait_tree(sb, pred, timeout=5.0):
    """The tree once `pred(nodes)` holds (an app registers on the bus a moment after its window maps)."""
    deadline = time.monotonic() + timeout
    while True:
        nodes = _tree(sb)
        if pred(nodes) or time.monotonic() > deadline:
            return nodes
        time.sleep(0.1)


def _check_format(nodes):
    for i, n in enumerate(nodes):
        assert set(n) == KEYS, n
        assert n["id"] == i
        if n["parent"] == -1:
            assert n["depth"] == 0
        else:
            assert 0 <= n["parent"] < i and n["depth"] == nodes[n["parent"]]["depth"] + 1
        assert isinstance(n["role"], str) and n["role"]
        assert len(n["name"]) <= 200 and len(n["value"]) <= 200
        assert set(n["states"]) <= {"focused", "focusable", "selected", "checked", "pressed", "expanded",
                                    "editable", "disabled"}
        assert n["box"] is None or (len(n["box"]) == 4 and all(isinstance(v, int) for v in n["box"]))
        assert n["box"] or n["name"] or any(m["parent"] == i for m in nodes)


def _inside(box, outer):
    x, y, w, h = box
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def test_calculator_buttons_have_screen_boxes_that_a_click_through_the_env_hits():
    env = gym.make("hybridgym/Computer-v0")
    try:
        env.reset(seed=0, options={"task": "computer.calculator-to-editor-v0"})
        sb = env.unwrapped.sandbox
        nodes = _wait_tree(sb, lambda ns: _find(ns, "toggle button", "7", "galculator"))
        _check_format(nodes)
        calc = [w for w in sb.windows() if "galculator" in w["wm_class"]][0]
        assert sum(w["focused"] for w in sb.windows()) == 1
        display = _find(nodes, "text", app="galculator")[0]
        before = display["value"]
        for digit in "73":
            (button,) = _find(nodes, "toggle button", digit, "galculator")
            assert _inside(button["box"], calc["geometry"]), (button, calc)
            x, y, w, h = button["box"]
            env.step({"action_type": "click", "x": x + w // 2, "y": y + h // 2})
            nodes = _wait_tree(sb, lambda ns: digit in _find(ns, "text", app="galculator")[0]["value"])
        value = _find(nodes, "text", app="galculator")[0]["value"]
        assert value.strip() == "73", (before, value)   # the tree followed the clicks
        # the editor of the task is in the tree too, the focused window's app first
        assert _find(nodes, "menu", "File", "mousepad")
        focused_app = [w for w in sb.windows() if w["focused"]][0]["wm_class"][0]
        assert nodes[0]["app"] == focused_app
    finally:
        env.close()


def test_editor_text_value_follows_typing_and_is_capped(clean):
    clean.open_app("editor")
    nodes = _wait_tree(clean, lambda ns: _find(ns, "text", app="mousepad"))
    _check_format(nodes)
    for menu in ("File", "Edit", "Search", "View", "Document", "Help"):
        assert _find(nodes, "menu", menu, "mousepad"), menu
    (text,) = [n for n in _find(nodes, "text", app="mousepad") if "editable" in n["states"]]
    assert "focused" in text["states"] and text["value"] == ""
    clean.input.type_text("hello tree")
    nodes = _wait_tree(clean, lambda ns: any(n["value"] == "hello tree" for n in _find(ns, "text", app="mousepad")))
    assert any(n["value"] == "hello tree" for n in _find(nodes, "text", app="mousepad"))
    clean.input.type_text(" x" * 200)
    nodes = _wait_tree(clean, lambda ns: any(len(n["value"]) == 200 for n in _find(ns, "text", app="mousepad")))
    assert [len(n["value"]) for n in _find(nodes, "text", app="mousepad") if "editable" in n["states"]] == [200]


def test_hostile_names_are_capped_and_do_not_break_the_reader(clean):
    # a file name is the agent's: quotes, braces, backslashes, a newline and 200+ characters,
    # which mousepad puts into its window title (the frame's name)
    name = 'x"}]{\\\n' + "\u00e9\u4e2d\U0001f600" * 5 + "A" * 180 + ".txt"
    clean.workspace.write_text(name, "data")
    clean.open_app("editor", name)
    nodes = _wait_tree(clean, lambda ns: _find(ns, "frame", app="mousepad"))
    _check_format(nodes)
    (frame,) = _find(nodes, "frame", app="mousepad")
    assert len(frame["name"]) == 200 and 'x"}]{\\\n' in frame["name"]
    assert _tree(clean)   # and the reader still answers


def test_file_manager_gtk2_and_image_viewer_expose_their_widgets(clean):
    clean.workspace.write_text("Documents/a.txt", "a")
    clean.open_app("files", "Documents")
    nodes = _wait_tree(clean, lambda ns: _find(ns, "push button", "Parent Folder", "pcmanfm"))
    _check_format(nodes)
    assert _find(nodes, "menu", "Bookmarks", "pcmanfm")
    location = [n for n in _find(nodes, "text", app="pcmanfm") if "editable" in n["states"]]
    assert location and location[0]["value"].endswith("/Documents")
    assert "disabled" in _find(nodes, "push button", "Next Folder", "pcmanfm")[0]["states"]
    clean.kill_apps()
    clean.open_app("images")
    nodes = _wait_tree(clean, lambda ns: _find(ns, "push button", "Fullscreen", "ristretto"))
    _check_format(nodes)
    assert not _find(nodes, "frame", app="pcmanfm")   # a killed app leaves the tree
    assert "disabled" in _find(nodes, "push button", "Zoom In", "ristretto")[0]["states"]


def test_spreadsheet_tree_and_the_node_cap(clean):
    clean.open_app("spreadsheet")
    nodes = _wait_tree(clean, lambda ns: _find(ns, "push button", "Sum", "gnumeric"))
    _check_format(nodes)
    assert len(nodes) > 60
    for name in ("Bold", "Italic"):
        assert _find(nodes, "toggle button", name, "gnumeric")
    assert _find(nodes, "page tab", "Sheet1", "gnumeric")
    small = _tree(clean, max_nodes=30)
    assert len(small) == 30 and clean._a11y.last["truncated"]
    # the cap keeps the depth-first prefix; a container's box (a panel's, a filler's) is its own extents in a
    # capped read and its children's union in a whole one
    def same(ns):
        return [{**n, "box": None} if n["role"] in CONTAINER_ROLES else n for n in ns]
    assert same(small) == same(nodes[:30])
    assert all(n["box"] for n in small if n["role"] in CONTAINER_ROLES)
    _check_format(small)


def test_xterm_has_no_tree_but_its_window_is_listed(clean):
    clean.open_app("terminal")
    time.sleep(0.5)
    nodes = _tree(clean)
    assert not [n for n in nodes if n["app"] == "xterm"]   # xterm has no accessibility support
    wins = [w for w in clean.windows() if "xterm" in w["wm_class"]]
    assert len(wins) == 1 and wins[0]["focused"] and wins[0]["app"] == "xterm" and wins[0]["geometry"][2] == W


def test_a_dead_reader_is_started_again(clean):
    clean.open_app("calculator")
    nodes = _wait_tree(clean, lambda ns: _find(ns, "toggle button", "7"))
    proc = clean._a11y._proc
    proc.kill()
    proc.wait()
    again = _wait_tree(clean, lambda ns: _find(ns, "toggle button", "7"))
    assert clean._a11y._proc is not proc
    assert [(n["role"], n["name"], n["box"]) for n in again] == [(n["role"], n["name"], n["box"]) for n in nodes]
    # a reset's kill of the apps spares the reader (a session process)
    reader = clean._a11y._proc
    clean.kill_apps()
    assert reader.poll() is None
    assert _tree(clean) == [] or all(n["app"] != "galculator" for n in _tree(clean))


def test_text_form_is_compact(clean):
    clean.open_app("calculator")
    nodes = _wait_tree(clean, lambda ns: _find(ns, "toggle button", "7"))
    text = text_form(nodes)
    assert text.count("\n") == len(nodes) - 1 and "toggle button '7'" in text


def test_desktop_browser_exposes_its_toolbar_and_page(clean):
    clean.open_app("browser")
    bar_of = lambda ns: [n for n in ns if n["role"] == "entry" and n["name"] == "Address and search bar"]  # noqa: E731
    nodes = _wait_tree(clean, lambda ns: bar_of(ns) and _find(ns, "document web"), timeout=15)
    _check_format(nodes)
    (bar,) = bar_of(nodes)
    assert bar["box"] and bar["box"][1] < 120 and "editable" in bar["states"]
    assert _find(nodes, "push button", "Reload")
    assert _find(nodes, "document web")   # the page's own tree (Chromium's renderer accessibility)
