"""The desktop session of the computer suite: its apps (how to start each, how to tell its window is ready), D-Bus, panel and background.

`APPS` is the one table of desktop apps: a short name -> the program's argv and the
WM_CLASS of its main window. `Sandbox.open_app(name, *args)` starts one in the
episode's home with the desktop's environment and returns once its window is
ready (mapped, placed by the openbox rules, and the screen stable).
`Desktop` owns the session processes that live as long as the env: a private
D-Bus session bus (GLib apps would otherwise autolaunch one that outlives
them), openbox with `assets/desktop/openbox-rc.xml`, the tint2 panel
(`assets/desktop/tint2rc`, one launcher per app and a task list) and the
background colour.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .browser import BASE_FLAGS, CHROMIUM
from .jail import Jail, desktop_assets, kill_uid
from .processes import cmdline, descendants_in, kill_group, kill_pid, marked, table
from .workspace import snapshot_files

#: the root window colour (a muted blue-grey), 0xRRGGBB
#: the mark in every desktop session process's environment (its runtime folder), to find what left the tree
SESSION_VAR = "HYBRIDGYM_DESKTOP"
BACKGROUND = 0x3C4A5C
#: height of the tint2 panel at the bottom of the screen; maximized windows end above it
PANEL_HEIGHT = 32
#: the panel's layout as assets/desktop/tint2rc draws it (screen pixels): launcher icons from LAUNCHER_X0, one
#: every LAUNCHER_DX, LAUNCHER_SIZE square; then the task list's entries from TASK_X0, TASK_W wide, one every
#: TASK_DX, sorted by WM_CLASS (`taskbar_sort_order = application`)
LAUNCHER_X0, LAUNCHER_DX, LAUNCHER_SIZE = 8, 30, 24
TASK_X0, TASK_W, TASK_H, TASK_DX = 222, 220, 28, 224
#: the AT-SPI bus launcher of Debian's at-spi2-core (it starts the accessibility bus and its registry)
A11Y_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
#: the GTK 2 apps' (pcmanfm's) accessibility modules; GTK 3 has its bridge built in and skips them
GTK2_A11Y = "gail:atk-bridge"
#: where the desktop browser keeps its profile, inside the home (app state, ignored by checkers)
BROWSER_PROFILE = ".cache/hybridgym-browser"


@dataclass(frozen=True)
class App:
    """A desktop program: `argv` starts it (task arguments such as files go after it),
    `wm_class` names its main window, `label` is the panel tooltip."""
    argv: tuple[str, ...]
    wm_class: str
    label: str
    icon: str
    #: where openbox puts the main window: "maximized" or (x, y, width, height) of the client area
    placement: str | tuple[int, int, int, int] = "maximized"
    #: a part of the main window's title once it has drawn its content (None: any title)
    ready_title: str | None = None
    #: how long the screen must be still before the window counts as ready (seconds)
    quiet: float = 0.12
    #: folders the app needs in the home before it starts
    home_dirs: tuple[str, ...] = ()
    #: config files copied from assets/desktop/home/ into the home before it starts (if absent):
    #: settings that skip first-run dialogs
    home_files: tuple[str, ...] = ()


APPS: dict[str, App] = {
    "terminal": App(("xterm", "-fa", "DejaVu Sans Mono", "-fs", "11", "-bg", "white", "-fg", "black"),
                    "xterm", "Terminal", "utilities-terminal"),
    "editor": App(("mousepad", "--disable-server"), "mousepad", "Text Editor", "accessories-text-editor"),
    "files": App(("pcmanfm", "--no-desktop"), "pcmanfm", "File Manager", "system-file-manager"),
    "calculator": App(("galculator",), "galculator", "Calculator", "accessories-calculator",
                      placement=(392, 123, 500, 480),
                      home_dirs=(".config/galculator",)),  # it saves its settings at quit only into an existing folder
    "spreadsheet": App(("gnumeric", "--no-splash"), "gnumeric", "Spreadsheet", "gnumeric"),
    "images": App(("ristretto",), "ristretto", "Image Viewer", "ristretto",
                  home_files=(".config/xfce4/xfconf/xfce-perchannel-xml/ristretto.xml",)),
    "browser": App((CHROMIUM,), "Chromium", "Web Browser", "chromium", ready_title="Chromium", quiet=0.3),
}
#: the program names work as app names too (open_app("mousepad") == open_app("editor"))
_ALIASES = {Path(app.argv[0]).name: name for name, app in APPS.items()}


def app_named(name: str) -> tuple[str, App]:
    key = _ALIASES.get(name, name)
    if key not in APPS:
        raise KeyError(f"no desktop app {name!r}; known: {sorted(APPS)} (or their programs {sorted(_ALIASES)})")
    return key, APPS[key]


def browser_flags(home: Path, allowed_origins: tuple[str, ...], extra: tuple[str, ...] = ()) -> list[str]:
    """Chromium as a desktop app: a profile in the home, only the env's local server reachable (`extra`:
    the server's own flags, its host name mapped to its port)."""
    hosts = [urlsplit(o).netloc for o in allowed_origins]
    return [*BASE_FLAGS, *extra, f"--user-data-dir={home / BROWSER_PROFILE}",
            "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=" + ";".join(["<-loopback>", *hosts])]


