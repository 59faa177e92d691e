"""Screen capture of an X display through mss (XShmGetImage), and waiting for the screen to
settle, told by the X DAMAGE extension when anything is drawn (polling frames where it is missing)."""

from __future__ import annotations

import mmap
import select
import struct
import time

import mss
import numpy as np

try:   # OpenCV's SIMD colour conversion: 0.25 ms for a 1280x800 screen, numpy's channel copies 0.9-2.5 ms
    import cv2
    cv2.setNumThreads(1)   # one frame is too small to share out; the other core is the browser's
except ImportError:        # pragma: no cover - the [dev] and default installs have it
    cv2 = None


class DamageWatch:
    """Tells when anything has been drawn on an X screen: a DAMAGE object on the root window
    (level NonEmpty: one event when its region turns non-empty), re-armed after each event.
    Waiting costs no CPU, where polling grabs of a phone screen took half a core from the
    browser that was drawing it."""

    def __init__(self, display_name: str):
        from Xlib import display as xdisplay
        from Xlib.ext import damage
        self._d = xdisplay.Display(display_name)
        try:
            if not self._d.has_extension("DAMAGE"):
                raise RuntimeError(f"X display {display_name} has no DAMAGE extension")
            self._d.damage_query_version()
            self._offset_ms = self._server_clock_offset()
            self._damage = self._d.screen().root.damage_create(damage.DamageReportNonEmpty)
            self._d.sync()
        except BaseException:
            self._d.close()
            raise
        self.last_ms = 0   # X server time of the last drawing seen

    def _server_clock_offset(self) -> float:
        """X server time (ms) minus time.monotonic() (ms), from a property change's timestamp."""
        from Xlib import X, Xatom
        win = self._d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent, X.InputOnly,
                                                  X.CopyFromParent, event_mask=X.PropertyChangeMask)
        t0 = time.monotonic()
        win.change_property(Xatom.WM_NAME, Xatom.STRING, 8, b"hybridgym")
        while True:
            ev = self._d.next_event()
            if ev.type == X.PropertyNotify:
                break
        t1 = time.monotonic()
        win.destroy()
        self._d.sync()
        return ev.time - (t0 + t1) / 2 * 1000

    def take(self) -> bool:
        """Whether anything was drawn since the last `take` (reads the events that have arrived;
        re-arms)."""
        n = 0
        while self._d.pending_events():
            ev = self._d.next_event()
            if hasattr(ev, "drawable_geometry"):   # a DamageNotify
                n += 1
                self.last_ms = ev.timestamp
        if n:
            self._d.damage_subtract(self._damage)
            self._d.flush()
        return n > 0

    def age(self) -> float:
        """Seconds since the last drawing seen by `take`."""
        d = (time.monotonic() * 1000 + self._offset_ms - self.last_ms) % 2 ** 32   # the server's time wraps
        return max(0.0, d - 2 ** 32 if d >= 2 ** 31 else d) / 1000   # ms ticks: a moment early

    def wait(self, timeout: float) -> bool:
        """Whether something is drawn within `timeout` seconds (or had been, unread)."""
        if self.take():
            return True
        if timeout > 0 and select.select([self._d.fileno()], [], [], timeout)[0]:
            return self.take()
        return False

    def arm(self) -> None:
        """Forget what was drawn so far: after this returns, any drawing is an event.

        The events already read are dropped before the region is cleared, not after: an event
        of a drawing made just after the clearing must stay (dropped, it would leave the
        region non-empty and no further drawing would be reported)."""
        while self._d.pending_events():
            self._d.next_event()
        self._d.damage_subtract(self._damage)
        self._d.sync()   # processed by the server before anything the caller does next

    def caught_up(self) -> bool:
        """Whether anything was drawn since the last `take`, up to now: one round trip to the server first,
        so a drawing request it was carrying out meanwhile has ended and its event is read (the server carries
        out one request at a time, and sends a drawing's event once the drawing is done)."""
        self._d.sync()
        return self.take()

    def close(self) -> None:
        try:
            self._d.close()
        except Exception:
            pass


