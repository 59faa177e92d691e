"""MiniWoB++ through hybridgym: every task page of the installed `miniwob` package as `hybridgym/miniwob.<name>-v0`.

The pages are served from the installed package (nothing is copied here),
shown in the same Chromium window as the browser suite, played with the
env's own actions, and rewarded by the reward MiniWoB's core.js computes in
the page. `register_miniwob()` registers the gym ids (called by `import
hybridgym`); `MINIWOB_TASKS` maps task ids to tasks, `UNRUNNABLE` lists the
pages that cannot be run and why.
"""

from __future__ import annotations

import importlib.util
import mimetypes
import re
from pathlib import Path
from typing import Iterator

import gymnasium as gym
import numpy as np
from gymnasium.envs.registration import register, registry

from hybridgym.reward import CheckResult
from hybridgym.tasks import Task

from .actions import model as A
from .browser import BrowserEnv
from .sandbox import Request, Response

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

# The page's episode state: whether it ended, its rewards and the reason
_STATE = ("({done: WOB_DONE_GLOBAL, env_reward: WOB_REWARD_GLOBAL, "
          "raw_reward: WOB_RAW_REWARD_GLOBAL, reason: WOB_REWARD_REASON})")

# Runs in the page at every reset. Restarts MiniWoB's episode exactly as its own Selenium env
# does (endEpisode(0), Math.seedrandom, setDataMode, startEpisodeReal), with the wall-clock
# time-out disarmed: core.startEpisodeReal is wrapped once per page so that right after it
# starts, the 10-s timer is cleared and core.EP_TIMER holds a non-null token (endEpisode still
# takes the episode's one reward), and the countdown display is stopped. Resolves once the task
# says it is ready (flight pages load an iframe) and a frame with the new episode was drawn.
# Returns {utterance, waited (for the task to be ready), state (as _STATE)}, or null, doing
# nothing, if the page is not a MiniWoB page any more: the env reloads it.
_START_JS = """
async ([seed, mode]) => {
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
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  const u = core.getUtterance();
  return {utterance: typeof u === 'string' ? u : u.utterance, waited,
          state: %s};
}
""" % _STATE

# after a step's input: one drawn frame later, whether the page ended the episode
_FRAME_JS = "() => new Promise(r => requestAnimationFrame(() => setTimeout(() => r(!!WOB_DONE_GLOBAL), 0)))"
_STATE_JS = "() => " + _STATE



def package_html() -> Path:
    """The html folder of the installed `miniwob` package (found without importing it)."""
    spec = importlib.util.find_spec("miniwob")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("MiniWoB++ tasks need the `miniwob` package: pip install miniwob==1.1.0 "
                                  "(it is in hybridgym's dev extra)")
    return Path(list(spec.submodule_search_locations)[0]) / "html"


def serve_package(html: Path):
    """A route handler serving the package's html folder, text labelled as UTF-8.

    (The AppServer's `mount` sends `text/html` without a charset; Chromium then reads
    the package's UTF-8 pages as windows-1252: unicode-test's "ÖK" button shows as "Ã–K".)
    """
    html = html.resolve()

    def handler(req: Request) -> Response:
        target = (html / req.path).resolve()
        if html not in target.parents or not target.is_file():
            return Response(404, f"no {req.path!r} in the miniwob package", "text/plain")
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if ctype.startswith("text/") or ctype.endswith("javascript"):
            ctype += "; charset=utf-8"
        return Response(200, target.read_bytes(), ctype)
    return handler


def discover(html: Path | None = None) -> dict[str, str]:
    """Task name -> page path under the html folder: every `miniwob/<name>.html` and every
    FlightWoB `flight/<site>/wrapper.html` (as `flight.<site>`), as the package ships them."""
    html = html or package_html()
    pages = {p.stem: f"miniwob/{p.name}" for p in sorted((html / "miniwob").glob("*.html"))}
    for wrapper in sorted((html / "flight").glob("*/wrapper.html")):
        pages[f"flight.{wrapper.parent.name}"] = f"flight/{wrapper.parent.name}/wrapper.html"
    return pages


