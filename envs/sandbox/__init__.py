"""What an env stands on: a display, input, capture, a browser, a local web server, apps, and the SDK.

`Sandbox` composes the parts a suite needs, executes typed actions on them,
and owns their lifetime: `close()` stops everything it started, also after a
crash of the browser or the display.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import socket
import signal
import subprocess
import tempfile
import time
import weakref
from pathlib import Path

from ..actions import model as A
from .actuators import XActuator
from . import reaper
from .browser import CHROMIUM, MARKER_HEIGHT, MARKER_WIDTH, ChromiumBrowser
from .capture import XShmCapture
from .desktop import APPS, Desktop, app_named
from .display import XvfbDisplay
from .errors import SandboxError
from .jail import Jail, Limits, desktop_assets
from .phone import ChromiumPhone, PhoneBackend, TouchActuator
from .processes import kill_group
from .shell import BubblewrapShell, ShellResult
from .webserver import ApiError, AppServer, JsonBackend, RecordStore, Request, Response, endpoint
from .windows import XWindows
from .workspace import PathEscapeError, Workspace
from .xinput import XTestInput

__all__ = ["Sandbox", "SandboxError", "ChromiumBrowser", "XShmCapture", "XvfbDisplay",
           "BubblewrapShell", "ShellResult", "Jail", "Limits", "AppServer", "RecordStore", "Request", "Response", "Workspace",
           "JsonBackend", "ApiError", "endpoint",
           "PathEscapeError", "XTestInput", "XWindows", "Desktop", "APPS", "PhoneBackend", "ChromiumPhone"]


# Sandboxes started and not yet closed. A script that ends without close() (an uncaught
# exception, a forgotten env) would otherwise leave its Xvfb, apps and workspace behind.
_OPEN: "weakref.WeakSet[Sandbox]" = weakref.WeakSet()


@atexit.register
def _close_open_sandboxes() -> None:
    for sb in list(_OPEN):
        try:
            sb.close()
        except Exception:
            pass


class Sandbox:
    """The machine one env acts on: it starts the parts, owns their lifetime, and hands actions
    to its actuator (`XActuator`; on a touch screen `TouchActuator` through `self.phone`).

    width, height: the display in pixels (the screenshot size).
    browser: None, "window" (a browser window with tabs) or "app" (one full-screen page).
    scale: screen pixels per CSS pixel in the browser; touch: a touch screen (Chromium turns pointer input into touch events).
    web_root: a folder served on 127.0.0.1 with a JSON record API (AppServer).
    web_host: the name the browsers know that server by (e.g. "webapps.test"; `AppServer`'s `host`): the
        same address in every process, so the address bar shows the same pixels for the same seed.
    limits: what the agent's programs may spend (`hybridgym.sandbox.jail.Limits`); every program
        the agent can drive runs in the sandbox's `jail`.
    desktop: the computer suite's desktop session (implies a window manager): a private D-Bus,
        openbox with its window rules, the tint2 panel, a background; apps from `APPS` start
        with `open_app(name, *args)` (see `hybridgym.sandbox.desktop`).
    marker_rows: with a browser window, the X screen is that many rows taller than `height`, the window
        covers them and its pages draw the frame marker there (`ChromiumBrowser`), out of every screenshot
        (the capture is `width` x `height`) and out of the pointer's reach (actions are on the screenshot);
        the screen's pixels are then also kept in a private memory-mapped file (`capture.Framebuffer`)
        to read the marker without a request to X (`XShmCapture.read_marked`).
    """

    def __init__(self, width: int, height: int, *, browser: str | None = None, scale: float = 1.0,
                 touch: bool = False, web_root: Path | None = None,
                 shell_timeout: float = 30.0, desktop: bool = False, refresh_hz: int = 60,
                 limits: Limits | None = None, web_host: str | None = None, page_channel: bool = False,
                 marker_rows: int = 0):
        if marker_rows and browser != "window":
            raise ValueError("marker_rows needs browser='window'")
        self.width, self.height = width, height
        self.marker_rows = int(marker_rows)
        self._fb_dir: str | None = None   # the screen's memory-mapped file's folder (with marker_rows)
        self.refresh_hz = refresh_hz
        self._browser_mode, self._scale, self._touch = browser, scale, touch
        self._page_channel = page_channel
        self._web_root, self._shell_timeout, self._web_host = web_root, shell_timeout, web_host
        self.display: XvfbDisplay | None = None
        self.input: XTestInput | None = None
        self.capture: XShmCapture | None = None
        self.browser: ChromiumBrowser | None = None
        self.server: AppServer | None = None
        self.workspace: Workspace | None = None
        self.shell: BubblewrapShell | None = None
        self.x_windows: XWindows | None = None
        self.actuator: XActuator | TouchActuator | None = None
        self.phone: PhoneBackend | None = None
        self._desktop_wanted = desktop
        self.desktop: Desktop | None = None
        self._apps: list[subprocess.Popen] = []
        self._limits = limits
        self.jail: Jail | None = None
        self.timings: dict[str, float] = {}
        self._a11y = None   # the desktop's AccessibilityReader, started at the first read
        #: the sentinel pressed after the reset's Escape (`dismiss_browser_dialogs`), left for a task
        #: whose set-up waits for it itself (`Task.waits_for_escape`); None once waited for
        self.unseen_escape: int | None = None
        #: whether the task's set-up gives the frame marker a colour once the page shows the new episode, for the
        #: first picture (set by the observer before each set-up: `PageFrame.before_setup`)
        self.first_marked = False

    def _channel_listener(self):
        """Makes the listening socket of the browser's page channel (`hybridgym.sandbox.channel`): on 127.0.0.1
        in the jail's network namespace, where only its GUI programs are; the host's as a non-root user."""
        if not self.jail.shares_host_network:
            return lambda: self.jail.listen(0)

        def listen():
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            s.listen(16)
            return s
        return listen

    # -- lifetime ----------------------------------------------------------
    def start(self) -> "Sandbox":
        _OPEN.add(self)
        try:
            t = time.perf_counter()
            self.jail = Jail(self._limits).start()
            if self.marker_rows:   # in memory: Xvfb writes every frame there
                self._fb_dir = _framebuffer_dir(self.width * (self.height + self.marker_rows) * 4)
                if self._fb_dir is not None:
                    reaper.register("dir", self._fb_dir)
            self.display = XvfbDisplay(self.width, self.height + self.marker_rows, refresh_hz=self.refresh_hz,
                                       framebuffer_dir=self._fb_dir).start()
            reaper.register("pid", str(self.display.pid))
            self.input = XTestInput(self.display.name)
            self.capture = XShmCapture(self.display.name, self.width, self.height, framebuffer=self.display.framebuffer)
            self.x_windows = XWindows(self.display.name)
            self.timings["display_s"] = time.perf_counter() - t
            self.workspace = Workspace(self.jail.home, owned=False)
            if self.jail.privileged:
                self.workspace.owner = (self.jail.uid, self.jail.gid)
            self.shell = BubblewrapShell(self.workspace.root, jail=self.jail, timeout=self._shell_timeout)
            if self._web_root is not None:
                self.server = AppServer(self._web_root, host=self._web_host)
                if not self.jail.shares_host_network:   # the jail's programs reach it at the same URL
                    self.server.serve(self.jail.listen(self.server.port))
            if self._desktop_wanted:
                t = time.perf_counter()
                self.desktop = Desktop(self.display.name, self.jail,
                                       (self.server.origin,) if self.server else (),
                                       extra_flags=self.server.browser_flags if self.server else ()).start()
                # apps opened before the panel is up would be maximized over it
                self.wait_for_window("tint2", timeout=10)
                self.timings["desktop_s"] = time.perf_counter() - t
            if self._browser_mode is not None:
                t = time.perf_counter()
                # GTK settings with animations off: Chromium's window frame then stops animating
                # (read from the config dirs; Chromium writes its own config in a private home)
                # (Chromium runs in the jail: its home, config and profile are the jail's, out of the workspace)
                config = self.jail.dir / "browser"
                config.mkdir(exist_ok=True)
                self.jail.give(config)
                browser_env = self.jail.env(DISPLAY=self.display.name, HOME=str(config), XDG_CONFIG_HOME=str(config),
                                            XDG_CACHE_HOME=str(config / "cache"),
                                            XDG_CONFIG_DIRS=f"{_xdg_config()}:/etc/xdg")
                executable = self.jail.executable("chromium", [CHROMIUM], browser_env, display=self.display.name,
                                                  binds=(str(config),), ro_binds=(str(_xdg_config()),),
                                                  policy="driven", cwd=config)
                self.browser = ChromiumBrowser(browser_env, self.width, self.height, executable=executable,
                                               owner=self.workspace.owner,
                                               mode=self._browser_mode, scale=self._scale,
                                               touch=self._touch,
                                               allowed_origins=(self.server.origin,) if self.server else (),
                                               extra_flags=self.server.browser_flags if self.server else (),
                                               downloads=self.workspace.root / "Downloads",
                                               channel=self._channel_listener() if self._page_channel else None,
                                               marker_rows=self.marker_rows).start()
                # the first window keeps animating its frame for a while: let it finish now
                self.browser.load("about:blank")
                self.capture.settle(quiet=0.5, max_wait=3.0)
                self.timings["browser_s"] = time.perf_counter() - t
            keys = XActuator(self.input, (self.width, self.height), wm_barrier=self.desktop is not None)
            if self._touch and self.browser is not None:
                self.phone = ChromiumPhone(self.input, self.browser, self.capture, (self.width, self.height))
                self.actuator = TouchActuator(self.phone, keys)
            else:
                self.actuator = keys
        except Exception:
            self.close()
            raise
        return self

    @property
    def marker_point(self) -> tuple[int, int] | None:
        """Where `read_marked` looks at the frame marker on the screen (below the screenshot), or None (no marker,
        or no framebuffer to read it in): the middle of its strip of `MARKER_WIDTH` x `MARKER_HEIGHT` pixels at the left
        of the hidden rows' top (the rows below it hold the browser's status bubble)."""
        if not self.marker_rows or self.browser is None or self.capture is None or self.capture.framebuffer is None:
            return None
        return MARKER_WIDTH // 2, self.height + (MARKER_HEIGHT - 1) // 2

    def launch_app(self, argv: list[str], **env: str) -> subprocess.Popen:
        """Start a desktop program on the display, in the workspace, with HOME = the workspace
        (and, on a desktop sandbox, the desktop session's environment: `Desktop.env`), in the
        env's jail. The workspace's files are made the jail's first (`give_workspace`)."""
        self.give_workspace()
        if self.desktop is not None:
            proc = self.desktop.spawn(argv, self.desktop.env(**env))
        else:
            child_env = self.jail.env(DISPLAY=self.display.name, XDG_CONFIG_HOME=str(self.workspace.root / ".config"),
                                      NO_AT_BRIDGE="1", GTK_A11Y="none", **env)
            proc = self.jail.spawn(argv, child_env, display=self.display.name)
        self._apps.append(proc)
        return proc

    def dismiss_browser_dialogs(self) -> int | None:
        """Close what the browser shows over its page (a dialog such as "DevTools not allowed on
        this page", a menu, the omnibox's list): such a dialog belongs to the window, not the
        page, and would survive the next episode's load. Presses Escape twice (the second undoes
        an address the agent began to type: the first only closes the omnibox's list) and the
        input barrier's sentinel, and returns the sentinel's number for `dialogs_dismissed` (other
        work can go on while the keys travel); None without a browser page."""
        if self.browser is None or self.browser.page is None:
            return None
        # sent, not waited for (X keeps one connection's requests in order, and the sentinel after them tells when
        # they arrived): two round trips to the X server fewer in a reset
        self.input.hotkey(("esc",), wait=False)
        self.input.hotkey(("esc",), wait=False)
        try:
            return self.browser.send_sentinel(self.input)
        except Exception:   # a page gone meanwhile: the next load replaces it anyway
            return None

    #: how long `dialogs_dismissed` waits for the page to see the sentinel: a menu or the address bar that had
    #: the keys never passes it on (Escape closed or reverted it), and is gone from the screen well within this
    DIALOG_GONE_S = 0.15

    @property
    def dialog_frames(self) -> int:
        """`DIALOG_GONE_S` in frames of the display's rate (the unit of the page's sentinel wait)."""
        return max(10, round(self.DIALOG_GONE_S * (self.refresh_hz or 60)))

    def dialogs_dismissed(self, sentinel: int | None) -> None:
        """Wait until the page saw the Escapes of `dismiss_browser_dialogs`, or `DIALOG_GONE_S` (in
        frames of the display's rate): if a dialog kept the keys, Escape closed it and the page
        never sees them."""
        if sentinel is None or self.browser is None or self.browser.page is None:
            return
        try:
            self.browser.sentinel_seen(sentinel, max_frames=self.dialog_frames)
        except Exception:
            pass

    def shown_path(self, rel: "str | os.PathLike" = "") -> str:
        """The path the agent's programs see for `rel` (a path in the workspace): under `/home/user`
        (`jail.INSIDE_HOME`) in a jail, the same in every process; what a person types into a file dialog."""
        path = str(self.workspace.root / os.fspath(rel).lstrip("/")).rstrip("/")
        return self.jail.inside(path) if self.jail is not None else path

    def give_workspace(self) -> None:
        """Make every file of the workspace the jail's (what the task's set-up wrote as the owner):
        the agent's programs can then change them, as a person can change their own files."""
        if self.jail is not None and self.workspace is not None:
            self.jail.give(self.workspace.root)

    def open_app(self, name: str, *args: str, title: str | None = None, timeout: float = 15.0) -> int:
        """Start a desktop app of `APPS` ("terminal", "editor", "files", "calculator",
        "spreadsheet", "images", "browser", or its program name) with `args` (files, folders,
        URLs; paths relative to the home), wait until its window is ready (`wait_ready`) and
        return the window id. Needs a desktop sandbox (`Sandbox(..., desktop=True)`)."""
        if self.desktop is None:
            raise SandboxError("open_app needs a desktop sandbox: Sandbox(..., desktop=True) (the computer suite)")
        key, app = app_named(name)
        self.desktop.prepare_home(key)
        self.launch_app(self.desktop.argv(key, *args))
        return self.wait_ready(app.wm_class, title or app.ready_title, timeout=timeout, placement=app.placement,
                               quiet=app.quiet)

    def open_apps(self, *apps: "str | tuple[str, ...]", timeout: float = 20.0) -> list[int]:
        """Start several apps at once (each a name or a (name, *args) tuple), wait until every
        window is ready, then give the focus to the last one, as if it had been opened last;
        returns the window ids in the given order. Faster than `open_app` one by one."""
        if self.desktop is None:
            raise SandboxError("open_apps needs a desktop sandbox: Sandbox(..., desktop=True) (the computer suite)")
        specs = [(a,) if isinstance(a, str) else tuple(a) for a in apps]
        for name, *args in specs:
            key, _ = app_named(name)
            self.desktop.prepare_home(key)
            self.launch_app(self.desktop.argv(key, *args))
        wids = []
        for name, *_ in specs:
            app = app_named(name)[1]
            wids.append(self.wait_ready(app.wm_class, app.ready_title, timeout=timeout, placement=app.placement,
                                        quiet=0.0))
        self.activate_window(wids[-1])
        self.capture.settle(quiet=max(app_named(s[0])[1].quiet for s in specs), max_wait=3.0)
        return wids

    def activate_window(self, wid: int) -> None:
        """Raise a window and give it the keyboard focus, as a taskbar click does (`XWindows.activate`)."""
        self.x_windows.activate(wid)

    def wait_ready(self, wm_class: str | None = None, title: str | None = None, *, timeout: float = 15.0,
                   placement: str | tuple[int, int, int, int] | None = None, quiet: float = 0.12) -> int:
        """Wait by probing until a window is ready to use, and return its id: it is mapped
        (`wait_for_window`), the window manager has placed it (its geometry matches `placement`,
        "maximized" or (x, y, w, h), or else stops changing), and the screen has been still for
        `quiet` seconds (`capture.settle`)."""
        deadline = time.monotonic() + timeout
        wid = self.wait_for_window(wm_class, title, timeout=timeout)
        last = None
        while time.monotonic() < deadline:
            try:
                geo = self.window_geometry(wid)
            except Exception:   # replaced by another window (a splash, a re-parented one): look again
                wid = self.wait_for_window(wm_class, title, timeout=max(0.1, deadline - time.monotonic()))
                continue
            if placement == "maximized":
                placed = geo[2] == self.width
            elif placement is not None:
                placed = geo == tuple(placement)
            else:
                placed = geo == last
            if placed and geo == last:
                break
            last = geo
            time.sleep(0.03)
        else:
            raise SandboxError(f"the window of {wm_class!r} did not reach its place {placement!r} within "
                               f"{timeout:.0f} s (last geometry {last})")
        self.capture.settle(quiet=quiet, max_wait=max(0.2, min(3.0, deadline - time.monotonic())))
        return wid

    def window_geometry(self, wid: int) -> tuple[int, int, int, int]:
        """(x, y, width, height) of a window's client area in screen pixels (no frame)."""
        return self.x_windows.geometry(wid)

    def windows(self) -> list[dict]:
        """The mapped top-level windows: id, wm_class (instance, class), app (the instance),
        title, geometry (x, y, w, h of the client area) and focused (the window manager's active
        window, _NET_ACTIVE_WINDOW); in stacking order, the bottom one first (as X lists them)."""
        out = self.x_windows.list()
        active = None
        with contextlib.suppress(Exception):
            from Xlib import X
            d = self.x_windows._x
            prop = d.screen().root.get_full_property(d.intern_atom("_NET_ACTIVE_WINDOW"), X.AnyPropertyType)
            active = prop.value[0] if prop is not None and len(prop.value) else None
        for w in out:
            w["app"] = w["wm_class"][0] if w["wm_class"] else ""
            w["focused"] = active is not None and w["id"] == active
        return out

    def accessibility_tree(self, max_nodes: int = 2000, time_limit: float = 1.0) -> list[dict]:
        """The desktop's AT-SPI tree: the showing widgets of every app, each with role, name,
        value, states and box in screen pixels (see `hybridgym.sandbox.atspi`), at most
        `max_nodes`. Needs a desktop sandbox; the reader starts at the first call."""
        if self.desktop is None:
            raise SandboxError("accessibility_tree needs a desktop sandbox: Sandbox(..., desktop=True)")
        if self._a11y is None:
            from .atspi import AccessibilityReader
            self._a11y = AccessibilityReader(self.desktop)
        return self._a11y.tree(max_nodes, time_limit)

    def desktop_tree(self, windows: list[dict] | None = None, max_nodes: int = 2000) -> list[dict]:
        """What the desktop shows as one tree: the apps' AT-SPI nodes (`accessibility_tree`), a window node
        for each window of an app that exposes none (xterm: no accessibility support; its title and
        geometry, state "opaque": what is inside it is not known), and the panel's launchers and task list
        (`Desktop.panel_nodes`)."""
        windows = self.windows() if windows is None else windows
        nodes = self.accessibility_tree(max_nodes=max_nodes)
        apps = {str(n.get("app", "")).casefold() for n in nodes}
        extra: list[list[dict]] = []
        for w in windows:
            app = str(w.get("app", ""))
            if app and app.casefold() not in apps and "tint2" not in (w.get("wm_class") or ()):
                extra.append([{"id": 0, "parent": -1, "depth": 0, "role": "window", "name": str(w.get("title", ""))[:200],
                               "value": "", "states": ["opaque", *(["focused"] if w.get("focused") else [])],
                               "box": list(w["geometry"]), "app": app}])
        extra.append(self.desktop.panel_nodes(windows, (self.width, self.height)))
        for part in extra:          # appended with ids and parents renumbered into the list
            base = len(nodes)
            for n in part:
                if len(nodes) >= max_nodes:
                    return nodes
                nodes.append({**n, "id": base + n["id"], "parent": -1 if n["parent"] < 0 else base + n["parent"]})
        return nodes

    def wait_for_window(self, wm_class: str | None = None, title: str | None = None,
                        timeout: float = 10.0) -> int:
        """Poll the X window tree until a mapped window whose WM_CLASS contains `wm_class`
        and whose title contains `title` exists (either may be None); return its id."""
        return self.x_windows.find(wm_class, title, timeout)

    def kill_apps(self) -> None:
        """Stop every app this sandbox started (and, on a desktop, what the panel launched)."""
        # desktop apps are killed outright: the home they could save into is emptied next anyway
        first = signal.SIGKILL if self.desktop is not None else signal.SIGTERM
        for proc in self._apps:
            kill_group(proc, first)
        self._apps.clear()
        if self.desktop is not None:
            self.desktop.kill_launched()

    def health(self, deep: bool = True) -> str | None:
        """None if every part is alive, else what died.

        deep=False makes no round trip to the browser: it sees a browser that Playwright
        already knows is gone, not one that died since the last call to it."""
        if self.display is None or not self.display.is_alive():
            return "the X display died"
        if self.browser is not None and not self.browser.is_alive(deep):
            return "the browser died"
        return None

    def close(self) -> None:
        _OPEN.discard(self)
        if self._a11y is not None:
            with contextlib.suppress(Exception):
                self._a11y.close()
            self._a11y = None
        self.kill_apps()
        self.actuator = self.phone = None
        for part in ("browser", "server", "x_windows", "capture", "input"):
            obj = getattr(self, part)
            setattr(self, part, None)
            if obj is not None:
                with contextlib.suppress(Exception):   # a crashed part: close the others
                    obj.close()
        if self.desktop is not None:
            self.desktop.close()
            self.desktop = None
        if self.display is not None:
            pid = self.display.pid
            self.display.stop()
            self.display = None
            reaper.forget("pid", str(pid))
        if self._fb_dir is not None:
            shutil.rmtree(self._fb_dir, ignore_errors=True)
            reaper.forget("dir", self._fb_dir)
            self._fb_dir = None
        if self.workspace is not None:
            self.workspace.remove()
            self.workspace = None
        if self.jail is not None:
            self.jail.close()
            self.jail = None

    # -- acting --------------------------------------------------------------
    def execute(self, action: A.Action) -> None:
        """Perform one GUI action (pointer, keyboard, touch, the phone's buttons) on the screen."""
        self.actuator.execute(action)


#: room left in /dev/shm beside a screen's framebuffer file: Xvfb writes the file as it draws, and a full
#: tmpfs would kill it (SIGBUS) at its next frame
SHM_SPARE_BYTES = 64 << 20


def _framebuffer_dir(size: int) -> str | None:
    """A private folder (0700) in /dev/shm for a screen's memory-mapped framebuffer of `size` bytes, or None when
    /dev/shm has no room for it (a container's default 64 MB, say): the frame marker is then not read, and a
    step waits for a quiet screen instead."""
    try:
        st = os.statvfs("/dev/shm")
    except OSError:
        return None
    if st.f_bavail * st.f_frsize < size + SHM_SPARE_BYTES:
        return None
    return tempfile.mkdtemp(prefix="hybridgym-fb-", dir="/dev/shm")


def _xdg_config() -> Path:
    """GTK's settings with animations off, where the jailed browser can read them."""
    return desktop_assets() / "xdg-config"
