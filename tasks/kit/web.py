"""Oracle helpers for web pages: a selector's screen point in any tab, clicks, fields, <select>s, navigation waits,
and the one "page is ready" protocol of the web apps; `WebAppTask`, the base of the tasks on one web app, and
each app's own base (`ShopTask`, `MailTask`, `CalendarTask`, `AdminTask`).

The page-ready protocol: every web app's page (assets/web/common/webapp.js) keeps
`<body data-ready>` at "1" once it has drawn its data and none of its calls to its backend
is open, and at "0" before and meanwhile. `wait_ready` waits for it; `point` (and so every
click here) first waits for a page that speaks it to be ready, so an oracle never clicks
into a page that is about to redraw. Pages without the attribute (MiniWoB, a plain file)
are taken as they are.

Helpers that act return action dicts (`hybridgym.tasks.kit.actions`), or are generators that
yield them (`yield from fill(...)`); the waits only read the page.
"""

from __future__ import annotations

import json
from typing import ClassVar, Iterator

import numpy as np

from hybridgym.tasks.base import Task
from hybridgym.tasks.webapps import admin as adm
from hybridgym.tasks.webapps import calendar as cal
from hybridgym.tasks.webapps import mail, shop

from . import actions as act
from .data import split_of

#: how long an oracle waits for a page (ms): patient on a loaded machine
TIMEOUT_MS = 20000

_READY = "document.body && document.body.dataset.ready === '1'"
#: a page that speaks the protocol is not in the middle of a redraw
_NOT_BUSY = "() => !document.body || document.body.dataset.ready !== '0'"
#: a new document (performance.timeOrigin changed) that is ready
_NEW_READY = f"t => performance.timeOrigin !== t && {_READY}"


def page_of(sb, tab: int | None = None):
    """The Playwright page of tab `tab` (0 is the first; None: the env's own page)."""
    return sb.browser.page if tab is None else sb.browser.context.pages[tab]


def present(selector: str) -> str:
    """A JS condition (for `wait_ready(until=...)`): an element matches `selector`."""
    return f"document.querySelector({json.dumps(selector)}) !== null"


def gone(selector: str) -> str:
    """A JS condition: no element matches `selector`."""
    return f"document.querySelector({json.dumps(selector)}) === null"


def _wait(sb, js: str, tab: int | None, arg=None) -> None:
    """Wait until the JS function `js` (of `arg`) is true in the tab's page. Another tab than the
    env's own may be in the background, where no animation frame comes: poll it on a timer."""
    page_of(sb, tab).wait_for_function(js, arg=arg, polling="raf" if tab is None else 50, timeout=TIMEOUT_MS)


def wait_ready(sb, until: str | None = None, tab: int | None = None) -> None:
    """Wait (reading only) until the tab's page is ready and the JS condition `until`, if given, holds."""
    _wait(sb, "() => " + _READY + (f" && ({until})" if until else ""), tab)