class MiniWoBTask(Task):
    """One MiniWoB++ page as a task (not in the hybridgym catalogue: its suite is "miniwob").

    `sample` draws the seed given to the page's `Math.seedrandom`; `setup` shows the
    page (`MiniWoBEnv` then starts its episode and puts the instruction,
    `core.getUtterance()`, in `params["utterance"]`); the state is MiniWoB's own reward
    globals; `check` is success when the raw reward is positive, with the raw reward
    as the reward.
    """

    suite = "miniwob"

    def __init__(self, name: str, page: str):
        self.name, self.page = name, page
        self.id = f"miniwob.{name}-v0"
        self.max_steps = LONG_STEPS if name.startswith(_LONG_TASKS) else SHORT_STEPS

    def sample(self, rng: np.random.Generator) -> dict:
        return {"seed": int(rng.integers(0, 2**31 - 1))}

    def instruction(self, params: dict) -> str:
        return params["utterance"]

    def setup(self, sb, params: dict) -> None:
        """Serve the package's pages and show the task's page (kept if it is already shown);
        `MiniWoBEnv` then starts the page's episode (seed, data mode) and puts the
        instruction in params["utterance"]."""
        sb.server.route(MOUNT, serve_package(package_html()))
        br, url = sb.browser, sb.server.url(MOUNT + self.page)
        if br.page is None or br.page.is_closed() or br.page.url != url or len(br.context.pages) != 1:
            self.load_page(sb)

    def load_page(self, sb) -> None:
        """(Re)load the task's page in a fresh browser context state."""
        page = sb.browser.load(sb.server.url(MOUNT + self.page))
        page.wait_for_function("typeof core !== 'undefined' && !!core.cover_div", timeout=10_000)

    def read_state(self, sb, params: dict) -> dict:
        if "_start_state" in params:   # read by the reset's start script, in the same round trip
            return params.pop("_start_state")
        return sb.browser.page.evaluate(_STATE_JS)

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        if not state.get("done"):
            return CheckResult.failed("the MiniWoB episode has not ended", 0.0)
        raw = float(state.get("raw_reward") or 0.0)
        msg = f"MiniWoB reward {raw:+.2f}" + (f" ({state['reason']})" if state.get("reason") else "")
        return CheckResult(raw > 0, raw, msg, {"env_reward": state.get("env_reward")})

    def ended(self, sb, state: dict | None = None) -> bool:
        return bool(sb.browser.page.evaluate("WOB_DONE_GLOBAL"))

    @property
    def has_oracle(self) -> bool:
        return self.name in ORACLES

    def oracle(self, sb, params: dict) -> Iterator:
        if self.name not in ORACLES:
            raise NotImplementedError(f"no scripted solver for {self.id}; solvers exist for "
                                      f"{sorted('miniwob.' + n + '-v0' for n in ORACLES)}")
        return ORACLES[self.name](sb, params)


def _tasks() -> dict[str, MiniWoBTask]:
    try:
        pages = discover()
    except ModuleNotFoundError:
        return {}
    tasks = [MiniWoBTask(name, page) for name, page in pages.items() if name not in UNRUNNABLE]
    return {t.id: t for t in tasks}


#: task id ("miniwob.click-test-v0") -> task; empty when the miniwob package is not installed
MINIWOB_TASKS: dict[str, MiniWoBTask] = _tasks()
SUITE_ID = "hybridgym/MiniWoB-v0"


