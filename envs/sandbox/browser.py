"""A headful Chromium on an env's own X display, driven by Playwright (Debian's /usr/bin/chromium).

Playwright is for setup, state inspection, touch events and the virtual clock;
the agent's mouse and keys go through X like a person's, and the screen is
captured from X. The browser lives as long as the env; a reset opens a fresh
context (cookies, storage, tabs) and page, it does not relaunch Chromium.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from dataclasses import dataclass
from typing import Callable
from urllib.parse import urlsplit

import numpy as np
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from . import canvas
from .channel import ChannelError, PageChannel
from .pageinput import PAGE_INPUT_JS
from .processes import children, cmdline, descendants, has_mark, is_dying, require

CHROMIUM = os.environ.get("HYBRIDGYM_CHROMIUM", "/usr/bin/chromium")
BASE_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    # no spare renderer kept warm for a next site, the GPU process's work (software compositing) in the
    # browser process: 8-12 MB less per sandbox, steps and tasks unchanged (benchmarks/bench_density.py; the
    # flags measured and not kept, and why: docs/scale.md)
    "--disable-features=Translate,MediaRouter,OptimizationHints,SpareRendererForSitePerProcess",
    "--in-process-gpu",
    "--disable-infobars", "--test-type", "--password-store=basic",
    "--disable-session-crashed-bubble", "--hide-crash-restore-bubble",
    # the same pixels for the same state: whole-tile raster, no LCD text. (Partial swaps, Chromium's default: a
    # frame redraws and puts on the screen only the box around what changed, with the same pixels as a whole
    # window's, measured; 1.4 ms less a MiniWoB step than whole-window swaps, docs/miniwob.md)
    "--disable-partial-raster", "--disable-lcd-text",
    "--force-color-profile=srgb",
]

#: the frame marker's size in screen pixels: a strip at the left end of the top rows of the window's hidden rows
#: (`marker_rows`; `Sandbox.marker_point` looks inside it); the rest of them, below it, hold the browser's status bubble
MARKER_WIDTH, MARKER_HEIGHT = 32, 8

# Captured before any page script (and before Playwright's fake clock) so the env can
# wait for a real rendered frame even when the page's timers are virtual.
# It also counts 2D-canvas drawing calls, so an env can tell that a canvas page drew
# nothing during a step (and skip waiting for a new picture).
_REAL_FRAME_SCRIPT = """
(() => {
  const raf = window.requestAnimationFrame.bind(window);
  // the frame marker (`ChromiumBrowser(marker_rows=...)`): a strip of MARK_W x MARK_H CSS px at the left end of the
  // window's hidden rows, below the screen the agent sees, given a new colour by the marking sentinel (Cancel instead of
  // Pause) as it arrives, so the env can tell when the frame after the step's input is on the screen. A style sheet of
  // the document's own (not in the DOM, not in document.styleSheets) on the root's ::after, which no event reaches.
  // Narrow and at the left, where the pages' content is: Chromium redraws and puts on the screen the box around what
  // changed in a frame, which a strip as wide as the window (or one at its right end) would stretch to the window's
  // width. MARK_BOTTOM CSS px above the window's foot: the browser's status bubble (a link's address) is drawn there
  const MARK_H = /*MARK_H*/null, MARK_W = /*MARK_W*/null, MARK_BOTTOM = /*MARK_BOTTOM*/0;
  let mark = null, markRule = null;
  if (MARK_H) {
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(`html::after { content: ''; position: fixed; left: 0; bottom: ${MARK_BOTTOM}px; width: ${MARK_W}px; height: ${MARK_H}px;
        z-index: 2147483647; pointer-events: none; background: #000; }`);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      markRule = sheet.cssRules[0];
      mark = 1 + Math.floor(Math.random() * 0xfffffe);   // not where the last document stood, nor the strip's black
    } catch (e) { markRule = null; mark = null; }
  }
  const bumpMark = () => {
    if (!markRule) return;
    mark = (mark + 1) & 0xffffff;
    markRule.style.background = '#' + mark.toString(16).padStart(6, '0');
  };
  // the marker's next colour, given now (null: no strip): a task's set-up gives it once the page shows the new
  // episode, so the frame that shows the colour shows the episode (`Task.setup`, `PageFrame.first`)
  Object.defineProperty(window, '__hybridgymMark', {
    value: () => { if (!markRule) return null; bumpMark(); return mark; }, enumerable: false });
  Object.defineProperty(window, '__hybridgymRealFrame', {
    value: () => new Promise(r => raf(() => raf(r))), enumerable: false });
  // the start of the page's next real frame (the one that shows the DOM as it is now)
  Object.defineProperty(window, '__hybridgymNextFrame', {
    value: () => new Promise(r => raf(r)), enumerable: false });
  // input barrier: the env presses Pause (or Cancel: the marking sentinel) after a step's input and waits until the
  // page saw it, so all earlier input has been dispatched (neither reaches the page's own handlers)
  let sentinel = 0, releases = 0, hops = 0; const waiters = [];
  const wake = () => { for (const w of waiters.splice(0)) w(); };
  // this document's name: the env counts the sentinels it sent to it (a new document counts from 0)
  const doc = Math.random().toString(36).slice(2) + '-' + Date.now().toString(36);
  const onKey = e => {
    if (e.key !== 'Pause' && e.key !== 'Cancel') return;
    e.stopImmediatePropagation(); e.preventDefault();
    if (e.type === 'keyup') { sentinel++; if (e.key === 'Cancel') bumpMark(); wake(); }
  };
  window.addEventListener('keydown', onKey, true);
  window.addEventListener('keyup', onKey, true);
  // a button's release, counted (`ChromiumBrowser.click_barrier`: a step that is one click needs no sentinel key, its
  // release is the sentinel), and the frame marker given its next colour, two turns of the task queue after it:
  // after the tasks the page's handlers of the press and of the release (a click's run in the release's task) queued.
  // Only with the strip (MiniWoB): elsewhere no barrier waits for a release's turns (a page that a click hid, its
  // timers throttled to a second, would hold its barriers that long)
  if (markRule) window.addEventListener('mouseup', e => {
    if (!e.isTrusted) return;
    hops++;
    realTimeout(() => realTimeout(() => { hops--; releases++; bumpMark(); wake(); }, 0), 0);
  }, true);
  // the barrier (`ChromiumBrowser.barrier`): resolves [seen, doc, sentinels seen, the frame marker's colour (null:
  // none), releases seen] once the page has seen sentinel n as the env counts them in document d (null: the env has
  // not asked this document yet; a document that is not d counts from its own start, so any sentinel is the awaited
  // one), told by the key event itself, or after `frames` frames without it; with `draw`, once the frame after the
  // sentinel is drawn. With `rel` (not null), once the page has counted that many releases instead, in document d
  // only (another document's count is not the env's: it resolves at once, unseen). Never while a release's colour
  // is still to be given: the colour it answers is the one the screen will show
  Object.defineProperty(window, '__hybridgymBarrier', { enumerable: false,
    value: (d, n, frames, draw, rel) => new Promise(r => {
      const byRelease = rel !== undefined && rel !== null;
      const target = (d === null || d === doc) ? n : 1;
      let done = false, hit = false;
      const finish = seen => { if (!done) { done = true; r([seen, doc, sentinel, mark, releases]); } };
      if (byRelease && d !== doc) { finish(false); return; }
      const seen = () => { hit = true; if (draw) raf(() => realTimeout(() => finish(true), 0)); else finish(true); };
      const check = () => {
        if (done || hit) return;
        if (hops === 0 && (byRelease ? releases >= rel : sentinel >= target)) seen(); else waiters.push(check);
      };
      check();
      let left = frames;
      const tick = () => { if (done || hit) return; if (--left <= 0) finish(false); else raf(tick); };
      if (!hit) raf(tick);
    }) });
  // work in flight, so the env can wait for its result before it takes the screenshot:
  // requests of fetch() and XMLHttpRequest until the page has run on their answer (a fetch's body
  // read too: the page draws after `await r.json()`), and a page being left (a link, a form, location=...).
  // A piece of work counts as open until a task after it ended (the page's code that ran on it has run);
  // `finished` counts the pieces that ended in this document.
  const realTimeout = window.setTimeout.bind(window);
  Object.defineProperty(window, '__hgRealTimeout', { value: realTimeout, enumerable: false });
  // whether the window's load event fired: a load that something stopped (Escape) completes the document
  // without it, and without the scripts it had not fetched yet (`ChromiumBrowser._goto`)
  let loadFired = false;
  window.addEventListener('load', e => { if (e.target === document) loadFired = true; });
  Object.defineProperty(window, '__hgLoadFired', { value: () => loadFired, enumerable: false });
  const realNow = performance.now.bind(performance); window.__hgRealNow = realNow;
  let pending = 0, finished = 0, leaving = false;
  const done = () => { realTimeout(() => { pending = Math.max(0, pending - 1); finished++; }, 0); };
  const track = p => { pending++; p.then(done, done); return p; };
  if (window.fetch) {
    const origFetch = window.fetch;
    window.fetch = function (...args) { return track(origFetch.apply(this, args)); };
  }
  if (window.Response) {
    for (const name of ['json', 'text', 'arrayBuffer', 'blob', 'formData']) {
      const orig = Response.prototype[name];
      if (typeof orig === 'function') Response.prototype[name] = function (...args) { return track(orig.apply(this, args)); };
    }
  }
  if (window.XMLHttpRequest) {
    const origSend = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (...args) {
      pending++;
      this.addEventListener('loadend', done, { once: true });
      return origSend.apply(this, args);
    };
  }
  // a navigation that turns into a download leaves the page in place: forget it after 3 s
  window.addEventListener('beforeunload', () => { leaving = true; realTimeout(() => { leaving = false; }, 3000); });
  const busy = () => pending > 0 || leaving || document.readyState !== 'complete';
  Object.defineProperty(window, '__hybridgymBusy', { enumerable: false, value: busy });
  // the link under the pointer: the browser shows its address in a status bubble at the window's foot, which
  // fades in and out over a few hundred ms after the pointer moved onto or off a link
  let link = '', linkAt = 0, linkChanges = 0;
  const linkOf = t => { const a = t && t.closest ? t.closest('a[href], area[href]') : null; return a ? String(a.href) : ''; };
  const hover = h => { if (h !== link) { link = h; linkAt = realNow(); linkChanges++; } };
  window.addEventListener('mouseover', e => hover(linkOf(e.target)), true);
  window.addEventListener('mouseout', e => { if (!e.relatedTarget) hover(''); }, true);
  // a press on a <select> opens its list in a window of its own, drawn a few frames after the page's
  let selects = 0, selectsUnread = 0;
  const onSelect = e => { if (e.target && e.target.closest && e.target.closest('select')) { selects++; selectsUnread++; } };
  window.addEventListener('mousedown', onSelect, true);
  window.addEventListener('keydown', onSelect, true);
  // presses on a <select> since the last call (MiniWoB's observer: was a list opened during the step?)
  Object.defineProperty(window, '__hybridgymSelects', { enumerable: false,
    value: () => { const n = selectsUnread; selectsUnread = 0; return n; } });
  // the DOM changed and the page has not drawn it yet: a change counts as drawn once the second frame after it
  // starts (the first has then been handed to the compositor); watched from the env's first question on
  let dirty = 0, drawnUpTo = 0, drawnAt = 0, watching = false;
  const watch = () => {
    if (watching || !window.MutationObserver) return;
    watching = true;
    new MutationObserver(() => {
      const n = ++dirty;
      raf(() => raf(() => { if (n > drawnUpTo) { drawnUpTo = n; drawnAt = realNow(); } }));
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  };
  // [busy, pieces of work finished, document, link under the pointer, ms since it changed, its changes,
  //  whether the page is shown (its tab is the front one), presses on a <select>, DOM changes not drawn yet,
  //  ms since the last change was drawn]
  Object.defineProperty(window, '__hybridgymWork', { enumerable: false,
    value: () => { watch(); const now = realNow();
      return [busy(), finished, doc, link, now - linkAt, linkChanges, document.visibilityState !== 'hidden',
              selects, dirty > drawnUpTo, now - drawnAt]; } });
  let draws = 0;
  Object.defineProperty(window, '__hybridgymDraws', { get: () => draws, enumerable: false });
  const proto = window.CanvasRenderingContext2D && CanvasRenderingContext2D.prototype;
  if (proto) {
    for (const name of ['fillRect', 'clearRect', 'strokeRect', 'drawImage', 'fill', 'stroke',
                        'fillText', 'strokeText', 'putImageData']) {
      const orig = proto[name];
      if (typeof orig === 'function') proto[name] = function (...args) { draws++; return orig.apply(this, args); };
    }
  }
})();
"""

def extra_flags_from_env() -> list[str]:
    """Chromium flags added to every launch from HYBRIDGYM_CHROMIUM_FLAGS (space-separated), for
    measuring a flag's effect (benchmarks/bench_density.py) without changing the code."""
    return os.environ.get("HYBRIDGYM_CHROMIUM_FLAGS", "").split()


_local = threading.local()


def _playwright():
    """One Playwright driver per thread, shared by the envs of that thread (reference counted).

    A forked child (e.g. a worker of gymnasium's AsyncVectorEnv) must not use its parent's
    driver, whose pipes and threads it does not own: it starts its own."""
    st = getattr(_local, "state", None)
    if st is not None and st["pid"] != os.getpid():
        st = _local.state = None
    if st is None:
        # the driver keeps its temporary browser profiles in a folder of this process's, which
        # the reaper removes if the process dies before it closes them
        from .jail import owner_folder
        saved = os.environ.get("TMPDIR")
        os.environ["TMPDIR"] = str(owner_folder("playwright"))
        try:
            pw = sync_playwright().start()
        finally:
            if saved is None:
                os.environ.pop("TMPDIR", None)
            else:
                os.environ["TMPDIR"] = saved
        st = _local.state = {"pw": pw, "refs": 0, "pid": os.getpid()}
    st["refs"] += 1
    return st["pw"]


def _release_playwright() -> None:
    st = getattr(_local, "state", None)
    if st is None or st["pid"] != os.getpid():
        return
    st["refs"] -= 1
    if st["refs"] <= 0:
        try:
            st["pw"].stop()
        finally:
            _local.state = None


@contextlib.contextmanager
def shared_playwright():
    """The thread's Playwright driver, for code that drives Chromium beside the envs
    (a second `sync_playwright()` in the same thread is refused by Playwright)."""
    pw = _playwright()
    try:
        yield pw
    finally:
        _release_playwright()


@dataclass(frozen=True)
class PageWork:
    """What a page is doing (`ChromiumBrowser.work`): `busy` (requests or a load in flight), `finished`
    (requests done in this document), `doc` (the document's name), `link` (the address of the link under
    the pointer, or ""), `link_s` (seconds since that changed), `link_changes`, `shown` (its tab is in
    front), `selects` (presses on a <select>), `undrawn` (DOM changes not drawn yet), `drawn_s` (seconds
    since the last one was drawn); `page` is the Playwright page asked."""
    page: object
    busy: bool
    finished: int
    doc: str
    link: str
    link_ms: float
    link_changes: int
    shown: bool
    selects: int
    undrawn: bool
    drawn_ms: float

    @property
    def link_s(self) -> float:
        return self.link_ms / 1000

    @property
    def drawn_s(self) -> float:
        return self.drawn_ms / 1000


class ChromiumBrowser:
    """Chromium drawing on `display_env["DISPLAY"]`.

    mode "window": a normal browser window with tab strip and address bar, filling the screen.
    mode "app": one page filling the screen, no browser UI (phone shell, games).
    `scale` is the device scale factor (screen pixels per CSS pixel).
    `allowed_origins`: the only http origins the browser may reach (e.g. the task's local
    server); every other request goes to a closed proxy port and fails. The rule lives in
    Chromium's own proxy settings, so it holds whatever Python is doing.
    `executable`: the program Playwright starts (a jail's wrapper of Chromium: `Jail.executable`);
    `owner`: the (uid, gid) it runs as, given the downloads folder.
    `downloads`: the folder where Chromium itself saves downloads (e.g. the workspace's
    `Downloads/`, so the SDK terminal sees them), under the name the server suggests
    (" (1)" added on a clash), with no dialog and no Python in the loop; it is created
    when missing. None: Playwright's default (files kept in a temporary folder).
    """

    def __init__(self, display_env: dict[str, str], width: int, height: int, *, mode: str = "window",
                 scale: float = 1.0, touch: bool = False, allowed_origins: tuple[str, ...] = (),
                 extra_flags: tuple[str, ...] = (), downloads: "os.PathLike | str | None" = None,
                 executable: str = CHROMIUM, owner: tuple[int, int] | None = None,
                 channel: "Callable[[], socket.socket] | None" = None, marker_rows: int = 0):
        if mode not in ("window", "app"):
            raise ValueError(f"browser mode must be 'window' or 'app', got {mode!r}")
        if marker_rows and (mode != "window" or marker_rows < MARKER_HEIGHT):
            raise ValueError(f"a frame marker needs a browser window and at least {MARKER_HEIGHT} rows, "
                             f"got {mode!r}, {marker_rows}")
        self.width, self.height, self.mode, self.scale, self.has_touch = width, height, mode, scale, touch
        #: screen rows below `height` that the window covers, where its pages draw the frame marker
        self.marker_rows = int(marker_rows)
        self.mark: int | None = None   # the marker's colour after the last barrier's sentinel (None: not known)
        self._env = display_env
        self.executable = executable
        self.owner = owner
        self._extra = list(extra_flags)
        self.allowed_origins = tuple(allowed_origins)
        self.downloads = os.fspath(downloads) if downloads is not None else None
        self._pw = None
        self.browser = None
        self.context = None
        self.page = None
        self._cdp = None
        self._download_cdp = None
        self._crashed = False   # the page's renderer died (`_on_crash`)
        self._origin: tuple[float, float] | None = None
        self._clock_installed = False
        self._sentinels = 0     # the sentinels sent to the page's document `_doc` (see `barrier`)
        self._marking = -1      # the number of the last marking sentinel (`send_sentinel(mark=True)`)
        # (sentinel number, the X button releases sent before it) of the last sentinel sent (`send_sentinel`)
        self._sent_at: tuple[int, int] | None = None
        # (document, X button releases sent, releases the page had counted) once the page had seen all the input
        # sent so far (a barrier's answer), or None: what `click_barrier` counts from
        self._released: tuple[str, int, int] | None = None
        self._doc: str | None = None
        self._scripts: list[str] = []
        self._picture = canvas.CanvasPicture()   # the game canvas's last picture (`canvas_frame`)
        self._picture_page = None
        self._listen = channel
        self._channel: PageChannel | None = None   # the game step's WebSocket (`canvas_frame`)
        self._lifelines: tuple[int, ...] = ()      # the driver's and Chromium's pids (`_channel_alive`)

    def start(self) -> "ChromiumBrowser":
        require(self.executable, "the browser of the browser, MiniWoB, phone and game suites")
        self._pw = _playwright()
        flags = BASE_FLAGS + ["--window-position=0,0",
                              f"--window-size={round(self.width / self.scale)},"
                              f"{round((self.height + self.marker_rows) / self.scale)}"]
        hosts = [urlsplit(o).netloc for o in self.allowed_origins]
        if self._listen is not None:   # the page reaches the channel's port past the closed proxy, and nothing else
            self._channel = PageChannel(self._listen)
            hosts.append(self._channel.origin)
            # after a key, Chromium holds the page's other tasks (the channel's message among them) until its next
            # frame is drawn: sokoban's step 7.9 ms through Playwright, 13.5 on the channel with it; 10.9 and 6.6
            # without (benchmarks/bench_game_step.py). A game page runs on its own clock: it loses nothing by it
        if self._listen is not None or self.marker_rows:
            # (with the frame marker, the step's question to the page waits for the page's tasks, not for a frame)
            flags = [f + ",DeferRendererTasksAfterInput" if f.startswith("--disable-features=") else f for f in flags]
        flags += ["--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=" + ";".join(["<-loopback>", *hosts])]
        if self.scale != 1.0:
            flags.append(f"--force-device-scale-factor={self.scale}")
        if self.mode == "app":
            flags.append("--kiosk")  # no "press Esc to exit full screen" bubble over the page
        if self.has_touch:
            flags += ["--touch-events=enabled"]
        try:
            self.browser = self._pw.chromium.launch(executable_path=self.executable, headless=False,
                                                    env=self._env, args=flags + self._extra + extra_flags_from_env())
        except Exception:
            _release_playwright()
            self._pw = None
            if self._channel is not None:
                self._channel.close()
                self._channel = None
            raise
        if self._channel is not None:
            self._lifelines = self._find_lifelines()
            if not self._lifelines:   # without them a dead browser could go unnoticed: no channel
                self._channel.close()
                self._channel = None
        return self

    def _find_lifelines(self) -> tuple[int, ...]:
        """The pids of this process's Playwright driver (its child) and of this browser's Chromium browser
        process (the driver's descendant that draws on this display), or () when they are not both found."""
        display = self._env.get("DISPLAY")
        drivers = [p for p in children(os.getpid()) if "/playwright/driver/" in cmdline(p)]
        if len(drivers) != 1 or display is None:
            return ()
        lines = {p: cmdline(p) for p in sorted(descendants(drivers[0]))}
        chromium = [p for p, line in lines.items() if "--type=" not in line and "crashpad" not in line
                    and "chrom" in os.path.basename(line.split(" ", 1)[0]) and has_mark(p, "DISPLAY", display)]
        return (drivers[0], chromium[0]) if chromium else ()

    def _channel_alive(self) -> bool:
        """Whether the driver and Chromium's browser process still run (and are not being killed). A page may
        answer on the channel for a moment after they died (its renderer and the network service outlive them
        briefly), so an answer there does not show the browser alive as an answer through Playwright does."""
        return not any(is_dying(p) for p in self._lifelines)

    def is_alive(self, deep: bool = True) -> bool:
        """A round trip to the page (about a millisecond): False once Chromium is gone or the page's renderer
        died. deep=False: only what Playwright already knows (connected, page not closed, not crashed)."""
        if self.browser is None or not self.browser.is_connected() or self._crashed:
            return False
        if self.page is None or not deep:
            return self.page is None or not self.page.is_closed()
        try:
            self.page.evaluate("1")
            return True
        except Exception as e:  # a page in the middle of a navigation is alive
            return "context was destroyed" in str(e)

    def _open_context(self) -> None:
        self.close_context()
        if self.mode == "app":
            # emulate the screen exactly (Chromium windows have a minimum width), full screen
            css = {"width": round(self.width / self.scale), "height": round(self.height / self.scale)}
            ctx = self.browser.new_context(viewport=css, screen=css, device_scale_factor=self.scale,
                                           is_mobile=self.has_touch, has_touch=self.has_touch)
        else:
            ctx = self.browser.new_context(no_viewport=True)
        mark_h = f"{MARKER_HEIGHT / self.scale:.3f}" if self.marker_rows else "null"
        ctx.add_init_script(_REAL_FRAME_SCRIPT.replace("/*MARK_H*/null", mark_h)
                            .replace("/*MARK_W*/null", f"{MARKER_WIDTH / self.scale:.3f}")
                            .replace("/*MARK_BOTTOM*/0", f"{max(0, self.marker_rows - MARKER_HEIGHT) / self.scale:.3f}"))
        for script in self._scripts:
            ctx.add_init_script(script)
        self.context = ctx
        self._clock_installed = False
        self.page = ctx.new_page()
        self._crashed = False
        self.page.on("crash", self._on_crash)
        if self.has_touch:
            # a touch screen: Chromium turns the X pointer into touchstart/touchmove/touchend
            # (pointerType "touch", clicks synthesized from taps), as DevTools' device mode does
            self.cdp().send("Emulation.setEmitTouchEventsForMouse", {"enabled": True, "configuration": "mobile"})
        if self.mode == "app":
            target = self.cdp().send("Target.getTargetInfo")["targetInfo"]["targetId"]
            bcdp = self.browser.new_browser_cdp_session()
            win = bcdp.send("Browser.getWindowForTarget", {"targetId": target})["windowId"]
            bcdp.send("Browser.setWindowBounds", {"windowId": win, "bounds": {"windowState": "fullscreen"}})
            bcdp.detach()
        self._route_downloads()

    def require_script(self, script: str) -> bool:
        """Run `script` in every document of this browser before any of the page's own scripts
        (a task's trusted channel: see tasks/miniwob.py and tasks/game.py), from the next document
        on, in this context and every later one. Returns whether it is new: then a page already
        shown does not have it yet and must be loaded again."""
        if script in self._scripts:
            return False
        self._scripts.append(script)
        if self.context is not None:
            self.context.add_init_script(script)
        return True

    def _route_downloads(self) -> None:
        """Let Chromium save this context's downloads straight into `self.downloads`
        (it replaces Playwright's own setting, which keeps them in a temporary folder)."""
        if self.downloads is None:
            return
        self._make_downloads()
        info = self.cdp().send("Target.getTargetInfo")["targetInfo"]
        # the setting lasts as long as the CDP session that made it: keep it open with the context
        self._download_cdp = self.browser.new_browser_cdp_session()
        self._download_cdp.send("Browser.setDownloadBehavior", {
            "behavior": "allow", "downloadPath": self.downloads, "browserContextId": info["browserContextId"]})

    def load(self, url: str, *, clock_time: float | None = None, wait_until: str = "load"):
        """Show `url` as a fresh start: extra tabs closed, cookies and storage cleared.

        The first call opens the browser context; later calls reuse it (a new context
        costs a new window). With `clock_time`, Playwright's fake clock is (re)installed,
        paused at that time in ms, before the page loads; advance it with `advance_clock`.
        """
        if self.context is None or self.page is None or self.page.is_closed():
            self._open_context()
        else:
            for extra in self.context.pages:
                if extra is not self.page:
                    extra.close()
            self.context.clear_cookies()
            for origin in self.allowed_origins:
                self.cdp().send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            self._close_other_windows()
            if self.downloads is not None:  # the workspace may have been cleared since
                self._make_downloads()
        if clock_time is not None and not self._clock_installed:
            # once per context: Playwright replays these calls in every new document, so
            # every page starts paused at the same time (`advance_clock` is not replayed).
            # The installed clock runs until paused: pause a fixed second later, so a slow
            # machine never asks it to go back in time, and every run starts at the same time
            self.context.clock.install(time=clock_time)
            self.context.clock.pause_at(clock_time + 1000)
            self._clock_installed = True
        same_document = urlsplit(self.page.url)._replace(fragment="") == urlsplit(url)._replace(fragment="")
        if self._channel is not None:   # the page that had it goes: its channel with it
            self._channel.drop()
        self._goto(url, wait_until)
        if same_document and urlsplit(url).fragment:   # only the #hash changed: goto did not reload
            self.page.reload(wait_until=wait_until)
        # back and forward lead nowhere: the episode starts with a history of its own page
        self.cdp().send("Page.resetNavigationHistory")
        self._origin = None
        self._sentinels, self._doc, self._released = 0, None, None   # a new document: it has seen no sentinel
        return self.page

    #: how often `load` starts a navigation that something stopped
    GOTO_ATTEMPTS = 4

    #: how long a page may take to load (Playwright's own time-out for a navigation)
    LOAD_TIMEOUT_MS = 30_000

    # the end of a load, told by the document itself: "loaded" once its load event fired ("load"; or once its
    # readyState is past "loading": "domcontentloaded"), "stopped" when it became complete without it (its
    # load was stopped: by the time a task after the complete runs, a whole load has fired it), "timeout" after
    # `ms` of real time (not the page's clock, which a game's fakes)
    _LOADED_JS = """([want, ms]) => new Promise((resolve) => {
      const later = window.__hgRealTimeout || setTimeout;
      const fired = () => (window.__hgLoadFired ? window.__hgLoadFired() : document.readyState === 'complete');
      const check = () => {
        if (want !== 'load') { if (document.readyState !== 'loading') resolve('loaded'); }
        else if (fired()) resolve('loaded');
        else if (document.readyState === 'complete') later(() => resolve(fired() ? 'loaded' : 'stopped'), 0);
      };
      document.addEventListener('readystatechange', check);
      window.addEventListener('load', check);
      later(() => resolve('timeout'), ms);
      check();
    })"""

    def _goto(self, url: str, wait_until: str) -> None:
        """`page.goto` to the navigation's commit, then a wait in the page for its load; again when the load was
        stopped. Escape stops a load, and an Escape sent before it (the reset's, which closes the agent's dialogs:
        `Sandbox.dismiss_browser_dialogs`) can reach Chromium after the load began on a loaded machine. Before
        the commit it aborts the navigation (net::ERR_ABORTED; measured: an Escape sent just before `goto`
        aborted 16 of 20 loads); after it, the document completes without the scripts it had not fetched yet,
        and without its load event, which `page.goto(wait_until="load")` then waited for until its 30 s time-out
        (measured: 13 of 16 loads with an Escape 10-50 ms after `goto` began)."""
        for attempt in range(self.GOTO_ATTEMPTS):
            last = attempt == self.GOTO_ATTEMPTS - 1
            try:
                self.page.goto(url, wait_until="commit")
            except PlaywrightError as e:
                if "net::ERR_ABORTED" not in str(e) or last:
                    raise
                continue
            if wait_until == "commit":
                return
            end = self.page.evaluate(self._LOADED_JS, [wait_until, self.LOAD_TIMEOUT_MS])
            if end == "loaded":
                return
            if end != "stopped" or last:
                raise PlaywrightError(f"the page's load {'was stopped' if end == 'stopped' else 'timed out'}: {url}")

    def _make_downloads(self) -> None:
        os.makedirs(self.downloads, exist_ok=True)
        if self.owner is not None:
            os.chown(self.downloads, *self.owner)

    def _close_other_windows(self) -> None:
        """Close every page but the env's: windows the agent opened (ctrl+n opens one outside the
        env's browser context, which `context.pages` does not list) must not outlive the episode."""
        own = self._download_cdp is None
        bcdp = self.browser.new_browser_cdp_session() if own else self._download_cdp
        try:
            mine = self.cdp().send("Target.getTargetInfo")["targetInfo"]["targetId"]
            for target in bcdp.send("Target.getTargets")["targetInfos"]:
                # (the browser's own UI pages, chrome://*.top-chrome/, stay)
                if target["type"] == "page" and target["targetId"] != mine and ".top-chrome" not in target["url"]:
                    with contextlib.suppress(Exception):
                        bcdp.send("Target.closeTarget", {"targetId": target["targetId"]})
        finally:
            if own:
                bcdp.detach()

    def set_clock(self, now: str | float) -> None:
        """Run the page's clock from `now` (an ISO local time "YYYY-MM-DDTHH:MM:SS" or ms since
        the epoch): Playwright's clock, installed once per context and running; later calls set
        the time. (`load(clock_time=...)` installs a paused clock instead, for games.)"""
        if self.context is None or self.page is None or self.page.is_closed():
            self.load("about:blank")
        if not self._clock_installed:
            self.context.clock.install(time=now)
            self._clock_installed = True
        else:
            self.page.clock.set_system_time(now)

    def busy(self, page=None) -> bool:
        """Whether the page (or `page`, another tab) has work in flight whose result is not on screen yet:
        fetch or XMLHttpRequest requests, a navigation to another page, a document still loading."""
        try:
            return bool((page or self.page).evaluate("window.__hybridgymBusy ? window.__hybridgymBusy() : false"))
        except PlaywrightError:   # the old document is gone mid-navigation
            return True

    _WORK_JS = "() => window.__hybridgymWork ? window.__hybridgymWork() : null"

    def work(self):
        """What the page in front (the shown tab) is doing, in one round trip: a `PageWork`, or None on a
        page without the init script (an error page) or while the page is being replaced."""
        try:
            w = self.evaluate_cdp(self._WORK_JS)
            page = self.page
            if w and not w[6] and self.context is not None and len(self.context.pages) > 1:
                for other in self.context.pages:   # another tab is in front: ask it (a rare case, Playwright's call)
                    if other is not self.page:
                        v = other.evaluate(self._WORK_JS)
                        if v and v[6]:
                            w, page = v, other
                            break
        except PlaywrightError:
            return None
        return PageWork(page, *w) if w else None

    def wait_idle(self, timeout: float = 5.0, poll: float = 0.01, page=None) -> bool:
        """Wait until `busy()` is False (True) or `timeout` seconds pass (False); False at once when the page
        is closed or its renderer died (nothing to wait for)."""
        deadline = time.monotonic() + timeout
        target = page or self.page
        while self.busy(page):
            if time.monotonic() >= deadline or self._crashed or target is None or target.is_closed():
                return False
            time.sleep(poll)
        return True

    # Playwright's fake clock in the page (installed by `load(clock_time=...)`). Its `runFor` yields a
    # real task (a MessageChannel message) after every timer it runs, so each timer of a step waits
    # behind whatever Chromium has queued meanwhile (a frame being drawn): 6 ms of a 16 ms snake step.
    # `_CLOCK_JS` makes that yield a microtask, once per document: the page's promise reactions still run
    # after each timer, in the same order on every run, and no outside task (input, a network answer)
    # runs in the middle of a step's game time, which only makes a run more repeatable. Frames are
    # identical either way (`benchmarks/bench_game_step.py` compares them). Without Playwright's
    # `_embedder` (another version) the clock is left as it is.
    _CLOCK_JS = ("(c => { const e = c._embedder; if (e && typeof e.postTask === 'function' && !e.__hgMicro) {"
                 " e.postTask = t => queueMicrotask(t); e.__hgMicro = true; } return c; })"
                 "(globalThis.__pwClock.controller)")
    _RUN_FOR_JS = _CLOCK_JS + ".runFor(%d)"

    def advance_clock(self, ms: float) -> None:
        """Advance the page's fake clock by `ms` ms, running the due timers in order.

        Calls the clock Playwright installed in the page directly. Playwright's own
        `clock.run_for` also adds an init script to the context per call, to replay it in
        later documents: a long run would pile up one per step (3,000 steps made a reset
        8% slower, measured). Here every new document starts where `load` paused the clock.
        """
        self.page.evaluate(self._RUN_FOR_JS % max(0, int(ms)))

    def wait_real_frame(self, attempts: int = 3, page=None) -> None:
        """Return once the page has produced two real frames (works under a fake clock).

        A navigation that replaces the document meanwhile (a form submitted by a key that
        reached the page late, a redirect) destroys the call's context: then the new
        document is waited for (its `load`) and asked again.
        """
        for attempt in range(attempts):
            try:
                (page or self.page).evaluate("window.__hybridgymRealFrame ? window.__hybridgymRealFrame() : 0")
                return
            except PlaywrightError as e:
                if "context was destroyed" not in str(e) or attempt == attempts - 1:
                    raise
            try:
                (page or self.page).wait_for_load_state("load", timeout=5000)
            except PlaywrightError:
                pass

    # one round trip: the barrier, then the caller's expression; a page without the init script
    # (an error page) has no barrier: [None, None, -1, None, None, value]
    _BARRIER_JS = ("([d, n, f, w, r]) => (window.__hybridgymBarrier ? window.__hybridgymBarrier(d, n, f, w, r)"
                   " : Promise.resolve([null, null, -1, null, null])).then(b => Promise.resolve(%s).then(v => [...b, v]))")

    def barrier(self, n: int, max_frames: int, draw: bool = False, then: str = "null") -> tuple[bool | None, object]:
        """Wait until the page has seen sentinel `n` (`send_sentinel`) or `max_frames` real frames passed,
        with `draw` also for the frame after it; returns (seen, the value of the JavaScript expression
        `then`, evaluated in the same round trip). seen is None on a page without the barrier.

        After a marking sentinel (`send_sentinel(mark=True)`) the page has seen, the frame marker's colour it
        gave is left in `self.mark` (else None): the frame that shows it shows everything the input before the
        sentinel did.

        One round trip: the page tells the sentinel by its key event (not at its next frame), and the env
        counts the sentinels it sent to the page's document, so it need not ask the count first. The
        document's name comes back with every answer: a new document (a navigation) counts from its own
        start, and the env takes over the page's count, whatever it is."""
        seen, doc, mark, released, value = self._ask([self._doc, n, max_frames, draw, None], then)
        self.mark = mark if seen and n == self._marking and isinstance(mark, int) else None
        sent_at = self._sent_at
        # the page had seen all the input up to the sentinel: the releases it counted are those of the X releases
        # sent before it that reached it (a later release, if any, makes `click_barrier` send a sentinel again)
        self._released = ((doc, sent_at[1], released) if seen and doc is not None and isinstance(released, int)
                          and sent_at is not None and sent_at[0] == n else None)
        return seen, value

    def _ask(self, args: list, then: str) -> tuple:
        """The barrier's round trip (`_BARRIER_JS` with `args` [document, sentinel, frames, draw, releases]): takes
        over the page's document and sentinel count; returns (seen, document, marker colour, releases, value)."""
        seen, doc, count, mark, released, value = self.evaluate_cdp(self._BARRIER_JS % then, args)
        if doc is not None:
            self._doc, self._sentinels = doc, max(int(count), 0)
        return seen, doc, mark, released, value

    def click_barrier(self, xinput, releases: int, max_frames: int, then: str = "null") -> tuple[bool | None, object] | None:
        """The barrier of a step whose input was one click (`releases`: its button's releases, 2 for a double click),
        with no sentinel key: the page counts the releases it gets and gives the frame marker its next colour with
        each, so the click's last release tells that the page has all the step's input, about a millisecond before
        a sentinel key sent after it would (X sends the key after the release, and Chromium's browser process
        passes keys on more slowly). Returns (seen, the value of `then`) as `barrier` does, with `self.mark` the
        colour to wait for; or None, having sent nothing, when the releases cannot be told apart: the page's count
        is not known for all the input sent so far (no barrier answered since the document began, or the last did
        not see its sentinel), or another release was sent since (`xinput.releases`: the caller then sends a
        sentinel). Unseen (the release went to a window of the browser's own, or the page changed): `self.mark` None.
        """
        known = self._released
        if known is None or known[0] != self._doc or getattr(xinput, "releases", None) != known[1] + releases:
            return None
        doc, sent, counted = known
        seen, doc, mark, released, value = self._ask([doc, None, max_frames, False, counted + releases], then)
        ok = seen is True and isinstance(released, int) and isinstance(mark, int)
        self.mark = mark if ok else None
        self._released = (doc, sent + releases, released) if ok else None
        return seen, value

    #: how many real frames `flush_input` waits for the page to see the input (about 2 s at 60 Hz)
    FLUSH_FRAMES = 120

    def flush_input(self, xinput, max_frames: int = FLUSH_FRAMES, then: str | None = None):
        """Return once the page has received every X input event sent before this call.

        Presses Pause through X (after everything else in X's queue) and waits for the page
        to see it. Needed before advancing a fake clock: X input reaches Chromium
        asynchronously, and a key must land at the same game time on every run. Gives
        up after `max_frames` real frames (about 2 s at 60 Hz) and twice as many again
        (input late on a loaded machine) with an error.

        `then`: a JavaScript expression (a value or a promise) evaluated in the same round
        trip once the page saw the input, or after `max_frames` without an error; its value
        is returned (the phone asks whether its apps are idle).
        """
        n = self.send_sentinel(xinput)
        if then is not None:
            return self.barrier(n, max_frames, then=then)[1]
        if self.barrier(n, max_frames)[0] is False:
            self._late_input(n, max_frames)
        return None

    def _late_input(self, n: int, max_frames: int) -> None:
        """Sentinel `n` was not seen within `max_frames`: late rather than lost, on a loaded machine (X
        delivers to Chromium asynchronously), so one more wait of twice as long before calling it lost."""
        if self.barrier(n, 2 * max_frames)[0] is False:
            raise RuntimeError("the page did not receive the step's input (does it have keyboard focus?)")

    #: how many real frames a step's input barrier gives the page to see its sentinel
    INPUT_FRAMES = 8

    def input_barrier(self, xinput, max_frames: int = INPUT_FRAMES, then: str = "null"):
        """Wait until the page has received every X input event sent before this call and drawn the frame
        after it; returns (whether it did, the value of the JavaScript expression `then`, evaluated in the
        same round trip).

        X input reaches Chromium asynchronously and a long text arrives over several frames, so a screen
        that looks settled can still be missing the last characters. The barrier presses the sentinel
        (Pause, after everything else in X's queue) and waits for the page to see it, then for its next
        frame (`barrier`: one round trip). Input the page does not get (the keyboard focus in the
        browser's address bar, a page being replaced) ends the wait after `max_frames` frames."""
        seen, value = self.barrier(self.send_sentinel(xinput), max_frames, draw=True, then=then)
        return bool(seen), value

    def _on_crash(self, page) -> None:
        """The page's renderer died (Playwright's `crash` event, delivered while a call waits). A call on the page's
        own CDP session would then wait for ever (Playwright answers its own calls on a crashed page with an error,
        but not a session's, and letting the session go does not end them): the page is closed, which fails the
        call in flight, and the next calls fail at once (`evaluate_cdp`). The sandbox then reports the browser
        dead and the next reset starts it again."""
        if page is not self.page:
            return
        self._crashed = True
        with contextlib.suppress(Exception):
            page.close()

    def evaluate_cdp(self, function: str, arg=None):
        """`page.evaluate(function, arg)` in one CDP call (Runtime.evaluate on the page's session): a
        quarter less time than Playwright's evaluate, whose driver does more per call; for the calls of
        every step. `arg` must be JSON; the value comes back as JSON. A script error raises
        PlaywrightError, as from `page.evaluate`; so does a page whose renderer died."""
        if self._crashed:
            raise PlaywrightError("Target crashed")
        out = self.cdp().send("Runtime.evaluate", {"expression": f"({function})({json.dumps(arg)})",
                                                   "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in out:
            d = out["exceptionDetails"]
            raise PlaywrightError(str((d.get("exception") or {}).get("description") or d.get("text") or d))
        return out["result"].get("value")

    def dispatch_input(self, events: list[dict]) -> None:
        """Have the page dispatch `events` (`pageinput.PageInput.take()`) itself, in one round trip."""
        if events:
            self.evaluate_cdp(f"(ev) => ({PAGE_INPUT_JS})(ev)", events)

    def send_sentinel(self, xinput, mark: bool = False) -> int:
        """Press Pause through X, the input barrier's sentinel (`flush_input` in two halves:
        this, then `sentinel_seen`, with other work in between); returns its number.

        mark: press Cancel instead, the marking sentinel: the page gives the frame marker its next colour as
        the key arrives, in the same task (`barrier` tells the colour). Only the steps that read the screen at
        the marker mark: a marker's new colour is a frame more to draw."""
        self._sentinels += 1
        self._sent_at = (self._sentinels, getattr(xinput, "releases", -1))
        # in the default keymap (no remapping race); sent, not waited for: the barrier waits for the page to see it,
        # and X handles one connection's requests in order, so it comes after the step's input
        if mark:
            xinput.tap_keysym("Cancel")
            self._marking = self._sentinels
        else:
            xinput.hotkey(("pause",), wait=False)
        return self._sentinels

    def sentinel_seen(self, n: int, max_frames: int = 120) -> bool:
        """Whether the page saw sentinel `n` (waiting up to `max_frames` real frames)."""
        return self.barrier(n, max_frames)[0] is not False

    # Flushes a game's deferred drawing (hgKit.paint) and reads its canvas (`canvas.READ_CANVAS_JS`:
    # the tiles changed since the picture `base`, or the whole canvas). The picture is read only when
    # the canvas is the whole of it: one canvas, at the window's corner and size in device pixels, on
    # top at the corners and the centre. `data` is the value of the caller's (constant) expression,
    # evaluated in the same round trip.
    _CANVAS_FRAME_JS = """async ([last, want, ms, base, next, bin]) => {
      window.__hybridgymDefer = true;
      if (ms > 0) await CLOCK.runFor(ms);
      if (window.hgKit && typeof hgKit.flush === 'function') hgKit.flush();
      const draws = window.__hybridgymDraws || 0;
      let pic = null;
      const cs = document.getElementsByTagName('canvas');
      if (want && draws !== last && cs.length === 1) {
        const c = cs[0], r = c.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
        const w = innerWidth, h = innerHeight;
        const whole = r.left === 0 && r.top === 0 && r.width === w && r.height === h
          && c.width === Math.round(w * dpr) && c.height === Math.round(h * dpr)
          && [[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1], [w >> 1, h >> 1]]
               .every(([x, y]) => document.elementFromPoint(x, y) === c);
        // defined once per document, so that the JIT keeps its compiled code from step to step
        const read = window.__hybridgymReadCanvas || (window.__hybridgymReadCanvas = (READ_CANVAS));
        if (whole) pic = await read(c, base, next, bin);
      }
      return {draws, pic, data: (%s)};
    }""".replace("READ_CANVAS", canvas.READ_CANVAS_JS).replace("CLOCK", _CLOCK_JS)

    def canvas_frame(self, last_draws: int, data: str = "null", *, advance_ms: float = 0,
                     after_input=None, events: list[dict] | None = None) -> tuple[np.ndarray | None, int, object]:
        """A game page's picture read from its canvas, in one round trip: (frame or None, draw count, data).

        With `after_input` (the sandbox's X input), the page first receives every X input event sent
        before this call (as `flush_input`, in the same round trip: the read runs once the page saw the
        sentinel; input late on a loaded machine is waited for again before the clock moves).
        With `events` (`pageinput.PageInput.take()`), the page first dispatches them itself, in the same call.
        With `advance_ms`, the fake clock is then advanced by that much (as `advance_clock`).
        Sets the page to draw once per env step (see `hgKit.paint` in assets/games/_kit.js) and
        draws what is due. The frame is None when the page has not drawn since `last_draws`, or
        when its canvas is not the whole, opaque window at the screen's size: then read the screen.
        It is the picture Chromium then shows on the screen (tests compare the two), without
        waiting for Chromium to show it; only the tiles that changed since the last read cross
        over (`canvas.CanvasPicture`).
        """
        if self._picture_page is not self.page:
            self._picture.forget()
            self._picture_page = self.page
        # only a full-screen page ("app" mode) starts at the screen's corner
        fn = self._CANVAS_FRAME_JS % data
        args = [last_draws, self.mode == "app", max(0, int(advance_ms)), self._picture.base(), self._picture.next_id()]
        n = self.send_sentinel(after_input) if after_input is not None else None
        events = events or None
        if self._channel is not None:
            done, out, raw = self._canvas_frame_by_channel(fn, args, n, events)
            if done:
                return self._canvas_answer(out, raw)
        out = None
        if events is not None:   # the page's own input, then the read, in one call
            out = self.evaluate_cdp(f"([ev, a]) => {{ ({PAGE_INPUT_JS})(ev); return ({fn})(a); }}", [events, args + [False]])
        elif n is not None:   # `b` is the barrier's answer: the read only once the page saw the input
            seen, out = self.barrier(n, self.FLUSH_FRAMES, then=f"b[0] === false ? null : ({fn})({json.dumps(args + [False])})")
            if seen is False:
                self._late_input(n, self.FLUSH_FRAMES)
        if out is None:
            out = self.evaluate_cdp(fn, args + [False])
        return self._canvas_answer(out, None)

    def _canvas_answer(self, out: dict, raw: bytes | None) -> tuple[np.ndarray | None, int, object]:
        frame = None
        if out["pic"] is not None:
            frame = self._picture.apply(out["pic"], (self.width, self.height), raw)
        return frame, int(out["draws"]), out["data"]

    #: how long a game step's call may take on the channel (a barrier waits up to FLUSH_FRAMES frames, twice)
    CHANNEL_TIMEOUT_S = 30.0

    # the page's end of a `canvas_frame` call on the channel: [doc, n, frames, args] -> {b, out, bytes}: the
    # barrier's answer (none without a sentinel `n`), then the read unless the page did not see the input
    _CHANNEL_STEP_JS = """(dispatch => async ([doc, n, frames, args, events]) => {
      if (events) dispatch(events);
      let b = null;
      if (n !== null) {
        b = await (window.__hybridgymBarrier ? window.__hybridgymBarrier(doc, n, frames, false) : Promise.resolve([null, null, -1]));
        if (b[0] === false) return {b, out: null};
      }
      const out = await (FN)(args);
      let bytes = null;
      if (out.pic && out.pic.bytes) { bytes = out.pic.bytes; out.pic.bytes = true; }
      return {b, out, bytes};
    })(PAGE_INPUT)""".replace("PAGE_INPUT", PAGE_INPUT_JS)

    def _canvas_frame_by_channel(self, fn: str, args: list, n: int | None,
                                 events: list[dict] | None = None) -> tuple[bool, dict | None, bytes | None]:
        """`canvas_frame`'s call on the channel: (done, the page's answer, its bytes). Not done (the caller makes
        the call through Playwright) when the channel cannot be paired, or the page went away with the call."""
        ch = self._channel
        key = (id(self.page), fn)
        if not ch.paired or ch.key != key:
            if not ch.pair(self.evaluate_cdp, self._CHANNEL_STEP_JS.replace("FN", fn), key):
                return False, None, None
        try:
            value, raw = ch.call([self._doc, n, self.FLUSH_FRAMES, args + [True], events], self.CHANNEL_TIMEOUT_S)
        except ChannelError as e:
            if e.closed:   # the document went away before it answered: it did none of it
                return False, None, None
            raise PlaywrightError(f"the game page's step failed: {e}") from None
        if not self._channel_alive():   # not made again through Playwright: the page may have moved its clock
            raise PlaywrightError("the browser died (its driver or its browser process is gone)")
        b = value["b"]
        self._released = None   # (a game's step: `click_barrier` is MiniWoB's)
        if b is not None and b[1] is not None:
            self._doc, self._sentinels = b[1], max(int(b[2]), 0)
        if b is not None and b[0] is False:   # the page did not see the input yet: the late input's wait, then a read
            self._late_input(n, self.FLUSH_FRAMES)
            return self._canvas_frame_by_channel(fn, args, None)
        return True, value["out"], raw

    def viewport_origin(self) -> tuple[float, float]:
        """Screen position (in screen pixels) of the page's (0, 0)."""
        if self._origin is None:
            if self.mode == "app":   # full screen: the page starts at the screen's corner
                self._origin = (0.0, 0.0)
            else:                    # a window whose browser UI sits above the page
                ox, oy = self.page.evaluate(
                    "[screenX + (outerWidth - innerWidth), screenY + (outerHeight - innerHeight)]")
                self._origin = (ox * self.scale, oy * self.scale)
        return self._origin

    def to_screen(self, x: float, y: float) -> tuple[int, int]:
        """CSS pixel of the page -> screen pixel."""
        ox, oy = self.viewport_origin()
        return round(ox + x * self.scale), round(oy + y * self.scale)

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """Screen pixel -> CSS pixel of the page."""
        ox, oy = self.viewport_origin()
        return (x - ox) / self.scale, (y - oy) / self.scale

    def screen_point(self, selector: str) -> tuple[int, int]:
        """Centre of the first element matching `selector`, in screen pixels (scrolled into view)."""
        loc = self.page.locator(selector).first
        loc.scroll_into_view_if_needed(timeout=2000)
        box = loc.bounding_box(timeout=2000)
        if box is None:
            raise LookupError(f"element {selector!r} is not visible")
        return self.to_screen(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def cdp(self):
        if self._cdp is None:
            self._cdp = self.context.new_cdp_session(self.page)
        return self._cdp

    def close_context(self) -> None:
        sessions, self._cdp, self._download_cdp = (self._cdp, self._download_cdp), None, None
        for session in sessions:
            if session is not None:
                with contextlib.suppress(Exception):
                    session.detach()
        if self.context is not None:
            with contextlib.suppress(PlaywrightError):
                self.context.close()
            self.context, self.page = None, None

    def close(self) -> None:
        self.close_context()
        if self._channel is not None:
            self._channel.close()
            self._channel = None
        if self.browser is not None:
            with contextlib.suppress(Exception):
                self.browser.close()
            self.browser = None
        if self._pw is not None:
            _release_playwright()
            self._pw = None