def _assets() -> Path:
    from ..assets import ASSETS
    return ASSETS / "desktop"


class Desktop:
    """The session around the apps on one display; `start()` once per env, `close()` at the end.

    Every process of the session and every app runs in the env's `jail` (its uid, its view of
    the files, its network namespace; see `hybridgym.sandbox.jail`), and so does every program
    they start: a command typed into the terminal, an app launched from the panel.
    `env()` is the environment every app gets, and nothing else: HOME and the XDG folders in
    the episode's home, the private session bus, GSettings in a keyfile
    (`~/.config/glib-2.0/settings/keyfile`), GTK animations off, and the session's
    accessibility bus (AT-SPI: `at-spi-bus-launcher` on the session bus, its own bus in the
    runtime folder; GTK apps find it through org.a11y.Bus and export their widget tree there,
    which `hybridgym.sandbox.atspi` reads).
    """

    def __init__(self, display_name: str, jail: "Jail", allowed_origins: tuple[str, ...] = (),
                 extra_flags: tuple[str, ...] | list[str] = ()):
        self.display_name, self.jail, self.allowed_origins = display_name, jail, tuple(allowed_origins)
        self.extra_flags = tuple(extra_flags)
        self.home = Path(jail.home)
        self.runtime = Path(jail.run)
        self.bus_address = f"unix:path={self.runtime / 'bus'}"
        self._procs: dict[str, subprocess.Popen] = {}

    def env(self, **extra: str) -> dict[str, str]:
        home = self.home
        env = self.jail.env(
            DISPLAY=self.display_name, XDG_CONFIG_HOME=str(home / ".config"),
            XDG_CACHE_HOME=str(home / ".cache"), XDG_DATA_HOME=str(home / ".local/share"),
            XDG_CONFIG_DIRS=f"{desktop_assets() / 'xdg-config'}:/etc/xdg", XDG_RUNTIME_DIR=str(self.runtime),
            DBUS_SESSION_BUS_ADDRESS=self.bus_address, GSETTINGS_BACKEND="keyfile",
            GTK_OVERLAY_SCROLLING="0", GTK_MODULES=GTK2_A11Y,
            LANG=os.environ.get("LANG") or "C.UTF-8")
        env[SESSION_VAR] = str(self.runtime)
        env.update(extra)
        return env

    def spawn(self, argv: list[str], env: dict[str, str], cwd: "os.PathLike | str | None" = None) -> subprocess.Popen:
        """Start a program of the session in the jail (the display, the session bus, the
        desktop's settings and the desktop browser policy in its view)."""
        return self.jail.spawn(argv, env, display=self.display_name, ro_binds=(str(desktop_assets()),),
                               policy="desktop", cwd=cwd or self.home)

    def prepare_home(self, name: str) -> None:
        """Create what the app needs in the home before it starts (the home is emptied at every reset)."""
        app = app_named(name)[1]
        for folder in app.home_dirs:
            (self.home / folder).mkdir(parents=True, exist_ok=True)
        for rel in app.home_files:
            target = self.home / rel
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(_assets() / "home" / rel, target)

    def argv(self, name: str, *args: str) -> list[str]:
        key, app = app_named(name)
        argv = list(app.argv)
        if key == "browser":
            argv += browser_flags(self.home, self.allowed_origins, self.extra_flags)
        return argv + [str(a) for a in args]

    # -- lifetime ----------------------------------------------------------
    def start(self) -> "Desktop":
        self._spawn("dbus", ["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--address={self.bus_address}"])
        _wait_for(lambda: (self.runtime / "bus").exists(), 5.0, "the D-Bus session bus did not start")
        # the accessibility bus, started now (not activated by the first app: no app waits for it)
        self._spawn("a11y", [A11Y_LAUNCHER, "--launch-immediately", "--a11y=1"])
        self._set_background()
        self._spawn("openbox", ["openbox", "--config-file", str(desktop_assets() / "openbox-rc.xml")])
        self._spawn("panel", ["tint2", "-c", str(self._write_panel_config())])
        return self

    def _spawn(self, key: str, argv: list[str]) -> None:
        # the session's own processes keep their state out of the episode's home
        env = self.env(HOME=str(self.runtime), XDG_CACHE_HOME=str(self.runtime / "cache"))
        self._procs[key] = self.spawn(argv, env)

    def _write_panel_config(self) -> Path:
        """assets/desktop/tint2rc plus one launcher per app (a .desktop file running its argv)."""
        apps_dir = self.runtime / "applications"
        apps_dir.mkdir(exist_ok=True)
        lines = [(_assets() / "tint2rc").read_text()]
        for name, app in APPS.items():
            entry = apps_dir / f"hybridgym-{name}.desktop"
            entry.write_text("[Desktop Entry]\nType=Application\n"
                             f"Name={app.label}\nIcon={app.icon}\nExec={shlex.join(self.argv(name))}\n")
            lines.append(f"launcher_item_app = {entry}")
        rc = self.runtime / "tint2rc"
        rc.write_text("\n".join(lines) + "\n")
        return rc

    def _set_background(self) -> None:
        from Xlib import display as xdisplay
        d = xdisplay.Display(self.display_name)
        try:
            root = d.screen().root
            root.change_attributes(background_pixel=BACKGROUND)
            root.clear_area(0, 0, 0, 0)
            d.sync()
        finally:
            d.close()

    def panel_nodes(self, windows: list[dict], screen: tuple[int, int]) -> list[dict]:
        """The panel (tint2, which has no accessibility support) as accessibility nodes: a push button per
        launcher and per task list entry, laid out as its config draws them (`TASK_X0`, ...), in the node
        format of `hybridgym.sandbox.atspi` (ids from 0; the caller renumbers)."""
        w, h = screen
        top = h - PANEL_HEIGHT
        nodes = [{"id": 0, "parent": -1, "depth": 0, "role": "panel", "name": "panel", "value": "", "states": [],
                  "box": [0, top, w, PANEL_HEIGHT], "app": "tint2"}]
        ly = top + (PANEL_HEIGHT - LAUNCHER_SIZE) // 2
        for i, app in enumerate(APPS.values()):
            nodes.append({"id": len(nodes), "parent": 0, "depth": 1, "role": "push button", "name": app.label,
                          "value": "", "states": [], "app": "tint2",
                          "box": [LAUNCHER_X0 + i * LAUNCHER_DX, ly, LAUNCHER_SIZE, LAUNCHER_SIZE]})
        tasks = sorted((win for win in windows if win.get("wm_class") and "tint2" not in win["wm_class"]),
                       key=lambda win: (win["wm_class"][-1].casefold(), win["id"]))
        ty = top + (PANEL_HEIGHT - TASK_H) // 2
        for i, win in enumerate(tasks):
            x = TASK_X0 + i * TASK_DX
            if x + TASK_W > w:
                break
            nodes.append({"id": len(nodes), "parent": 0, "depth": 1, "role": "push button",
                          "name": str(win.get("title", ""))[:200], "value": "", "app": "tint2",
                          "states": ["pressed"] if win.get("focused") else [], "box": [x, ty, TASK_W, TASK_H]})
        return nodes

    def keep(self, key: str, proc: subprocess.Popen | None) -> None:
        """Count `proc` (a jailed helper such as the accessibility reader) among the session's own
        processes, which `kill_launched` spares; None forgets `key`."""
        if proc is None:
            self._procs.pop(key, None)
        else:
            self._procs[key] = proc

    def panel_alive(self) -> bool:
        p = self._procs.get("panel")
        return p is not None and p.poll() is None

    def session_pids(self, procs: dict | None = None) -> set[int]:
        """The session's own processes (bus, window manager, panel, what the bus started),
        with their jail wrappers; `procs`: a `processes.table()` to read (else one is made)."""
        procs = table() if procs is None else procs
        keep: set[int] = set()
        for key in ("dbus", "a11y", "reader", "openbox"):
            p = self._procs.get(key)
            if p is not None:
                keep |= {p.pid, *descendants_in(procs, p.pid)}
        panel = self._procs.get("panel")
        if panel is not None:   # the panel and its jail's init, not what it launched
            keep.add(panel.pid)
            for pid in descendants_in(procs, panel.pid):
                if Path(cmdline(pid).split(" ", 1)[0]).name in ("tint2", "bwrap"):
                    keep.add(pid)
        return keep

    def launched_from_panel(self) -> list[int]:
        """Pids of the programs the panel started."""
        panel = self._procs.get("panel")
        if panel is None:
            return []
        procs = table()
        keep = self.session_pids(procs)
        return [p for p in descendants_in(procs, panel.pid) if p not in keep]

    def kill_launched(self) -> None:
        """Stop every program of the jail but the session's: apps, what the panel launched, what
        a terminal started (detached, re-parented or not)."""
        if not self.jail.privileged:
            for pid in self.launched_from_panel():
                kill_pid(pid)
            return
        procs = table()
        keep = self.session_pids(procs)
        if any(uid == self.jail.uid and p not in keep for p, (_, _, uid) in procs.items()):
            kill_uid(self.jail.uid, keep=keep)   # (it looks again until nothing is left: forks in flight)

    def close(self) -> None:
        self.kill_launched()
        for key in ("reader", "panel", "openbox", "a11y", "dbus"):
            proc = self._procs.pop(key, None)
            if proc is not None:
                kill_group(proc)
        # services the bus started (xfconfd for Ristretto) detach from it: find them by their environment
        for pid in marked(SESSION_VAR, str(self.runtime)):
            kill_pid(pid)
        if self.jail.privileged:
            kill_uid(self.jail.uid)


def home_snapshot(home: Path, skip: tuple[str, ...] = (".cache", ".local", ".dbus"),
                  max_bytes: int = 1 << 20) -> dict[str, bytes]:
    """Every regular file of a home (relative path -> bytes, like `Workspace.snapshot`, bounded
    the same way), without descending into the app caches in `skip` (a browser profile alone is
    thousands of files); `.config` is kept: settings tasks read it."""
    return snapshot_files(Path(home), skip, max_bytes)


def _wait_for(pred, timeout: float, error: str) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise RuntimeError(error)
        time.sleep(0.01)