class MiniWoBEnv(BrowserEnv):
    """
    ## Description
    A MiniWoB++ task (from the installed `miniwob` package) in the browser suite's
    Chromium window (1280×800, tab strip and address bar included). The package's html
    folder is served by the env's own 127.0.0.1 server at `/miniwob/`; the browser
    reaches only that server. The task area is MiniWoB's 160×210 box at the top left of
    the page, next to MiniWoB's reward display; the agent sees and acts on the whole
    screen through X like a person. Ids: `hybridgym/miniwob.<name>-v0` (one per task;
    FlightWoB pages as `miniwob.flight.<site>-v0`), and `hybridgym/MiniWoB-v0`, which
    draws a task at each reset (or `options={"task": id}`).

    **Time.** MiniWoB ends an episode after `core.EPISODE_MAX_TIME` (7-60 s, mostly 10 s)
    of wall time with reward -1, and scales its reward down by the time taken. Here the
    page runs on the real clock, so its animations, transitions and delays behave as
    designed, but the episode time-out is disarmed at every episode start (the timer is
    cleared and the countdown stopped by a wrapper around `core.startEpisodeReal`), and
    the reward is MiniWoB's raw reward, which does not depend on time. An agent that
    thinks for minutes between steps is judged as one that acts at once. (A paused
    virtual clock, as in the game suite, was not chosen: CSS transitions run on real
    time anyway, and every step would need a clock advance long enough for jQuery UI
    widgets and delayed buttons.) The few pages whose task is itself real-time
    (`REAL_TIME`: chase-circle, moving-items, button-delay, simon-says) still end or
    score by their own timers.

    ## Action Space
    As `BrowserEnv`: UI-TARS text, pyautogui code, dicts or typed actions, in screen pixels
    of the whole display.

    ## Observation Space
    `Dict(screenshot=Box(0, 255, (800, 1280, 3), uint8), instruction, sdk_output,
    action_error)`; `instruction` is MiniWoB's utterance (`core.getUtterance()`; for
    FlightWoB a JSON object of the fields to book).

    ## Rewards
    When the page ends the episode (core.endEpisode): MiniWoB's raw reward
    `WOB_RAW_REWARD_GLOBAL`, in [-1, 1] (1 for a solved task; some tasks give partial
    credit); `info["success"]` is raw reward > 0. 0 on other steps and at truncation.

    ## Starting State
    The page's episode restarted with `Math.seedrandom(<seed drawn from the reset seed>)`
    and data mode "train" (reset seeds < 1000) or "test" (the others), as MiniWoB's own env
    restarts it. The page is reloaded when the task changes, when the last episode left
    it (navigation, extra tabs), or at every reset with `fresh_page=True`; otherwise the
    episode is restarted in the loaded page. Keyboard focus is given back to the page.

    ## Episode End
    Terminated when the page ends the episode, or on `finished(...)`/`call_user()`;
    truncated at the task's step budget (15, or 30 for long tasks) or when the browser
    or display fails.

    ## Arguments
    `task` (a MiniWoB task id or name, or None to draw one per reset), `fresh_page`
    (reload the page at every reset: slower, but nothing of the last episode survives
    in the page), `coords`, `max_steps`, `render_mode` (see `HybridEnv`).

    ## Version History
    * v0: first version (miniwob==1.1.0 pages).
    """

    suite = "miniwob"

    def __init__(self, task: str | Task | None = None, *, fresh_page: bool = False, **kwargs):
        if not MINIWOB_TASKS:
            package_html()   # raises with the install hint
        self.fresh_page = bool(fresh_page)
        self._data_mode = "train"
        self._refocus = True
        self._start_waited = True
        self._page_done: bool | None = None   # WOB_DONE_GLOBAL as read after the step's frame
        # HybridEnv wants a task when its suite is not in the catalogue; forget it if none was asked
        super().__init__(task if task is not None else next(iter(MINIWOB_TASKS)), **kwargs)
        if task is None:
            self._fixed_task = None

    def _lookup(self, task: str | Task) -> Task:
        if isinstance(task, MiniWoBTask):
            return task
        if isinstance(task, Task):
            raise ValueError(f"task {task.id} belongs to the {task.suite} suite, not miniwob")
        name = task.split("/", 1)[-1]
        name = name if name.startswith("miniwob.") else f"miniwob.{name}"
        name = name if re.search(r"-v\d+$", name) else f"{name}-v0"
        if name not in MINIWOB_TASKS:
            bare = name[len("miniwob."):-len("-v0")]
            why = f": {UNRUNNABLE[bare]}" if bare in UNRUNNABLE else ""
            raise ValueError(f"unknown MiniWoB task {task!r}{why}; `hybridgym list --suite miniwob` "
                             "shows the tasks")
        return MINIWOB_TASKS[name]

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        options = dict(options or {})
        gym.Env.reset(self, seed=seed)
        if seed is None:   # draw the episode seed here: the data mode follows it
            seed = int(self.np_random.integers(0, 2**31 - 1))
        if self._fixed_task is None and "task" not in options:
            ids = sorted(MINIWOB_TASKS)
            options["task"] = ids[int(self.np_random.integers(len(ids)))]
        task = self._lookup(options.get("task") or self._fixed_task)
        self._data_mode = "train" if seed in task.train_seeds else "test"
        sb = self.sandbox
        if self.fresh_page and sb is not None and sb.browser.page is not None:
            try:
                sb.browser.page.goto("about:blank")
            except Exception:   # a dead part: HybridEnv.reset restarts the sandbox
                pass
        return super().reset(seed=seed, options=options)

    def _prepare(self, task: Task, params: dict) -> None:
        """Start the page's episode (MiniWoB's seed and data mode) and read its instruction."""
        args = [params["seed"], self._data_mode]
        if self._refocus:
            # keyboard focus back to the page: the last episode may have left it in the address
            # bar (the page cannot tell: Playwright emulates document.hasFocus())
            self.sandbox.browser.page.bring_to_front()
            self._refocus = False
        started = self.sandbox.browser.page.evaluate(_START_JS, args)
        if started is None:   # the last episode left the page unusable: reload it
            task.load_page(self.sandbox)
            started = self.sandbox.browser.page.evaluate(_START_JS, args)
        params["utterance"] = started["utterance"] or f"(MiniWoB task {task.id} gave no instruction)"
        params["_start_state"] = started["state"]
        self._start_waited = bool(started["waited"])

    def _page_answered(self) -> bool:
        return self._page_done is not None   # the step's frame wait reached the page

    def _progress(self, task: Task) -> tuple[float, bool]:
        if self._page_done is None:
            return super()._progress(task)
        return 0.0, self._page_done

    def _after_actions(self, actions: list[A.Action]) -> None:
        """Note actions that may move keyboard focus out of the page (keys, clicks on the
        browser's own bar): the next reset gives it back."""
        top = self.sandbox.browser.viewport_origin()[1]
        for act in actions:
            if isinstance(act, (A.Hotkey, A.KeyDown, A.KeyUp, A.TypeText, A.RightClick)) or \
                    any(getattr(act, y, None) is not None and getattr(act, y) < top for y in ("y", "y1", "y2")):
                self._refocus = True

    def _observe(self, first: bool = False) -> None:
        """Wait for the page to draw a frame after the step's input (the start JS did so after a
        reset), then for the screen to differ from the last observation and be quiet.

        X input reaches the page before its next animation frame, so once that frame is
        drawn the screen shows the input's effect (or nothing changed: then the change
        time-out, 30 ms, ends the wait). A loaded machine delays Chromium's drawing to X;
        waiting for the frame first keeps the observation from being the old picture.
        The first changed picture is taken (Chromium puts whole frames on the screen, and
        the frame with the input's effect, or the new episode, has been drawn); after a
        reset whose task took time to get ready (it may have drawn frames on the way) the
        screen must also be quiet for 5 ms.
        """
        self._page_done = None
        if not first:
            try:
                self._page_done = bool(self.sandbox.browser.page.evaluate(_FRAME_JS))
            except Exception:   # a navigation replaced the page: fall back to the screen alone
                pass
        # a task that took time to get ready may have drawn frames on the way: then wait for quiet
        quiet = 0.005 if first and self._start_waited else 0.0
        self._frame, self._raw, _ = self.sandbox.capture.settle(
            before=self._raw, change_timeout=0.05 if first else 0.03, quiet=quiet,
            max_wait=1.5 if first else 0.5, poll=0.001)


def register_miniwob() -> None:
    """Register `hybridgym/miniwob.<name>-v0` for every runnable MiniWoB task of the installed
    package, and `hybridgym/MiniWoB-v0` (a task drawn per reset). No-op without the package."""
    if not MINIWOB_TASKS:
        return
    entry = "hybridgym.miniwob:MiniWoBEnv"
    if SUITE_ID not in registry:
        register(id=SUITE_ID, entry_point=entry, nondeterministic=True)
    for task_id, task in MINIWOB_TASKS.items():
        gym_id = f"hybridgym/{task_id}"
        if gym_id not in registry:
            register(id=gym_id, entry_point=entry, max_episode_steps=task.max_steps,
                     kwargs={"task": task_id}, nondeterministic=True)


# -- oracles: scripted solvers through the env's actions -------------------------------
def _click(sb, selector: str) -> dict:
    x, y = sb.browser.screen_point(selector)
    return {"action_type": "click", "x": x, "y": y}


def _type(text: str) -> dict:
    return {"action_type": "type", "text": text}


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
