"""A headful Chromium on an env's own X display, driven by Playwright (Debian's /usr/bin/chromium).

Playwright is for setup, state inspection, touch events and the virtual clock;
the agent's mouse and keys go through X like a person's, and the screen is
captured from X. The browser lives as long as the env; a reset opens a fresh
context (cookies, storage, tabs) and page, it does not relaunch Chromium.
"""

from __future__ import annotations

import base64
import contextlib
import io
import os
import threading
import time
from urllib.parse import urlsplit

import numpy as np
from PIL import Image
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from .processes import require

CHROMIUM = os.environ.get("HYBRIDGYM_CHROMIUM", "/usr/bin/chromium")
BASE_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
    "--disable-infobars", "--test-type", "--password-store=basic",
    "--disable-session-crashed-bubble", "--hide-crash-restore-bubble",
    # the same pixels for the same state: whole-frame raster and swaps, no LCD text
    "--disable-partial-raster", "--ui-disable-partial-swap", "--disable-lcd-text",
    "--force-color-profile=srgb",
]

# Captured before any page script (and before Playwright's fake clock) so the env can
# wait for a real rendered frame even when the page's timers are virtual.
# It also counts 2D-canvas drawing calls, so an env can tell that a canvas page drew
# nothing during a step (and skip waiting for a new picture).
_REAL_FRAME_SCRIPT = """
(() => {
  const raf = window.requestAnimationFrame.bind(window);
  Object.defineProperty(window, '__hybridgymRealFrame', {
    value: () => new Promise(r => raf(() => raf(r))), enumerable: false });
  // the start of the page's next real frame (the one that shows the DOM as it is now)
  Object.defineProperty(window, '__hybridgymNextFrame', {
    value: () => new Promise(r => raf(r)), enumerable: false });
  // input barrier: the env presses Pause after a step's input and waits until the page saw it,
  // so all earlier input has been dispatched (Pause never reaches the page's own handlers)
  let sentinel = 0; const waiters = [];
  const onKey = e => {
    if (e.key !== 'Pause') return;
    e.stopImmediatePropagation(); e.preventDefault();
    if (e.type === 'keyup') { sentinel++; while (waiters.length && waiters[0][0] <= sentinel) waiters.shift()[1](); }
  };
  window.addEventListener('keydown', onKey, true);
  window.addEventListener('keyup', onKey, true);
  // the barrier of a step (`ChromiumBrowser.input_barrier`): the sentinels seen so far, then a wait
  // for one more and the frame after it
  Object.defineProperty(window, '__hybridgymSentinels', { value: () => sentinel, enumerable: false });
  Object.defineProperty(window, '__hybridgymInputAfter', { enumerable: false,
    value: (c, frames) => new Promise(r => {
      const drawn = () => raf(() => realTimeout(() => r(true), 0));
      let left = frames;
      const tick = () => { if (sentinel > c) return drawn(); if (--left <= 0) return r(false); raf(tick); };
      if (sentinel > c) drawn(); else raf(tick);
    }) });
  Object.defineProperty(window, '__hybridgymInputSeen', { enumerable: false,
    value: (n, frames) => sentinel >= n ? true : new Promise(r => {
      waiters.push([n, () => r(true)]);
      let left = frames; const tick = () => { if (sentinel >= n) return; if (--left <= 0) r(false); else raf(tick); };
      raf(tick);
    }) });
  // work in flight, so the env can wait for its result before it takes the screenshot:
  // requests of fetch() and XMLHttpRequest, and a page being left (a link, a form, location=...)
  const realTimeout = window.setTimeout.bind(window);
  let pending = 0, leaving = false;
  const done = () => { pending = Math.max(0, pending - 1); };
  if (window.fetch) {
    const origFetch = window.fetch;
    window.fetch = function (...args) {
      pending++;
      const p = origFetch.apply(this, args);
      p.then(done, done);
      return p;
    };
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
  Object.defineProperty(window, '__hybridgymBusy', { enumerable: false,
    value: () => pending > 0 || leaving || document.readyState !== 'complete' });
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

def _opaque_png(data_url: str, size: tuple[int, int]) -> np.ndarray | None:
    """RGB pixels of a PNG data URL when it is `size` (width, height) and fully opaque, else None."""
    with Image.open(io.BytesIO(base64.b64decode(data_url.split(",", 1)[1]))) as im:
        if im.size != tuple(size) or im.mode not in ("RGB", "RGBA"):
            return None
        if im.mode == "RGBA":
            if im.getchannel("A").getextrema()[0] < 255:
                return None
            im = im.convert("RGB")
        return np.array(im)   # writable (np.asarray of a PIL image is read-only)


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
                 executable: str = CHROMIUM, owner: tuple[int, int] | None = None):
        if mode not in ("window", "app"):
            raise ValueError(f"browser mode must be 'window' or 'app', got {mode!r}")
        self.width, self.height, self.mode, self.scale, self.has_touch = width, height, mode, scale, touch
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
        self._origin: tuple[float, float] | None = None
        self._clock_installed = False
        self._sentinels = 0
        self._scripts: list[str] = []

    def start(self) -> "ChromiumBrowser":
        require(self.executable, "the browser of the browser, MiniWoB, phone and game suites")
        self._pw = _playwright()
        flags = BASE_FLAGS + ["--window-position=0,0",
                              f"--window-size={round(self.width / self.scale)},{round(self.height / self.scale)}"]
        hosts = [urlsplit(o).netloc for o in self.allowed_origins]
        flags += ["--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=" + ";".join(["<-loopback>", *hosts])]
        if self.scale != 1.0:
            flags.append(f"--force-device-scale-factor={self.scale}")
        if self.mode == "app":
            flags.append("--kiosk")  # no "press Esc to exit full screen" bubble over the page
        if self.has_touch:
            flags += ["--touch-events=enabled"]
        try:
            self.browser = self._pw.chromium.launch(executable_path=self.executable, headless=False,
                                                    env=self._env, args=flags + self._extra)
        except Exception:
            _release_playwright()
            self._pw = None
            raise
        return self

    def is_alive(self, deep: bool = True) -> bool:
        """A round trip to the page (about a millisecond): False once Chromium is gone.
        deep=False: only what Playwright already knows (connected, page not closed)."""
        if self.browser is None or not self.browser.is_connected():
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
        ctx.add_init_script(_REAL_FRAME_SCRIPT)
        for script in self._scripts:
            ctx.add_init_script(script)
        self.context = ctx
        self._clock_installed = False
        self.page = ctx.new_page()
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
        self.page.goto(url, wait_until=wait_until)
        if same_document and urlsplit(url).fragment:   # only the #hash changed: goto did not reload
            self.page.reload(wait_until=wait_until)
        # back and forward lead nowhere: the episode starts with a history of its own page
        self.cdp().send("Page.resetNavigationHistory")
        self._origin = None
        self._sentinels = 0
        return self.page

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

    def busy(self) -> bool:
        """Whether the page has work in flight whose result is not on screen yet: fetch or
        XMLHttpRequest requests, a navigation to another page, a document still loading."""
        try:
            return bool(self.page.evaluate("window.__hybridgymBusy ? window.__hybridgymBusy() : false"))
        except PlaywrightError:   # the old document is gone mid-navigation
            return True

    def wait_idle(self, timeout: float = 5.0, poll: float = 0.01) -> bool:
        """Wait until `busy()` is False (True) or `timeout` seconds pass (False)."""
        deadline = time.monotonic() + timeout
        while self.busy():
            if time.monotonic() >= deadline:
                return False
            time.sleep(poll)
        return True

    # Playwright's fake clock in the page (installed by `load(clock_time=...)`): run its due timers.
    _RUN_FOR_JS = "globalThis.__pwClock.controller.runFor(%d)"

    def advance_clock(self, ms: float) -> None:
        """Advance the page's fake clock by `ms` ms, running the due timers in order.

        Calls the clock Playwright installed in the page directly. Playwright's own
        `clock.run_for` also adds an init script to the context per call, to replay it in
        later documents: a long run would pile up one per step (3,000 steps made a reset
        8% slower, measured). Here every new document starts where `load` paused the clock.
        """
        self.page.evaluate(self._RUN_FOR_JS % max(0, int(ms)))

    def wait_real_frame(self, attempts: int = 3) -> None:
        """Return once the page has produced two real frames (works under a fake clock).

        A navigation that replaces the document meanwhile (a form submitted by a key that
        reached the page late, a redirect) destroys the call's context: then the new
        document is waited for (its `load`) and asked again.
        """
        for attempt in range(attempts):
            try:
                self.page.evaluate("window.__hybridgymRealFrame ? window.__hybridgymRealFrame() : 0")
                return
            except PlaywrightError as e:
                if "context was destroyed" not in str(e) or attempt == attempts - 1:
                    raise
            try:
                self.page.wait_for_load_state("load", timeout=5000)
            except PlaywrightError:
                pass

    def flush_input(self, xinput, max_frames: int = 120, then: str | None = None):
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
        args = [self.send_sentinel(xinput), max_frames]
        if then is not None:
            return self.page.evaluate(f"([n, f]) => Promise.resolve(window.__hybridgymInputSeen(n, f)).then(() => {then})",
                                      args)
        if not self.page.evaluate("([n, f]) => window.__hybridgymInputSeen(n, f)", args):
            # late rather than lost, on a loaded machine (X delivers to Chromium asynchronously): one more
            # wait of twice as long before calling it lost
            if not self.page.evaluate("([n, f]) => window.__hybridgymInputSeen(n, f)", [args[0], 2 * max_frames]):
                raise RuntimeError("the page did not receive the step's input (does it have keyboard focus?)")
        return None

    def input_barrier(self, xinput, max_frames: int = 8, then: str = "null"):
        """Wait until the page has received every X input event sent before this call and drawn the frame
        after it; returns (whether it did, the value of the JavaScript expression `then`, evaluated in the
        same round trip).

        X input reaches Chromium asynchronously and a long text arrives over several frames, so a screen
        that looks settled can still be missing the last characters. The barrier reads how many sentinels
        the page has seen, presses the sentinel (Pause, after everything else in X's queue) and waits for
        the page to see it, then for its next frame. Input the page does not get (the keyboard focus in the
        browser's address bar, a page being replaced) ends the wait after `max_frames` frames."""
        count = self.page.evaluate("window.__hybridgymSentinels ? window.__hybridgymSentinels() : -1")
        if count < 0:
            return False, self.page.evaluate(f"() => {then}")
        self.send_sentinel(xinput)
        return tuple(self.page.evaluate(
            f"([c, f]) => window.__hybridgymInputAfter(c, f).then(seen => Promise.resolve({then}).then(v => [seen, v]))",
            [count, max_frames]))

    def send_sentinel(self, xinput) -> int:
        """Press Pause through X, the input barrier's sentinel (`flush_input` in two halves:
        this, then `sentinel_seen`, with other work in between); returns its number."""
        self._sentinels += 1
        xinput.hotkey(("pause",))  # in the default keymap: no remapping race
        return self._sentinels

    def sentinel_seen(self, n: int, max_frames: int = 120) -> bool:
        """Whether the page saw sentinel `n` (waiting up to `max_frames` real frames)."""
        return bool(self.page.evaluate("([n, f]) => window.__hybridgymInputSeen ? window.__hybridgymInputSeen(n, f) : true",
                                       [n, max_frames]))

    # Flushes a game's deferred drawing (hgKit.paint) and reads its canvas. A PNG of the
    # canvas is returned only when it is the whole picture: one canvas, at the window's corner
    # and size in device pixels, on top at the corners and the centre. `data` is the value
    # of the caller's (constant) expression, evaluated in the same round trip.
    _CANVAS_FRAME_JS = """async ([last, want, ms]) => {
      window.__hybridgymDefer = true;
      if (ms > 0) await globalThis.__pwClock.controller.runFor(ms);
      if (window.hgKit && typeof hgKit.flush === 'function') hgKit.flush();
      const draws = window.__hybridgymDraws || 0;
      let png = null;
      const cs = document.getElementsByTagName('canvas');
      if (want && draws !== last && cs.length === 1) {
        const c = cs[0], r = c.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
        const w = innerWidth, h = innerHeight;
        const whole = r.left === 0 && r.top === 0 && r.width === w && r.height === h
          && c.width === Math.round(w * dpr) && c.height === Math.round(h * dpr)
          && [[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1], [w >> 1, h >> 1]]
               .every(([x, y]) => document.elementFromPoint(x, y) === c);
        if (whole) png = c.toDataURL('image/png');
      }
      return {draws, png, data: (%s)};
    }"""

    def canvas_frame(self, last_draws: int, data: str = "null", *,
                     advance_ms: float = 0) -> tuple[np.ndarray | None, int, object]:
        """A game page's picture read from its canvas, in one round trip: (frame or None, draw count, data).

        With `advance_ms`, the fake clock is first advanced by that much (as `advance_clock`).
        Sets the page to draw once per env step (see `hgKit.paint` in assets/games/_kit.js) and
        draws what is due. The frame is None when the page has not drawn since `last_draws`, or
        when its canvas is not the whole, opaque window at the screen's size: then read the screen.
        It is the picture Chromium then shows on the screen (tests compare the two), without
        waiting for Chromium to show it.
        """
        # only a full-screen page ("app" mode) starts at the screen's corner
        out = self.page.evaluate(self._CANVAS_FRAME_JS % data, [last_draws, self.mode == "app", max(0, int(advance_ms))])
        frame = None
        if out["png"] is not None:
            frame = _opaque_png(out["png"], (self.width, self.height))
        return frame, int(out["draws"]), out["data"]

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
        if self.browser is not None:
            with contextlib.suppress(Exception):
                self.browser.close()
            self.browser = None
        if self._pw is not None:
            _release_playwright()
            self._pw = None
