"""Observers: one component per way of knowing that a step is over and what the screen then shows.

An env owns one observer (its suite's spec names it). The env's step reads
parse -> execute -> observe -> check; the observer is the "observe": it is told
when the input starts (`before_input`), waits after it in its own way, and
returns one `StepReport`. Observers keep the last frame they returned (the next
wait compares against it) and nothing else of the episode.

- `ScreenSettle`: the screen settles (X DAMAGE events, then quiet); a page still
  loading or fetching is waited for. Computer and browser suites.
- `PageFrame`: the page draws its next frame after the input (MiniWoB): one round
  trip that also reads the task's probe, then the first changed picture.
- `CanvasClock`: the page's clock is virtual (games): one round trip advances it by
  the step's game time and reads the canvas and the task's probe; nothing is waited for.
- `PhoneIdle`: the phone shell has received the input and its apps are idle (one
  round trip), then the screen settles.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from .actions import model as A
from .sandbox.actuators import XActuator, points_of
from .sandbox.pageinput import PageInput


@dataclass
class StepReport:
    """What an observer learned while it waited for the screen after a step or a reset.

    frame: the observation's screenshot, uint8 (H, W, 3).
    answered: the observer's own round trip reached the page (it stands for the browser's health probe).
    probed: the value of the task's `probe`, read in that round trip (None: not read).
    busy: the page still had work in flight when asked (None: not asked).
    requests: backend requests the page's apps made since the input (-1: unknown).
    """
    frame: np.ndarray
    answered: bool = False
    probed: Any = None
    busy: bool | None = None
    requests: int = -1


class Observer:
    """Base: the screen settles after the input (see `ScreenSettle`); subclasses wait their own way."""

    def __init__(self, max_wait_s: float = 10.0):
        self.max_wait_s = max_wait_s
        self.frame: np.ndarray | None = None
        self.raw: bytes | None = None   # the last frame's raw pixels, when it came from the screen

    def bind(self, sb) -> None:
        """A (new) sandbox: forget what was seen on the last one."""
        self.frame, self.raw = None, None

    def before_setup(self, sb, task) -> None:
        """At reset, before the task's setup: prepare the screen for a new episode."""

    def first(self, sb, task) -> StepReport:
        """The first observation of an episode, once the task's setup is done."""
        raise NotImplementedError

    def before_input(self, sb) -> None:
        """Just before a step's input is sent."""

    def wait(self, sb, seconds: float) -> None:
        """The agent's wait(seconds): the wall clock passes (at most `max_wait_s`)."""
        time.sleep(max(0.0, min(float(seconds), self.max_wait_s)))

    def step(self, sb, task, actions: list[A.Action]) -> StepReport:
        """After a step's actions: wait until the step is over, return what the screen shows."""
        raise NotImplementedError

    def _keep(self, frame: np.ndarray, raw: bytes | None) -> np.ndarray:
        self.frame, self.raw = frame, raw
        return frame

    @property
    def before(self) -> "bytes | np.ndarray | None":
        """The last picture, to tell a new one from (`XShmCapture.settle(before=)`): its raw bytes from the
        screen, or its RGB frame when it was read without them (`XShmCapture.read_marked`)."""
        return self.raw if self.raw is not None else self.frame


def _sent_input(actions) -> bool:
    """Whether the step sent the screen input (keys, clicks, touches), not only waits or SDK calls."""
    return any(a.channel == "gui" for a in actions)


def _one_click(actions) -> int:
    """The button releases of a step whose input is one left click or double click (1 or 2), else 0."""
    gui = [a for a in actions if a.channel == "gui"]
    return {A.Click: 1, A.DoubleClick: 2}.get(type(gui[0]), 0) if len(gui) == 1 else 0


#: after the pointer moved onto a link, off one, or from one to another, when the browser's status bubble (the
#: link's address at the window's foot) has its final look: Chromium shows it 80 ms after the pointer came onto
#: a link and fades it in for 120 ms, changes its text at once, and hides it 250 ms after the pointer left, fading
#: it out for 200 ms (measured on the admin app: the last change 215-220, 13 and 460-465 ms after the move)
LINK_SHOWN_S, LINK_SWITCHED_S, LINK_HIDDEN_S = 0.25, 0.04, 0.5
#: how long after the page handed a frame to the compositor it can still be on its way to the screen
PAGE_TO_SCREEN_S = 0.012
#: how long a <select>'s list must not change before it counts as open (it is drawn over a few frames)
SELECT_QUIET_S = 0.04


