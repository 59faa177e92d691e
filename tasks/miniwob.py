"""MiniWoB++ through hybridgym: every task page of the installed `miniwob` package as a task of the
"miniwob" suite (`hybridgym/miniwob.<name>-v0`; FlightWoB pages as `miniwob.flight.<site>-v0`).

## Description
The pages are served from the installed package (nothing is copied here) by the env's
own 127.0.0.1 server at `/miniwob/`, shown in the browser suite's Chromium window,
played with the env's own actions, and rewarded by the reward MiniWoB's core.js
computes in the page. `UNRUNNABLE` lists the pages that cannot be run and why; eight
tasks have scripted solvers (`ORACLES`).

## Action Space
The env's actions (see `hybridgym.miniwob.MiniWoBEnv`), in screen pixels of the whole display.

## Observation Space
The whole 1280×800 screen; the instruction is MiniWoB's utterance (`core.getUtterance()`;
for FlightWoB a JSON object of the fields to book).

## Rewards
When the page ends the episode (core.endEpisode): MiniWoB's raw reward (the value the task's
own code hands to `core.endEpisode`), in [-1, 1]; success is raw reward > 0. It comes through
a channel the page's scripts cannot rewrite (`EPISODE_SCRIPT`, run before any of them): the
page's first `core.endEpisode`, wrapped, records the outcome of the episode the env started
(a per-episode nonce) in a closure; MiniWoB's `WOB_*` globals are not read. An outcome counts
only from the task's own page: leaving it (another URL, a `data:` page) ends the episode with
reward 0. The env reads the outcome with each observation (`MiniWoBTask.probe`). The pages are
served with a Content-Security-Policy (`page_policy`): markup a page writes from what the agent
typed runs no code, so the agent cannot call `core.endEpisode` itself.

## Starting State
The page's episode restarted with `Math.seedrandom(<seed drawn from the reset seed>)` and
data mode "train" (reset seeds < 1000) or "test" (the others), as MiniWoB's own env
restarts it, with the wall-clock time-out disarmed. The page is reloaded when the task
changes or the last episode left it (navigation, extra tabs).

## Episode End
When the page ends the episode, on `finished(...)`/`call_user()`, or at the step budget
(15, or 30 for long tasks).

## Version History
* v0: first version (miniwob==1.1.0 pages). The reward channel (above) replaced reading the
  page's `WOB_*` globals without a version bump: an honest episode gets the same reward, only
  rewards the page never computed (written globals, another page's) are refused.
"""

from __future__ import annotations

import importlib.util
import json
import mimetypes
import re
import secrets
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import numpy as np

from playwright.sync_api import Error as PlaywrightError

from hybridgym.reward import CheckResult, Condition
from hybridgym.sandbox import Request, Response

from .base import UNAVAILABLE, Outcome, Task, add_task
from .kit import actions as act
from .kit import web
from .kit.csp import page_policy

#: URL path under which the env's AppServer serves the package's html folder
MOUNT = "/miniwob/"

#: pages shipped by the package that cannot be run as tasks, and why
UNRUNNABLE = {
    "hover-shape": "the page computes no reward (its scorer is a TODO in the page: it never calls "
                   "core.endEpisode); its only end is the 10 s time-out, always -1, which this env disables",
}

#: pages whose score measures real-time behaviour: they run, but their own animation ends the
#: episode after a few real seconds and the score counts wall-clock time (not the core.js time-out)
REAL_TIME = {
    "chase-circle": "keep the pointer in a moving circle for ~10 s; ends by its own animation",
    "moving-items": "click circles while they move; the page ends the episode after its animation",
    "button-delay": "wait N real seconds between two clicks (use wait())",
    "simon-says": "the sequence is shown by real-time timers before the agent may click",
}

#: step budgets: MiniWoB tasks need 1-10 actions; these need more (long forms, many items, paging)
_LONG_TASKS = ("book-flight", "buy-ticket", "choose-date", "click-checkboxes-large", "click-scroll-list",
               "daily-calendar", "email-inbox", "enter-date", "flight.", "form-sequence", "multi-",
               "number-checkboxes", "order-food", "phone-book", "search-engine", "simon-says",
               "social-media", "terminal", "text-editor", "tic-tac-toe", "use-colorwheel-2")