def point(sb, selector: str, tab: int | None = None) -> tuple[int, int]:
    """Screen pixel of the centre of the first visible element matching `selector` in a tab.

    Waits for the page to be ready (when it speaks the protocol) and for the element, and
    scrolls it into view when it is not."""
    _wait(sb, _NOT_BUSY, tab)
    loc = page_of(sb, tab).locator(selector).filter(visible=True).first
    loc.scroll_into_view_if_needed(timeout=TIMEOUT_MS)
    box = loc.bounding_box(timeout=TIMEOUT_MS)
    if box is None:
        raise LookupError(f"oracle: {selector!r} is not on the page")
    return sb.browser.to_screen(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def click(sb, selector: str, tab: int | None = None, button: str = "left") -> dict:
    """A click (button "left", "right" or "middle") on the centre of `selector` (see `point`)."""
    return act.click(*point(sb, selector, tab), button=button)


def click_until(sb, selector: str, until: str | None = None, tab: int | None = None) -> Iterator[dict]:
    """Click `selector`, then wait until the page is ready and `until` holds (an update in place)."""
    yield click(sb, selector, tab)
    wait_ready(sb, until, tab)


def _navigating(sb, action: dict, tab: int | None) -> Iterator[dict]:
    """Send an action that loads a new document in the tab, then wait (reading only) until it is ready."""
    t0 = page_of(sb, tab).evaluate("performance.timeOrigin")
    yield action
    _wait(sb, _NEW_READY, tab, t0)


def click_nav(sb, selector: str, tab: int | None = None) -> Iterator[dict]:
    """Click something that loads a new page (a link, a submit button), then wait for that page."""
    yield from _navigating(sb, click(sb, selector, tab), tab)


def key_nav(sb, keys: list[str], tab: int | None = None) -> Iterator[dict]:
    """Press keys that load a new page (Enter in a form), then wait for it."""
    yield from _navigating(sb, act.keys(*keys), tab)


def type_nav(sb, text: str, tab: int | None = None) -> Iterator[dict]:
    """Type text ending in a newline that submits a form and loads a new page, then wait for it."""
    yield from _navigating(sb, act.typed(text), tab)


def fill(sb, selector: str, text: str, tab: int | None = None, navigates: bool = False) -> Iterator[dict]:
    """Click a text field, select what it holds (if anything), and type `text` over it.

    `navigates`: the text ends in a newline that submits a form and loads a new page."""
    yield click(sb, selector, tab)
    if page_of(sb, tab).locator(selector).filter(visible=True).first.input_value():
        yield act.keys("ctrl", "a")
    if navigates:
        yield from type_nav(sb, text, tab)
    else:
        yield act.typed(text)


def choose(sb, selector: str, label: str, tab: int | None = None, navigates: bool = False) -> Iterator[dict]:
    """Open a <select> by clicking, type the start of an option's label, and press Enter.

    `navigates`: choosing loads a new page (wait for it)."""
    yield click(sb, selector, tab)
    yield act.typed(label)
    if navigates:
        yield from key_nav(sb, ["enter"], tab)
    else:
        yield act.keys("enter")


def wait_text(sb, selector: str, text: str, tab: int | None = None) -> None:
    """Wait until `selector`'s text contains `text` (an update without a page load)."""
    _wait(sb, "([s, t]) => { const e = document.querySelector(s); return e && e.textContent.includes(t); }",
          tab, [selector, text])


def wait_tabs(sb, n: int) -> None:
    """Wait until the browser has `n` tabs."""
    for _ in range(TIMEOUT_MS // 20):
        if len(sb.browser.context.pages) >= n:
            return
        sb.browser.page.wait_for_timeout(20)
    raise TimeoutError(f"oracle: the browser did not open tab {n}")


def open_app(sb, path: str, until: str | None = None) -> None:
    """A task's setup: load the page at `path` of the env's server as a fresh start (extra tabs
    closed; a URL that differs only in its #hash is reloaded) and wait until it is ready."""
    sb.browser.load(sb.server.url(path))
    wait_ready(sb, until)


class WebAppTask(Task):
    """Base of the tasks on one web app: install and load its backend, open its page, read its state.

    Parameters: `sample` draws the app's data seed (kept as `params[seed_param]`), then the
    task's own parameters with `sample_for(rng, data)` from that seed's data (`data(seed)`); a
    `sample_for` that finds nothing fitting in the data returns None, and another seed is drawn.
    Setup: the app's backend (`app`, a JsonBackend class of `hybridgym.tasks.webapps`) loads
    the seed's data, with the parameters named in `app_params` passed on as they are, and
    the page the episode starts on (`start_page`, or `start(params)`) opens.
    """

    suite = "browser"
    app: ClassVar[type]
    seed_param: ClassVar[str] = "data_seed"
    app_params: ClassVar[tuple[str, ...]] = ()
    start_page: ClassVar[str] = "/"

    def data(self, seed: int, split: str = "train"):
        """The app's data for `seed`, built from the names of `split`'s own pools, as `sample_for` reads it."""
        raise NotImplementedError

    def sample_for(self, rng: np.random.Generator, data) -> dict | None:
        """The task's own parameters (besides the seed), drawn from `rng` for `data`; None: not with this data."""
        raise NotImplementedError

    def sample(self, rng: np.random.Generator) -> dict:
        """The data seed, the seed's split (the data is built from that split's own names:
        `params["split"]`), then `sample_for`."""
        split = split_of(rng)
        while True:
            seed = int(rng.integers(0, 2**31 - 1))
            params = self.sample_for(rng, self.data(seed, split))
            if params is not None:
                return {self.seed_param: seed, "split": split, **params}

    def app_data(self, params: dict) -> dict:
        """Keyword arguments of the backend's `load`, besides the seed."""
        return {k: params[k] for k in self.app_params if k in params}

    def start(self, params: dict) -> str:
        """The path of the page the episode starts on."""
        return self.start_page

    def backend(self, sb):
        """This env's instance of the app's backend."""
        return sb.server.install(self.app.prefix, self.app)

    def setup(self, sb, params: dict) -> None:
        self.backend(sb).load(params[self.seed_param], **self.app_data(params))
        open_app(sb, self.start(params))

    def read_state(self, sb, params: dict) -> dict:
        return self.backend(sb).state()


# -- each web app's task base (the families of one app may be split over several modules) --------

class ShopTask(WebAppTask):
    """A task on the Shop (tasks/webapps/shop.py): the catalogue of `params["catalogue"]`, cart and wishlist as drawn."""

    app, seed_param, app_params = shop.ShopApp, "catalogue", ("cart", "wishlist", "split", "stock")
    start_page = "/shop/index.html"

    def data(self, seed: int, split: str = "train") -> shop.ShopApp:
        return shop.ShopApp().load(seed, split=split)

    def name(self, params: dict, pid: int) -> str:
        """The name of product `pid` of the task's catalogue."""
        return shop.product_name(params["catalogue"], pid, params.get("split", "train"))


class MailTask(WebAppTask):
    """A task on Webmail (tasks/webapps/mail.py): the mailbox of `params["mailbox"]`, with the task's `extra` messages."""

    app, seed_param, app_params = mail.MailApp, "mailbox", ("extra", "split")
    start_page = "/mail/index.html"

    def data(self, seed: int, split: str = "train") -> dict:
        return mail.generate_mailbox(seed, split)


class CalendarTask(WebAppTask):
    """A task on the Calendar (tasks/webapps/calendar.py): the data of `params["data_seed"]`, opened on the
    month of `params["today"]` (or at `params["start_hash"]`)."""

    app = cal.CalendarBackend

    def data(self, seed: int) -> dict:
        return cal.generate(seed)

    def sample(self, rng: np.random.Generator) -> dict:
        """As `WebAppTask.sample`, with a data seed of the rng's split (`cal.data_seed`: test seeds give
        the 2027 calendars and the test titles, never a training calendar)."""
        from .data import split_of
        while True:
            seed = cal.data_seed(int(rng.integers(0, 2**30 - 1)), split_of(rng))
            params = self.sample_for(rng, self.data(seed))
            if params is not None:
                return {self.seed_param: seed, **params}

    def start(self, params: dict) -> str:
        return "/calendar/index.html" + (params.get("start_hash") or f"#month/{params['today'][:7]}")


class AdminTask(WebAppTask):
    """A task on the Admin console (tasks/webapps/admin.py): the organisation of `params["data_seed"]`, opened on the users table."""

    app = adm.AdminBackend
    start_page = "/admin/index.html#users"

    def data(self, seed: int) -> dict:
        return adm.generate(seed)

    def sample(self, rng: np.random.Generator) -> dict:
        """As `WebAppTask.sample`, with a data seed of the rng's split (`adm.data_seed`: test seeds give
        the test organisations, people and year, never a training organisation)."""
        from .data import split_of
        while True:
            seed = adm.data_seed(int(rng.integers(0, 2**30 - 1)), split_of(rng))
            params = self.sample_for(rng, self.data(seed))
            if params is not None:
                return {self.seed_param: seed, **params}