class ScreenSettle(Observer):
    """The screen settles: after the input, the first change and then quiet (X DAMAGE events);
    a page that started a request or a load is waited for until it ran on the answer
    (`ChromiumBrowser.work`) and drew its next real frames, so the observation shows the
    result, not the moment before; a step that moved the pointer onto or off a link waits for
    the browser's status bubble (`LINK_SHOWN_S`).

    After a reset, the page (if any) must first have drawn two real frames, and the screen
    must then be quiet for longer than between steps.
    """

    _work: tuple = (None, 0)          # (document, pieces of work finished) at the last observation
    _link: tuple = (None, 0, "")      # (document, link changes, link under the pointer) at the last observation
    _selects: int = 0                 # presses on a <select> at the last observation

    def first(self, sb, task) -> StepReport:
        if sb.browser is not None:
            sb.browser.wait_real_frame()
        frame, raw, _ = sb.capture.settle(quiet=0.05, max_wait=1.5)
        if sb.browser is not None and sb.browser.page is not None:
            frame, raw, _ = self._after_page(sb, frame, raw, first=True)
        return StepReport(self._keep(frame, raw))

    def step(self, sb, task, actions) -> StepReport:
        capture, browser = sb.capture, sb.browser
        if browser is not None and sb.desktop is None and browser.page is not None and _sent_input(actions):
            try:   # every key and click has reached the page and been drawn (a long text arrives over frames)
                browser.input_barrier(sb.input)
            except Exception:   # a navigation replaced the page: `work` below waits for the new one
                pass
        frame, raw, _ = capture.settle(before=self.raw, max_wait=0.5)
        answered = False
        if browser is not None and browser.page is not None:
            frame, raw, answered = self._after_page(sb, frame, raw)
        return StepReport(self._keep(frame, raw), answered=answered)

    def _after_page(self, sb, frame, raw, first: bool = False):
        """The picture once the page's work since the last observation is drawn and the status bubble
        has its final look (`frame`, `raw` when there was nothing to wait for), and whether the page answered
        the last question about its work (a round trip through Playwright: it stands for the browser's health
        probe). `first`: the episode's first picture, taken once the page drew two frames and the screen was quiet."""
        capture, browser = sb.capture, sb.browser
        work = browser.work()
        if work is None or work.busy or work.undrawn or (not first and (work.doc, work.finished) != self._work):
            page = None if work is None else work.page
            browser.wait_idle(timeout=self.max_wait_s, page=page)
            try:
                browser.wait_real_frame(page=page)
            except Exception:   # the page went on being replaced: the screen below is what there is
                pass
            frame, raw, _ = capture.settle(quiet=0.02, max_wait=1.0)
            work = browser.work()
        if work is None:
            return frame, raw, False
        if work.drawn_s < PAGE_TO_SCREEN_S:   # the page's last change was drawn just now: it may not be on the screen yet
            frame, raw, _ = capture.settle(before=raw, change_timeout=PAGE_TO_SCREEN_S - work.drawn_s, max_wait=0.3)
        if work.selects != self._selects:     # a <select>'s list (a window of its own) may be opening
            frame, raw, _ = capture.settle(quiet=SELECT_QUIET_S, max_wait=0.5)
        self._work, self._selects = (work.doc, work.finished), work.selects
        doc, changes, link = work.doc, work.link_changes, work.link
        (last_doc, last_changes, last_link), self._link = self._link, (doc, changes, link)
        if (doc, changes) == (last_doc, last_changes):
            return frame, raw, True
        if link and last_link:
            need = LINK_SWITCHED_S
        elif link:
            need = LINK_SHOWN_S
        elif last_link or doc == last_doc:   # gone, or the pointer passed over a link during the step
            need = LINK_HIDDEN_S
        else:
            return frame, raw, True
        if need - work.link_s > 0:
            time.sleep(need - work.link_s)
            frame, raw, _ = capture.settle(quiet=0.02, max_wait=0.3)
        return frame, raw, True