SHORT_STEPS, LONG_STEPS = 15, 30

# The reward channel, run in every document before any of its own scripts (`require_script`).
# MiniWoB's core.js starts with `var core = {}` and then assigns `core.endEpisode = ...`: the
# first object assigned to `window.core` is kept (later assignments do nothing) and its first
# `endEpisode` is kept too, behind a wrapper that records the episode's outcome in this closure
# when the env armed the episode (`__hybridgymArm`, called by the env's start script) and the
# episode was still running. The outcome is read with `__hybridgymOutcome()` (a frozen object, or
# null while the episode runs). Nothing the page's scripts write afterwards reaches it: not
# WOB_REWARD_GLOBAL / WOB_DONE_GLOBAL (no longer read), not a new `core` or `core.endEpisode`,
# not the two functions (non-writable, non-configurable).
EPISODE_SCRIPT = """
(() => {
  const define = Object.defineProperty, freeze = Object.freeze, Num = Number, Str = String;
  let coreObj, realEnd, armed = null, outcome = null;
  function end(reward, timeProportional, reason) {
    const running = coreObj.EP_TIMER !== null;
    const result = realEnd.apply(this, arguments);
    if (running && armed !== null && outcome === null) {
      outcome = freeze({ nonce: armed, raw: Num(reward) || 0, reward: Num(window.WOB_REWARD_GLOBAL) || 0,
                         reason: reason === undefined || reason === null ? null : Str(reason) });
    }
    return result;
  }
  define(window, 'core', { configurable: false, enumerable: true,
    get() { return coreObj; },
    set(v) {
      if (coreObj !== undefined || v === null || typeof v !== 'object') return;
      coreObj = v;
      define(v, 'endEpisode', { configurable: false, enumerable: true,
        get() { return realEnd === undefined ? undefined : end; },
        set(fn) { if (realEnd === undefined && typeof fn === 'function') realEnd = fn; } });
    } });
  define(window, '__hybridgymArm', { configurable: false, writable: false, enumerable: false,
    value: nonce => { armed = Str(nonce); outcome = null; } });
  define(window, '__hybridgymOutcome', { configurable: false, writable: false, enumerable: false,
    value: () => outcome });
})();
"""

# Runs in the page at every reset. Restarts MiniWoB's episode exactly as its own Selenium env
# does (endEpisode(0), Math.seedrandom, setDataMode, startEpisodeReal), with the wall-clock
# time-out disarmed: core.startEpisodeReal is wrapped once per page so that right after it
# starts, the 10-s timer is cleared and core.EP_TIMER holds a non-null token (endEpisode still
# takes the episode's one reward), and the countdown display is stopped. Resolves once the task
# says it is ready (flight pages load an iframe) and then, with `marked`, at once, having given the frame
# marker its next colour (the frame that shows it shows the new episode: `PageFrame.first` reads the screen
# then), else once a frame with the new episode was drawn.
# Returns {utterance, waited (for the task to be ready), mark (the colour, or null)}, or null, doing
# nothing, if the page is not a MiniWoB page any more: the env reloads it.
_START_JS = """
async ([seed, mode, nonce, marked]) => {
  if (typeof core === 'undefined' || !core.cover_div) return null;
  if (!core.__hybridgymUntimed) {
    const start = core.startEpisodeReal;
    core.startEpisodeReal = function () {
      start.apply(this, arguments);
      clearTimeout(core.EP_TIMER);
      core.EP_TIMER = -1;      // not null: the episode may still end (and be rewarded) once
      core.clearTimer();       // no countdown: nothing here depends on the wall clock
    };
    core.__hybridgymUntimed = true;
  }
  core.endEpisode(0);          // ends a running episode (a no-op after a finished one)
  __hybridgymArm(nonce);       // the outcome channel now waits for this episode's end
  Math.seedrandom(seed);
  core.setDataMode(mode);
  core.startEpisodeReal();
  const until = Date.now() + 10000;
  let waited = false;
  while (!WOB_TASK_READY) {
    if (Date.now() > until) throw new Error('the MiniWoB task did not become ready within 10 s');
    waited = true;
    await new Promise(r => setTimeout(r, 5));
  }
  // the images the page's style sheets name (jQuery UI's icons, drawn once a widget shows them: fetched once per
  // document) and the episode's <img>s, loaded before the first picture: a picture taken before one arrived would
  // be without it, and the next one with it, whatever the step did
  if (!core.__hybridgymImages) {
    const urls = new Set();
    for (const sheet of document.styleSheets) {
      let rules;
      try { rules = sheet.cssRules; } catch (e) { continue; }
      for (const rule of rules) {
        for (const m of rule.cssText.matchAll(/url\\(\\s*["']?([^"')]+)["']?\\s*\\)/g)) {
          if (!m[1].startsWith('data:')) urls.add(new URL(m[1], sheet.href || location.href).href);
        }
      }
    }
    core.__hybridgymImages = Promise.all([...urls].map(u => new Promise(r => {
      const i = new Image(); i.onload = i.onerror = r; i.src = u; })));
  }
  const images = [...document.images].filter(i => !i.complete).map(i => new Promise(r => {
    i.addEventListener('load', r); i.addEventListener('error', r); }));
  await Promise.race([Promise.all([core.__hybridgymImages, ...images]), new Promise(r => setTimeout(r, 2000))]);
  const mark = marked && window.__hybridgymMark ? __hybridgymMark() : null;
  if (mark === null) await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  const u = core.getUtterance();
  return {utterance: typeof u === 'string' ? u : u.utterance, waited, mark};
}
"""