class Framebuffer:
    """The screen's pixels where Xvfb keeps them (`XvfbDisplay(framebuffer_dir=...)`: a memory-mapped XWD
    file), read without a request to the server: a 1280x800 screen copied in 0.1-1 ms, where an XShm grab
    waits for the server, which may be busy putting the browser's frame (2.7-3.5 ms in a MiniWoB step).

    Xvfb writes that memory while it carries out a drawing request, so a read can meet a drawing half done:
    `XShmCapture.read_marked` reads again when the server drew meanwhile."""

    def __init__(self, path: str, width: int, height: int):
        with open(path, "rb") as f:
            self._map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            head = struct.unpack(">25I", self._map[:100])   # XWDFileHeader, big-endian
            header_size, depth, bits_per_pixel, bytes_per_line = head[0], head[3], head[11], head[12]
            screen_w, screen_h, ncolors = head[4], head[5], head[19]
            if depth != 24 or bits_per_pixel != 32 or screen_w < width or screen_h < height:
                raise RuntimeError(f"unexpected framebuffer: depth {depth}, {bits_per_pixel} bits per pixel, "
                                   f"{screen_w}x{screen_h} for a {width}x{height} capture")
            offset = header_size + ncolors * 12   # then the colormap's XWDColor entries
            pixels = np.frombuffer(self._map, np.uint8, count=screen_h * bytes_per_line, offset=offset)
            self.screen = pixels.reshape(screen_h, bytes_per_line // 4, 4)   # BGRX rows of the whole screen
        except BaseException:
            self._map.close()
            raise
        self.width, self.height = width, height

    def pixel(self, x: int, y: int) -> int:
        """The screen's pixel at (x, y) as 0xRRGGBB."""
        b, g, r = self.screen[y, x, :3].tolist()
        return (r << 16) | (g << 8) | b

    def rgb(self) -> np.ndarray:
        """The top-left width x height of the screen as a new RGB array (as `XShmCapture.grab` gives it).
        On two threads: it is read once the browser's frame is on the screen, so the other core is free
        (1.3-1.7 ms against 2.0 on one, in a MiniWoB step)."""
        bgra = self.screen[:self.height, :self.width]
        if cv2 is not None:
            cv2.setNumThreads(2)
            try:
                return cv2.cvtColor(bgra, cv2.COLOR_BGRA2RGB)
            finally:
                cv2.setNumThreads(1)
        return np.ascontiguousarray(bgra[..., 2::-1])

    def close(self) -> None:
        self.screen = None
        try:
            self._map.close()
        except (BufferError, ValueError):   # a view of it still held: the mapping goes with it
            pass


def _differs(shot: tuple[bytes, np.ndarray | None], before: "bytes | np.ndarray | None") -> bool:
    """Whether a grab (raw BGRA, its RGB array) differs from `before`: an earlier grab's raw bytes, or an
    earlier frame's RGB array (one read from the framebuffer), or None (nothing to compare with)."""
    if before is None:
        return True
    if isinstance(before, np.ndarray):
        if cv2 is not None and shot[1].shape == before.shape:   # no temporary array: 0.1 ms, numpy's 0.3-1.3
            return cv2.norm(shot[1], before, cv2.NORM_INF) != 0
        return not np.array_equal(shot[1], before)
    return shot[0] != before


#: a quiet time at least this long is used to grab the screen meanwhile (`XShmCapture.settle`)
EARLY_GRAB_S = 0.002


class XShmCapture:
    """Grabs the whole display as RGB uint8 (H, W, 3)."""

    def __init__(self, display_name: str, width: int, height: int, damage: bool = True,
                 framebuffer: str | None = None):
        self.width, self.height = width, height
        self._mss = mss.MSS(display=display_name)
        #: the screen's memory (`Framebuffer`), with DAMAGE, for `read_marked`
        self.framebuffer = Framebuffer(framebuffer, width, height) if framebuffer is not None and damage else None
        self._region = {"left": 0, "top": 0, "width": width, "height": height}
        self.shm = str(getattr(self._mss, "shm_status", "unknown"))
        self.damage: DamageWatch | None = None
        if damage:
            try:
                self.damage = DamageWatch(display_name)
            except RuntimeError:   # no DAMAGE extension: poll
                pass

    def grab_raw(self) -> bytearray:
        """The display as BGRA bytes (cheap to compare): mss's own copy of the shared memory,
        not copied again into `bytes` (0.5 ms of a phone screen)."""
        return self._mss.grab(self._region).raw

    @staticmethod
    def to_rgb(raw: bytes, width: int, height: int) -> np.ndarray:
        """BGRA bytes -> a new, writable RGB array: OpenCV's conversion (0.25 ms for a 1280x800 screen),
        else one channel at a time with numpy (1.0 ms for a 720x1600 phone screen idle, 2-3 ms in a step,
        where PIL's BGRX unpacker took 1.4 ms and a fancy-indexed copy 3.9 ms)."""
        bgra = np.frombuffer(raw, np.uint8).reshape(height, width, 4)
        if cv2 is not None:
            return cv2.cvtColor(bgra, cv2.COLOR_BGRA2RGB)
        rgb = np.empty((height, width, 3), np.uint8)
        rgb[..., 0] = bgra[..., 2]
        rgb[..., 1] = bgra[..., 1]
        rgb[..., 2] = bgra[..., 0]
        return rgb

    def grab(self) -> np.ndarray:
        return self.to_rgb(self.grab_raw(), self.width, self.height)

    def mark(self) -> None:
        """From now on, `settle` counts drawing as a change (forgets what was drawn before).
        Without DAMAGE, a no-op: the frames are compared with `before`."""
        if self.damage is not None:
            self.damage.arm()

    def settle(self, *, change_timeout: float = 0.05, quiet: float = 0.008,
               max_wait: float = 1.0, poll: float = 0.002, before: "bytes | np.ndarray | None" = None,
               older_than: float | None = None) -> tuple[np.ndarray, bytes, dict]:
        """Wait until the screen stops changing (no fixed long sleep).

        If `before` is given (the frame before an action: its raw bytes, or its RGB array), waits up to `change_timeout` for
        the screen to change; once it has changed (or did not within that time), returns as
        soon as nothing has been drawn for `quiet` seconds. Gives up at `max_wait` (an
        animation that never stops). Returns (RGB frame, raw BGRA, info).

        With DAMAGE, "changed" means drawn on since the last settle's frame (or `mark`),
        and what was drawn before this call counts as drawn now, unless it was drawn more than
        `older_than` seconds ago (then the change is still to come). The frame is grabbed as soon
        as the quiet time starts (after the last drawing), while it runs: a drawing after the grab
        makes it void (it is grabbed again once that drawing's quiet time starts), so the picture
        returned is the screen after the last drawing, and the grab and its RGB copy cost no time
        of their own. Without DAMAGE, frames are polled every `poll` seconds and compared.
        """
        if self.damage is None:
            return self._settle_polling(change_timeout, quiet, max_wait, poll, before)
        start = time.perf_counter()
        watch, events = self.damage, 0
        drawn = watch.take()
        if drawn and older_than is not None and watch.age() > older_than:
            drawn = False   # an earlier picture: the one awaited is still to come
        events += drawn
        drawn = drawn or before is None   # no `before`: wait for a quiet screen from now
        last = start
        shot: tuple[bytearray, np.ndarray] | None = None   # grabbed after the last drawing seen
        while True:
            now = time.perf_counter()
            if now - start >= max_wait:
                break
            if drawn:
                left = quiet - (now - last)
                if left <= 0:
                    break
                if shot is None and left >= EARLY_GRAB_S:
                    raw = self.grab_raw()
                    shot = (raw, self.to_rgb(raw, self.width, self.height))
                    continue
            else:
                left = change_timeout - (now - start)
                if left <= 0:
                    break
            if watch.wait(min(left, max_wait - (now - start))):
                drawn, last, shot = True, time.perf_counter(), None
                events += 1
        if shot is None:
            raw = self.grab_raw()
            shot = (raw, self.to_rgb(raw, self.width, self.height))
        changed = _differs(shot, before)
        info = {"settle_s": time.perf_counter() - start, "damage_events": events, "changed": changed}
        return shot[1], shot[0], info

    def _settle_polling(self, change_timeout, quiet, max_wait, poll, before):
        start = time.perf_counter()
        frame = self.grab_raw()
        rgb = self.to_rgb(frame, self.width, self.height) if isinstance(before, np.ndarray) else None
        changed = _differs((frame, rgb), before)
        stable_since = time.perf_counter()
        polls = 1
        while True:
            now = time.perf_counter()
            if now - start >= max_wait:
                break
            if changed and now - stable_since >= quiet:
                break
            if not changed and now - start >= change_timeout:
                break
            time.sleep(poll)
            nxt = self.grab_raw()
            polls += 1
            if nxt != frame:
                frame, stable_since = nxt, time.perf_counter()
                rgb = self.to_rgb(frame, self.width, self.height) if isinstance(before, np.ndarray) else None
                changed = changed or _differs((frame, rgb), before)
        info = {"settle_s": time.perf_counter() - start, "settle_polls": polls, "changed": changed}
        return self.to_rgb(frame, self.width, self.height), frame, info

    #: reads of the screen in a row that a drawing may have met, before `read_marked` grabs it through X
    MARKED_READS = 4

    def read_marked(self, point: tuple[int, int], mark: int, timeout: float) -> np.ndarray | None:
        """The screen once the pixel at `point` (out of the capture, below it) is `mark` (0xRRGGBB): the page
        gives that pixel a new colour with the step's last input, so the frame that shows it shows everything
        that input did. Returns the RGB frame, or None if the pixel was not `mark` within `timeout` seconds.
        Needs `framebuffer` and DAMAGE. (No raw copy: a later `settle` compares with the RGB frame.)

        Waits for drawing (DAMAGE events) and looks at the pixel after each. The picture is read from the
        framebuffer; a read that a drawing may have met (the server drew meanwhile: `DamageWatch.caught_up`) is
        made again, and after `MARKED_READS` of them the screen is grabbed through X, whose grab no drawing
        interrupts."""
        fb, watch = self.framebuffer, self.damage
        if fb is None or watch is None:
            return None
        x, y = point
        deadline = time.perf_counter() + timeout
        while fb.pixel(x, y) != mark:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            if watch.wait(left):
                # `wait` re-armed the watch without waiting for the server: a drawing it did before that is in the
                # framebuffer once the server answers, and one after it is an event (else one drawn in between
                # would be neither seen here nor an event: a wait to the time-out, measured 1 in 24 steps)
                watch.caught_up()
        watch.caught_up()   # the events of the drawings so far: from here on, one is a drawing the read may meet
        for _ in range(self.MARKED_READS):
            frame = fb.rgb()
            if not watch.caught_up():
                return frame
        return self.grab()

    def close(self) -> None:
        if self.framebuffer is not None:
            self.framebuffer.close()
        if self.damage is not None:
            self.damage.close()
        try:
            self._mss.close()
        except Exception:
            pass