#: after a step's input, how long nothing may be drawn before a MiniWoB page's screen counts as settled. Chromium
#: can put the input's frame on the screen a frame after the page drew it, behind an earlier one: replaying the
#: oracles of 8 tasks x 8 seeds (160 steps, `benchmarks/check_observations.py --suite miniwob`), 2 ms left 2-7
#: observations stale, 3 ms 1-4, 4 ms 0-3 and 5 ms none (the screen is grabbed meanwhile: `XShmCapture.settle`)
PAGE_QUIET_S = 0.005
#: how long a MiniWoB step waits for the frame marker's new colour on the screen before it waits for a quiet screen
MARK_WAIT_S = 0.1
# a step's page frame, then the task's probe: "() => <frame>.then(() => <probe>)"
_NEXT_FRAME_THEN = "() => new Promise(r => requestAnimationFrame(() => setTimeout(() => r(%s), 0)))"
# the task's probe once the page's tasks queued so far have run (in the barrier's round trip)
_AFTER_TASKS_THEN = "new Promise(r => window.__hgRealTimeout(() => r(%s), 0))"


class PageFrame(Observer):
    """The page draws a frame after the step's input, then the screen shows it (MiniWoB).

    With the frame marker (`Sandbox(marker_rows=)`, MiniWoB's sandbox), the step's sentinel is a marking one: the
    page gives the strip below the screenshot its next colour as the sentinel arrives, the barrier's round trip
    returns that colour and the task's probe, and the picture is read from Xvfb's framebuffer once the screen shows
    the colour (`XShmCapture.read_marked`). A step that is one click (or double click) sends no sentinel key: the
    click's last release is the sentinel (`ChromiumBrowser.click_barrier`; 0.8-1.4 ms less a step). A right click,
    a press on the browser's own bar or on a <select> (then `SELECT_QUIET_S` of quiet: its list is a window of its
    own), and a page without the strip (after `MARK_WAIT_S`) fall back to the wait below.

    X input reaches the page before its next animation frame, so once that frame is drawn
    the screen shows the input's effect (or nothing changed: then the change time-out, 30 ms,
    ends the wait). A loaded machine delays Chromium's drawing to X; waiting for the frame
    first keeps the observation from being the old picture. Chromium may put that frame on
    the screen after an earlier one, so the picture is the screen once nothing has been drawn
    since the input for `PAGE_QUIET_S` (grabbed meanwhile). The frame's round trip also reads
    the task's probe (MiniWoB: whether the page ended the episode).

    Keyboard focus: a step whose keys or clicks may have moved the focus out of the page
    (keys, a right click, a click on the browser's own bar, a press on a <select>, whose list is
    a window of its own) makes the next reset wait until the reset's Escapes reached what had
    the keys, give the focus back, and take the first picture after a short quiet time (the
    closed window's place is drawn again with the old page first). Otherwise the task's set-up
    waits for the Escapes in its own round trip (`Task.waits_for_escape`).
    `fresh_page`: the page is blanked before every reset (the task then reloads it).
    """

    def __init__(self, max_wait_s: float = 10.0, fresh_page: bool = False):
        super().__init__(max_wait_s)
        self.fresh_page = bool(fresh_page)
        self.focus_may_have_left = True
        self.window_closed = False   # the reset's Escapes closed a window of the browser's own (`first`)

    def bind(self, sb) -> None:
        super().bind(sb)
        self.focus_may_have_left, self.window_closed = True, False

    def before_setup(self, sb, task) -> None:
        sb.browser.mark = None   # a colour of the last episode's, on the screen already: the set-up gives a new one
        # the first picture at the marker (after a reset that closed a window of the browser's own, then also once
        # the screen is quiet: `first`)
        sb.first_marked = sb.marker_point is not None
        page = sb.browser.page
        if page is None:
            return
        if self.fresh_page or self.focus_may_have_left:
            # what the reset's Escapes are for (the address bar, a menu, the old page) is about to go: they
            # must have reached it first (else the task's set-up waits for them in its own round trip)
            escape, sb.unseen_escape = sb.unseen_escape, None
            sb.dialogs_dismissed(escape)
            self.window_closed = self.focus_may_have_left
        if self.fresh_page:
            try:
                page.goto("about:blank")
            except Exception:   # a dead part: the env's reset restarts the sandbox
                pass
        if self.focus_may_have_left:
            # keyboard focus back to the page: the last episode may have left it in the address
            # bar (the page cannot tell: Playwright emulates document.hasFocus())
            page.bring_to_front()
            self.focus_may_have_left = False

    def first(self, sb, task) -> StepReport:
        """The new episode's first picture. With the frame marker (`sb.first_marked`), the set-up gave the marker a
        colour once the page showed the new episode: the picture is read once the screen shows that colour (and,
        after a reset that closed a window of the browser's own, once the screen is then quiet for `PAGE_QUIET_S`).
        Otherwise the set-up changed the page (MiniWoB hides its START cover and
        draws the task, and the set-up's round trip returned once the page drew it): the first picture that
        differs from the last step's is the frame that shows it, or, after a reset that closed a window of the
        browser's own (a menu, a <select>'s list), the picture once the screen was quiet for `PAGE_QUIET_S`.
        With no earlier picture to compare with (the first reset of the sandbox), two real frames are
        waited for first: a grab right after the set-up could still show the cover."""
        mark = sb.browser.mark
        if mark is not None and sb.marker_point is not None:
            # the set-up gave the frame marker a colour once the page showed the new episode
            frame, raw = sb.capture.read_marked(sb.marker_point, mark, MARK_WAIT_S), None
            if frame is not None:
                if self.window_closed:
                    # a window of the browser's own that the reset closed: Chromium draws its place again when X
                    # tells it the place is bare, which may come after the episode's frame; then 5 ms of quiet
                    self.window_closed = False
                    frame, raw, _ = sb.capture.settle(before=None, quiet=PAGE_QUIET_S, max_wait=1.5, poll=0.001)
                return StepReport(self._keep(frame, raw))
        if self.frame is None:
            try:
                sb.browser.wait_real_frame()
            except Exception:   # a dead part: the env's health check after the reset tells
                pass
        # a window of the browser's own that the reset closed (a menu, a <select>'s list) leaves the page's old
        # picture drawn again beneath it: the new one follows within a few ms
        quiet, self.window_closed = (PAGE_QUIET_S if self.window_closed else 0.0), False
        frame, raw, _ = sb.capture.settle(before=self.before, change_timeout=0.05, quiet=quiet, max_wait=1.5, poll=0.001)
        return StepReport(self._keep(frame, raw))

    def before_input(self, sb) -> None:
        # what is drawn from here on is the step's: a frame of the last step still on its way must not end the wait
        sb.capture.mark()

    def step(self, sb, task, actions) -> StepReport:
        browser = sb.browser
        top = browser.viewport_origin()[1]
        # the step may have opened a window of the browser's own (a menu, a bubble) that the page's frame does not tell
        # of; a key that did (a menu key, a shortcut) has the keyboard: the page then does not see the sentinel
        own_window = False
        for act in actions:
            if isinstance(act, A.RightClick) or any(y < top for _, y in points_of(act)):
                self.focus_may_have_left = own_window = True
            elif isinstance(act, (A.Hotkey, A.KeyDown, A.KeyUp, A.TypeText)):
                self.focus_may_have_left = True
        answered, probed, barrier, seen, selects = False, None, False, None, 0
        read = f"[{task.probe or 'null'}, window.__hybridgymSelects ? __hybridgymSelects() : 0]"
        marked = sb.marker_point is not None and not own_window
        try:
            if _sent_input(actions) and marked:
                # all the input reached the page; the screen then tells when the frame after it is shown (the frame
                # marker), and the task is asked after the page's work on that input (a task may end its episode
                # in a timer of its own). A step that is one click: its release is the sentinel
                releases, then = _one_click(actions), _AFTER_TASKS_THEN % read
                answer = browser.click_barrier(sb.input, releases, browser.INPUT_FRAMES, then=then) if releases else None
                if answer is None:
                    answer = browser.barrier(browser.send_sentinel(sb.input, mark=True), browser.INPUT_FRAMES, then=then)
                seen, (probed, selects) = answer
                barrier = True
            elif _sent_input(actions):   # all the input reached the page (a long text arrives over frames), then a frame
                seen, (probed, selects) = browser.input_barrier(sb.input, then=read)
                barrier = True
            else:
                probed, selects = browser.page.evaluate(_NEXT_FRAME_THEN % read)
            answered = True
            if selects:   # a <select>'s list may be open: a window of its own that has the keys
                self.focus_may_have_left = True
        except Exception:   # a navigation replaced the page: the screen alone, the task asked itself
            pass
        mark = browser.mark if barrier and marked else None
        if mark is not None and not selects:
            # the frame marker shows the sentinel's colour: the frame after all the step's input is on the screen
            frame = sb.capture.read_marked(sb.marker_point, mark, MARK_WAIT_S)
            if frame is not None:
                return StepReport(self._keep(frame, None), answered=answered, probed=probed)
        # a press on a <select> opens its list, a window of its own drawn over a few frames after the page's (a click's
        # release seen at once left 2-7 of 12 such pictures without the list with 5 ms of quiet)
        quiet = SELECT_QUIET_S if selects else PAGE_QUIET_S if barrier else 0.0
        frame, raw, _ = sb.capture.settle(before=self.before, change_timeout=0.03, quiet=quiet, max_wait=0.5, poll=0.001)
        if seen is False and task.probe:
            # the page did not see the sentinel within its frames: the keys went elsewhere (the address bar), or a
            # loaded machine gave the page the step's input late (a click that moved the focus back from the
            # address bar): the task is asked again once the screen has settled
            with contextlib.suppress(Exception):
                probed = browser.evaluate_cdp(f"() => {task.probe}")
        return StepReport(self._keep(frame, raw), answered=answered, probed=probed)