def package_html() -> Path:
    """The html folder of the installed `miniwob` package (found without importing it)."""
    spec = importlib.util.find_spec("miniwob")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("MiniWoB++ tasks need the `miniwob` package: pip install 'hybridgym[miniwob]' "
                                  "(or pip install miniwob==1.1.0; it is in the dev extra too)")
    return Path(list(spec.submodule_search_locations)[0]) / "html"


def serve_package(html: Path):
    """A route handler serving the package's html folder, text labelled as UTF-8, pages with their
    Content-Security-Policy (`page_policy`).

    (The AppServer's `mount` sends `text/html` without a charset; Chromium then reads
    the package's UTF-8 pages as windows-1252: unicode-test's "ÖK" button shows as "Ã–K".)
    """
    html = html.resolve()

    def handler(req: Request) -> Response:
        target = (html / req.path).resolve()
        if html not in target.parents or not target.is_file():
            return Response(404, f"no {req.path!r} in the miniwob package", "text/plain")
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        headers = {}
        if ctype == "text/html":
            headers["Content-Security-Policy"] = page_policy(target, target.stat().st_mtime_ns)
        if ctype.startswith("text/") or ctype.endswith("javascript"):
            ctype += "; charset=utf-8"
        return Response(200, target.read_bytes(), ctype, headers)
    return handler


def discover(html: Path | None = None) -> dict[str, str]:
    """Task name -> page path under the html folder: every `miniwob/<name>.html` and every
    FlightWoB `flight/<site>/wrapper.html` (as `flight.<site>`), as the package ships them."""
    html = html or package_html()
    pages = {p.stem: f"miniwob/{p.name}" for p in sorted((html / "miniwob").glob("*.html"))}
    for wrapper in sorted((html / "flight").glob("*/wrapper.html")):
        pages[f"flight.{wrapper.parent.name}"] = f"flight/{wrapper.parent.name}/wrapper.html"
    return pages


# -- oracles: scripted solvers through the env's actions -------------------------------
_click = web.click
_type = act.typed


def _quoted(utterance: str) -> list[str]:
    return re.findall(r'"([^"]*)"', utterance)


def _solve_click_test(sb, params):
    yield _click(sb, "#subbtn")


def _solve_click_button(sb, params):
    target = _quoted(params["utterance"])[0]
    i = sb.browser.page.evaluate("t => [...document.querySelectorAll('#area button')]"
                                 ".findIndex(b => b.textContent === t)", target)
    yield _click(sb, f"#area button >> nth={i}")


def _solve_click_link(sb, params):
    target = _quoted(params["utterance"])[0]
    i = sb.browser.page.evaluate("t => [...document.querySelectorAll('#area .alink')]"
                                 ".findIndex(b => b.textContent === t)", target)
    yield _click(sb, f"#area .alink >> nth={i}")


def _solve_focus_text(sb, params):
    yield _click(sb, "#tt")