class CanvasClock(Observer):
    """The page's timers are virtual (a game): the picture is read, not waited for.

    One round trip advances the clock by the step's game time (`step_ms`, else the task's),
    lets the game draw once (`hgKit.paint`) and reads its canvas with the task's probe: it is
    the picture Chromium then shows on the screen, without waiting for Chromium's frames.
    A page that drew nothing keeps the last picture. A page whose canvas is not the whole
    screen is read from the screen: two real frames, then (Chromium may show the picture late
    under load) up to 50 ms for the screen to differ, then for quiet. The clock never moves
    before the page has the step's input (`ChromiumBrowser.canvas_frame(after_input=)`, one round trip). `wait(seconds)`
    advances the game clock by that much (at most 60 s) instead of sleeping.

    `input`: "x" (real X input, the default) or "page": the step's keys and clicks become DOM events that the
    page dispatches itself in the step's call, with no X input and no input barrier
    (`hybridgym.sandbox.pageinput`; the sandbox's actuator is then one of `PageInput`).
    """

    INPUTS = ("x", "page")

    def __init__(self, max_wait_s: float = 10.0, step_ms: int | None = None, input: str = "x"):
        super().__init__(max_wait_s)
        if step_ms is not None and not 1 <= int(step_ms) <= 600_000:
            raise ValueError(f"step_ms must be 1..600000 ms of game time, got {step_ms}")
        if input not in self.INPUTS:
            raise ValueError(f"input must be one of {list(self.INPUTS)}, got {input!r}")
        self.step_ms = None if step_ms is None else int(step_ms)
        self.input = input
        self.page_input: PageInput | None = None
        self.draws = -1

    def bind(self, sb) -> None:
        super().bind(sb)
        self.draws = -1
        if self.input == "page":   # the actions' events go to the page with the step's call
            self.page_input = PageInput(sb.browser.to_page, (sb.width - 1, sb.height - 1))
            sb.actuator = XActuator(self.page_input, (sb.width, sb.height))

    def wait(self, sb, seconds: float) -> None:
        ms = max(0.0, min(float(seconds), 60.0)) * 1000
        if ms > 0:   # keys sent before the wait must act before the game time it skips
            if self.page_input is not None:
                sb.browser.dispatch_input(self.page_input.take())
            else:
                sb.browser.flush_input(sb.input)
            sb.browser.advance_clock(ms)

    def first(self, sb, task) -> StepReport:
        if self.page_input is not None:   # a new page: nothing held, the pointer where the env parks X's
            self.page_input.reset()
        return self._read(sb, task, first=True, advance_ms=0)

    def step(self, sb, task, actions) -> StepReport:
        ms = self.step_ms or task.step_ms
        if self.page_input is not None:   # the events travel with the read
            return self._read(sb, task, first=False, advance_ms=ms, events=self.page_input.take())
        sent = any(a.channel == "gui" for a in actions)   # the clock moves once the page has the input
        return self._read(sb, task, first=False, advance_ms=ms, after_input=sb.input if sent else None)

    def _read(self, sb, task, first: bool, advance_ms: int, after_input=None, events=None) -> StepReport:
        browser = sb.browser
        frame, draws, probed = browser.canvas_frame(-1 if first else self.draws, task.probe or "null",
                                                    advance_ms=advance_ms, after_input=after_input, events=events)
        if frame is not None:
            self._keep(frame, None)
        elif not first and draws == self.draws:
            self._keep(self.frame.copy(), self.raw)   # the same picture, in a new array (the caller keeps the last)
        else:
            browser.wait_real_frame()
            frame, raw, _ = sb.capture.settle(before=None if first else self.raw, change_timeout=0.05,
                                              quiet=0.02, max_wait=1.0)
            self._keep(frame, raw)
        self.draws = draws
        return StepReport(self.frame, answered=not first, probed=None if first else probed)


#: after a step's input, how long nothing may be drawn before the phone's screen counts as settled
#: (replaying 30 tasks' oracles: 0-2 stale observations in 186 steps at 4 ms, 8 at 2 ms)
SETTLE_QUIET_S = 0.004
#: the same after a step whose input made the apps call their backend: the reply's picture can come a frame after
#: an earlier one (the keyboard going), behind it. Replaying all 58 tasks' oracles (410 steps,
#: `benchmarks/check_observations.py --suite mobile --later 0.15`): 7-10 stale at 4 ms, most of them such replies
REPLY_QUIET_S = 0.008
#: after a step whose input made the apps call their backend, drawing older than this when the
#: page's last frame is done is an earlier picture, not the reply's
REPLY_FRAME_AGE_S = 0.010
#: the X input a phone step may send (the shell must have received it before the env looks)
_X_INPUT = (A.Tap, A.Click, A.DoubleClick, A.LongPress, A.Swipe, A.Drag, A.Scroll, A.TypeText, A.Hotkey,
            A.KeyDown, A.KeyUp, A.MouseDown, A.MouseUp)
_SHELL_BUTTONS = (A.PressBack, A.PressHome, A.OpenApp)
# wait until the apps are idle, then until the next frame (the one that shows the DOM as it is
# now) has been painted and handed to the compositor; answers whether other requests or a page
# load are still in flight (`__hybridgymBusy`), and how many backend requests the apps made
# (-1: unknown)
PHONE_IDLE = ("(window.phone && phone.idle ? Promise.race([phone.idle(), new Promise(r => setTimeout(() => r(-1), 2000))])"
              " : Promise.resolve(-1))"
              ".then(n => Promise.resolve(window.__hybridgymNextFrame && window.__hybridgymNextFrame()).then(() => n))"
              ".then(n => new Promise(r => setTimeout(() => r(n), 0)))"
              ".then(n => [Boolean(window.__hybridgymBusy && window.__hybridgymBusy()), typeof n === 'number' ? n : -1])")