def _solve_enter_text(sb, params):
    yield _click(sb, "#tt")
    yield _type(_quoted(params["utterance"])[0])
    yield _click(sb, "#subbtn")


def _solve_login_user(sb, params):
    user, password = _quoted(params["utterance"])[:2]
    yield _click(sb, "#username")
    yield _type(user)
    yield _click(sb, "#password")
    yield _type(password)
    yield _click(sb, "#subbtn")


def _solve_enter_password(sb, params):
    password = _quoted(params["utterance"])[0]
    for field in ("#password", "#verify"):
        yield _click(sb, field)
        yield _type(password)
    yield _click(sb, "#subbtn")


def _solve_click_checkboxes(sb, params):
    m = re.match(r"Select (.*) and click Submit\.", params["utterance"])
    wanted = set() if m is None or m.group(1) == "nothing" else set(m.group(1).split(", "))
    labels = sb.browser.page.evaluate("() => [...document.querySelectorAll('#boxes label')].map(l => l.textContent)")
    for i, label in enumerate(labels):
        if label in wanted:
            yield _click(sb, f"#ch{i}")
    yield _click(sb, "#subbtn")


ORACLES = {
    "click-test": _solve_click_test, "click-button": _solve_click_button, "click-link": _solve_click_link,
    "focus-text": _solve_focus_text, "enter-text": _solve_enter_text, "login-user": _solve_login_user,
    "enter-password": _solve_enter_password, "click-checkboxes": _solve_click_checkboxes,
}


class MiniWoBTask(Task):
    """One MiniWoB++ page as a task of the "miniwob" suite.

    `draw` gives the seed for the page's `Math.seedrandom` and the data mode of the reset
    seed's split; `setup` shows the page and restarts its episode (the instruction,
    `core.getUtterance()`, goes to `params["utterance"]`) under a fresh nonce; the state is the
    outcome the page's own `core.endEpisode` reported through the reward channel
    (`EPISODE_SCRIPT`), taken only from the task's own page and only for this episode's nonce;
    `check` is success when the raw reward is positive, with the raw reward as the reward.
    """

    suite = "miniwob"
    waits_for_escape = True   # in the round trip that starts the episode
    # read with every observation: whether the episode has ended (false, not null, when it has not: null
    # would mean "not read" and cost the step another round trip)
    probe = "__hybridgymOutcome() !== null"

    def __init__(self, name: str, page: str):
        self.name, self.page = name, page
        self.id = f"miniwob.{name}-v0"
        self.max_steps = LONG_STEPS if name.startswith(_LONG_TASKS) else SHORT_STEPS
        self.has_oracle = name in ORACLES

    def sample(self, rng: np.random.Generator) -> dict:
        return {"seed": int(rng.integers(0, 2**31 - 1))}

    def draw(self, seed: int) -> dict:
        return {**super().draw(seed), "mode": self.split(seed)}

    def instruction(self, params: dict) -> str:
        return params["utterance"]

    def instance_key(self, params: dict) -> tuple:
        return (self.name, params["mode"], params["seed"])

    def setup(self, sb, params: dict) -> dict:
        """Serve the package's pages, show the task's page (kept if it is already shown and
        alone, and has the reward channel), restart its episode (MiniWoB's seed and data mode,
        a new nonce) and read its instruction; returns the state (the episode runs)."""
        sb.server.route(MOUNT, serve_package(package_html()))
        br, url = sb.browser, self.url(sb)
        escape, sb.unseen_escape = sb.unseen_escape, None
        new_channel = br.require_script(EPISODE_SCRIPT)
        if new_channel or br.page is None or br.page.is_closed() or br.page.url != url or len(br.context.pages) != 1:
            sb.dialogs_dismissed(escape)   # seen by the page it was sent to, before that page goes
            escape = None
            self.load_page(sb)
        params["nonce"] = secrets.token_hex(8)
        args = [params["seed"], params["mode"], params["nonce"], sb.first_marked]
        started = False
        if escape is not None:   # one round trip: the page saw the env's Escapes (or a menu had them), then the start
            try:
                started = br.barrier(escape, sb.dialog_frames, then=f"({_START_JS})({json.dumps(args)})")[1]
            except PlaywrightError:   # the page went meanwhile: as without the Escapes
                pass
        if started is False:
            started = br.evaluate_cdp(_START_JS, args)
        if started is None:   # the last episode left the page unusable: reload it
            self.load_page(sb)
            started = br.evaluate_cdp(_START_JS, args)
        params["utterance"] = started["utterance"] or f"(MiniWoB task {self.id} gave no instruction)"
        br.mark = started.get("mark") if isinstance(started.get("mark"), int) else None
        if started["waited"]:   # a task that took time to get ready may have drawn frames on the way
            sb.capture.settle(quiet=0.005, max_wait=1.5, poll=0.001)
        return {"done": False, "outcome": None}

    def url(self, sb) -> str:
        return sb.server.url(MOUNT + self.page)

    def on_task_page(self, sb) -> bool:
        """Whether the browser still shows the task's own page (the agent may have gone elsewhere:
        another page's scripts are not the task's and do not count)."""
        page = sb.browser.page
        return page is not None and urlsplit(page.url)._replace(fragment="") == urlsplit(self.url(sb))._replace(fragment="")

    def load_page(self, sb) -> None:
        """(Re)load the task's page in a fresh browser context state."""
        page = sb.browser.load(self.url(sb))
        page.wait_for_function("typeof core !== 'undefined' && !!core.cover_div", timeout=10_000)

    def read_state(self, sb, params: dict) -> dict:
        if not self.on_task_page(sb):
            return {"done": False, "outcome": None, "left": sb.browser.page.url if sb.browser.page else None}
        outcome = sb.browser.page.evaluate("() => __hybridgymOutcome()")
        if not isinstance(outcome, dict) or outcome.get("nonce") != params.get("nonce"):
            return {"done": False, "outcome": None}
        return {"done": True, "outcome": outcome}

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        if state.get("left"):
            why = f"the browser left the task's page (it shows {str(state['left'])[:80]})"
            return CheckResult.failed(why, 0.0, [Condition("stayed on the task's page", False, why, guard=True)])
        if not state.get("done"):
            why = "the MiniWoB episode has not ended"
            return CheckResult.failed(why, 0.0, [Condition("the MiniWoB episode ended with a positive reward", False, why)])
        got = state["outcome"]
        raw = float(got.get("raw") or 0.0)
        msg = f"MiniWoB reward {raw:+.2f}" + (f" ({got['reason']})" if got.get("reason") else "")
        return CheckResult(raw > 0, raw, msg, {"env_reward": got.get("reward")},
                           (Condition("the MiniWoB episode ended with a positive reward", raw > 0, msg),))

    def ended(self, sb, state: dict | None = None) -> bool:
        if not self.on_task_page(sb):
            return True
        try:
            return sb.browser.page.evaluate("() => __hybridgymOutcome()") is not None
        except PlaywrightError:   # a navigation is under way: the next step's observation tells where it led
            return False

    def progress(self, sb, probed=None) -> tuple[float, bool]:
        if probed is None:
            return 0.0, self.ended(sb)
        return 0.0, bool(probed) or not self.on_task_page(sb)

    def oracle(self, sb, params: dict) -> Iterator:
        if self.name not in ORACLES:
            raise NotImplementedError(f"no scripted solver for {self.id}; solvers exist for "
                                      f"{sorted('miniwob.' + n + '-v0' for n in ORACLES)}")
        return ORACLES[self.name](sb, params)


def _register() -> None:
    """Add every runnable page of the installed package to the catalogue."""
    try:
        pages = discover()
    except ModuleNotFoundError as e:
        # the ids stay known (miniwob_pages.json: the pages of the version hybridgym is tested with), so
        # that gym.make of one says what is missing instead of gymnasium's "doesn't exist"
        UNAVAILABLE["miniwob"] = str(e)
        known = json.loads((Path(__file__).with_name("miniwob_pages.json")).read_text())["pages"]
        for name in known:
            UNAVAILABLE.setdefault(f"miniwob.{name}-v0", str(e))
        return
    for name, page in pages.items():
        if name in UNRUNNABLE:
            UNAVAILABLE[f"miniwob.{name}-v0"] = UNRUNNABLE[name]
        else:
            add_task(MiniWoBTask(name, page))


_register()