class PhoneIdle(ScreenSettle):
    """The phone shell has the step's input and its apps are idle, then the screen settles.

    Before looking: the page has received the step's input (an input barrier, see
    `ChromiumBrowser.flush_input`) and an app that answered it with a backend request has
    rendered the reply (`phone.idle()`); one round trip to the page. Then the apps are idle
    and the frame with their DOM has been handed to the compositor: it is drawn within a few
    ms, and earlier frames may still be drawn before it. So: the first drawing since the
    step's input (`capture.mark()` before it), then nothing drawn for `SETTLE_QUIET_S`.
    When the apps called their backend, the screen drawn from the reply may follow the tap's
    own picture by many frames (Save: the keyboard goes, the list comes with the reply): a
    picture drawn well before the page's last frame is not the result. A page still busy
    (a load) is left to `ScreenSettle`.
    """

    def first(self, sb, task) -> StepReport:
        # the shell is up (the task booted it) and has no animations: its first frame, then a short quiet
        sb.browser.page.evaluate(PHONE_IDLE)
        frame, raw, _ = sb.capture.settle(quiet=0.02, max_wait=1.5)
        return StepReport(self._keep(frame, raw))

    def before_input(self, sb) -> None:
        # what is drawn from here on is the step's (the last observation may predate a frame
        # that was still on its way: drawing before the touch must not end the wait)
        sb.capture.mark()

    def step(self, sb, task, actions) -> StepReport:
        b = sb.browser
        busy, requests = None, -1
        if b.page is not None:
            if any(isinstance(a, _X_INPUT) for a in actions):
                busy, requests = b.flush_input(sb.input, max_frames=30, then=PHONE_IDLE)
            elif any(isinstance(a, _SHELL_BUTTONS) for a in actions):
                busy, requests = b.page.evaluate(PHONE_IDLE)
        if busy is not False:
            report = super().step(sb, task, actions)
            report.answered, report.busy = busy is not None, busy
            return report
        # after a backend reply: a longer quiet, and a picture drawn well before the page's last frame is not the result
        quiet, older_than, change_timeout = ((REPLY_QUIET_S, REPLY_FRAME_AGE_S, 0.02) if requests != 0
                                             else (SETTLE_QUIET_S, None, 0.05))
        frame, raw, _ = sb.capture.settle(before=self.raw, quiet=quiet, max_wait=0.5, older_than=older_than,
                                          change_timeout=change_timeout)
        return StepReport(self._keep(frame, raw), answered=True, busy=False, requests=requests)
