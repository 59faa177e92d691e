"""The phone: booting the phone shell for a task, the base classes of the mobile tasks (`PhoneTask`,
`ToolAppTask`, `NewExpenseTask`), the generic tasks families declare as table rows (`AddRecord`, and on
one seeded record `DeleteRecord`, `ChangeRecord`, `AskRecord`, their oracle steps as data), and the
oracles' touches (a tap on a selector, a list swiped into view, the shell's pickers and menus, and the
few app routines several families share)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator, Sequence

import numpy as np
from playwright.sync_api import Error as PlaywrightError

from hybridgym.reward import CheckResult
from hybridgym.reward.answers import Answer, match_answer
from hybridgym.reward.checkers import all_of
from hybridgym.reward.phone_tools import phone_changed

from ..base import Outcome, Task
from . import actions as act
from .data import pick
from .phone_world import (ALL_FIELDS, PHONE_FIELDS, TOOL_FIELDS, added, changed, phone_world, record_id, removed,
                          tool_world)

#: the phone's clock at the start of every episode unless a task says otherwise (a Saturday morning)
PHONE_NOW = "2026-03-14T09:30:00"
TODAY = PHONE_NOW[:10]


def boot_phone(sb, records: dict[str, list[dict]], fields: dict[str, tuple[str, ...]],
               now: str = PHONE_NOW) -> None:
    """A task's setup: seed the phone's records, set its clock to `now` (running from there,
    local time "YYYY-MM-DDTHH:MM:SS"), load the shell and wait until the home screen is up."""
    sb.server.store.load(records, fields)
    sb.browser.set_clock(now)
    sb.browser.load(sb.server.url("/index.html"))
    sb.browser.page.wait_for_selector("body[data-ready]", timeout=10000)


#: the kinds a question's answer is read as (`PhoneTask.answer_form`): those of `reward.answers.Answer`
#: ("7:05" is "07:05"; a number in words around it, "3 photos"; any clear form of a date), all by `match_answer`
ANSWER_FORMS = ("text", "time", "number", "date")


# ---- the task base ------------------------------------------------------------------------------------
class PhoneTask(Task):
    """A task on a lived-in phone, booted at `PHONE_NOW` on the home screen.

    `sample` draws the seeded records (`params["records"]`: `phone_world`, and `tool_world` first when
    `tool_apps`), then the task's own parameters (`choose`, which may add records). The checker compares all
    the phone's collections before and after (`phone_changed`): exactly the change `expected(params)` names
    must have been made; a question (`truth`, `judge_answer`) also needs the right `finished(content=...)`.
    The oracle is `solve`'s steps, then `finished` (with the truth for a question).
    """

    suite = "mobile"
    max_steps = 12
    #: whether the tool apps (Notes, Settings, Files, Gallery, Expenses) are seeded too
    tool_apps: ClassVar[bool] = False
    #: the instruction, formatted with the parameters (`str.format`); or override `instruction`
    template: ClassVar[str] = ""
    #: a question's answer, formatted with the parameters: what the oracle answers, and what
    #: `judge_answer` accepts unless overridden (None: the task is not a question)
    truth: ClassVar[str | None] = None
    #: how the answer is read against `truth`: one of `ANSWER_FORMS` (an `Answer`'s kind)
    answer_form: ClassVar[str] = "text"
    #: for a number that is an amount of money: its currency mark (another currency fails)
    currency: ClassVar[str | None] = None

    @property
    def fields(self) -> dict[str, tuple[str, ...]]:
        return ALL_FIELDS if self.tool_apps else PHONE_FIELDS

    def sample(self, rng: np.random.Generator) -> dict:
        records = {**tool_world(rng), **phone_world(rng)} if self.tool_apps else phone_world(rng)
        return {"records": records, **self.choose(rng, records)}

    def choose(self, rng: np.random.Generator, records: dict[str, list[dict]]) -> dict:
        """The task's own parameters (its targets), drawn after the records; may add records to `records`."""
        return {}

    def instruction(self, params: dict) -> str:
        return self.template.format(**params)

    def setup(self, sb, params: dict) -> None:
        boot_phone(sb, params["records"], self.fields)

    def read_state(self, sb, params: dict) -> dict:
        return sb.server.store.snapshot()

    def expected(self, params: dict) -> dict:
        """The exact change asked for, as `collections_changed` wants it (`kit.phone_world`'s `changed`,
        `removed`, `added`, `text_sent`, `call_made`)."""
        return {}

    def expected_answer(self, params: dict) -> Answer | None:
        """For a question: `truth` formatted with the parameters, read as `answer_form` says (numbers the
        instruction states are not counted); None for a task that is not a question."""
        if self.truth is None:
            return None
        return Answer(self.truth.format(**params), kind=self.answer_form, aliases=self.aliases(params),
                      currency=self.currency, context=self.instruction(params))

    def aliases(self, params: dict) -> tuple[str, ...]:
        """Other verbatim forms of a text answer, as the phone shows it (none by default)."""
        return ()

    def judge_answer(self, answer: str | None, params: dict) -> CheckResult | None:
        """For a question: whether `answer` is the expected one (`match_answer`); None for a task that is not
        a question."""
        expected = self.expected_answer(params)
        return None if expected is None else match_answer(answer, expected)

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        changes = phone_changed(baseline, state, self.expected(params))
        truth = self.judge_answer(outcome.answer, params)
        return changes if truth is None else all_of(truth, changes)

    def solve(self, sb, params: dict) -> Iterator[dict]:
        """The steps that do the task, one per env step (the oracle without its final `finished`)."""
        raise NotImplementedError

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield from self.solve(sb, params)
        yield act.finish(self.truth.format(**params) if self.truth is not None else "")


class CountQuestion(PhoneTask):
    """A question whose answer is how many records `choose` counted (`params["count"]`), as a number."""
    truth = "{count}"
    answer_form = "number"


class ToolAppTask(PhoneTask):
    """A `PhoneTask` whose phone has the tool apps (Notes, Settings, Files, Gallery, Expenses) seeded too."""

    tool_apps = True


class NewExpenseTask(ToolAppTask):
    """A task whose asked change is one new expense, the parameter `expense` (as `new_expense` draws it); the
    oracle opens `source` first, the app that holds the facts (if any), then adds it (`add_expense`)."""

    source: ClassVar[str | None] = None

    def expected(self, params: dict) -> dict:
        return added("expenses", params["expense"])

    def solve(self, sb, params: dict) -> Iterator[dict]:
        if self.source:
            yield act.open_app(self.source)
        yield from add_expense(sb, params["expense"])


# ---- touches ------------------------------------------------------------------------------------------
#: the OK button of the shell's dialogs (confirmations, pickers)
OK = '.scrim button[data-value="ok"]'
SELECT_ALL = act.keys("ctrl", "a")
#: today's call in the Phone app's call log (the newest: its row says "Today")
TODAY_CALL = '#call-log .call:has-text("Today")'

_WHERE = """el => {
  const r = el.getBoundingClientRect();
  let box = el.parentElement;
  const scrolls = b => b.scrollHeight > b.clientHeight && /auto|scroll/.test(getComputedStyle(b).overflowY);
  while (box && !scrolls(box)) box = box.parentElement;
  const c = box ? box.getBoundingClientRect() : {top: 0, bottom: innerHeight};
  return r.top < c.top ? 'above' : r.bottom > c.bottom - 2 ? 'below' : 'in';
}"""


def point(sb, sel: str) -> tuple[int, int]:
    """The screen point of the first visible element matching `sel`."""
    for attempt in range(5):   # an element re-rendered between lookup and measuring: look again
        try:
            return sb.browser.screen_point(f"{sel} >> visible=true")
        except PlaywrightError:
            if attempt == 4:
                raise
            time.sleep(0.05)


def tap(sb, sel: str) -> dict:
    """A tap on the first visible element matching `sel`."""
    return act.tap(*point(sb, sel))


def reach(sb, sel: str, action: str = "tap") -> Iterator[dict]:
    """Swipe the list until `sel` is fully in view (as a person scrolls), then tap or long-press it."""
    if action not in ("tap", "long_press"):
        raise ValueError(f"reach() acts by 'tap' or 'long_press', got {action!r}")
    loc = sb.browser.page.locator(f"{sel} >> visible=true").first
    for _ in range(8):
        if not loc.count():
            raise LookupError(f"oracle: nothing visible matches {sel!r}")
        where = loc.evaluate(_WHERE)
        if where == "in":
            break
        y1, y2 = (1100, 600) if where == "below" else (600, 1100)
        yield act.swipe(360, y1, 360, y2)
    yield act.long_press(*point(sb, sel)) if action == "long_press" else tap(sb, sel)


def row(kind: str, text: str) -> str:
    """A list row of a kind (contact, thread, call, alarm, event) whose main line is `text`."""
    return f'.row.{kind}:has(.primary:text-is("{text}"))'


#: a note in the Notes list, a photo in a Gallery grid, a folder in Files (templates: `id` is the record's)
NOTE_ITEM = '.note-item[data-id="{id}"]'
PHOTO_THUMB = '.thumb[data-id="{id}"]'
FOLDER_ROW = '.folder-row[data-folder="{folder}"]'


def note_item(params: dict, title: str) -> str:
    """The seeded note titled `title` in the Notes list."""
    return NOTE_ITEM.format(id=record_id(params, "notes", title=title))


def photo_thumb(params: dict, name: str) -> str:
    """The seeded photo `name` in a Gallery grid."""
    return PHOTO_THUMB.format(id=record_id(params, "photos", name=name))


def menu_choice(value: str) -> str:
    """A choice in the bottom sheet the shell's ctx.menu shows."""
    return f'.scrim .menu button[data-value="{value}"]'


def long_press_menu(sb, sel: str, choice: str) -> Iterator[dict]:
    """Long-press `sel` (swiped into view), then choose `choice` in the menu it opens."""
    yield from reach(sb, sel, "long_press")
    yield tap(sb, menu_choice(choice))


def pick_time(sb, value: str) -> Iterator[dict]:
    """In an open time picker: hour, minute, OK."""
    yield tap(sb, "#pick-hour")
    yield act.typed(value[:2])
    yield tap(sb, "#pick-minute")
    yield act.typed(value[3:])
    yield tap(sb, OK)


def _months_between(a: str, b: str) -> int:
    return (int(b[:4]) - int(a[:4])) * 12 + int(b[5:7]) - int(a[5:7])


def pick_date(sb, shown: str, value: str) -> Iterator[dict]:
    """In an open date picker showing the month of `shown`: go to the month of `value`, tap the day, OK."""
    months = _months_between(shown, value)
    for _ in range(abs(months)):
        yield tap(sb, "#pick-next" if months > 0 else "#pick-prev")
    yield tap(sb, f'#pick-grid [data-date="{value}"]')
    yield tap(sb, OK)


def calendar_day(sb, date: str) -> Iterator[dict]:
    """In the Calendar app (showing today's month): go to `date`'s month and select the day."""
    months = _months_between(TODAY, date)
    for _ in range(abs(months)):
        yield tap(sb, "#cal-next" if months > 0 else "#cal-prev")
    yield tap(sb, f'#cal-grid [data-date="{date}"]')


def fill(sb, *fields: tuple[str, str]) -> Iterator[dict]:
    """Tap each field (a selector) and type its text."""
    for sel, text in fields:
        yield tap(sb, sel)
        yield act.typed(text)


# ---- app routines more than one family uses -------------------------------------------------------------
def add_contact(sb, name: str, phone: str, email: str | None = None) -> Iterator[dict]:
    """From anywhere: open Contacts, add a contact, save it."""
    yield act.open_app("Contacts")
    yield tap(sb, "#add-contact")
    fields = [("#name", name), ("#number", phone)] + ([("#email", email)] if email else [])
    yield from fill(sb, *fields)
    yield tap(sb, "#save")


def open_contact(sb, name: str) -> Iterator[dict]:
    """From anywhere: open Contacts and the contact `name`."""
    yield act.open_app("Contacts")
    yield from reach(sb, row("contact", name))


def open_thread(sb, who: str) -> Iterator[dict]:
    """From anywhere: open Messages and the conversation whose main line is `who` (a name or a number)."""
    yield act.open_app("Messages")
    yield from reach(sb, row("thread", who))


def send_text(sb, body: str) -> Iterator[dict]:
    """In an open conversation: type `body` and send it."""
    yield from fill(sb, ("#compose", body))
    yield tap(sb, "#send")


#: the fields of an event `add_event` fills in, in its argument order
EVENT_KEYS = ("title", "date", "start", "end", "location")


def add_event(sb, title: str, date: str, start: str | None = None, end: str | None = None,
              location: str | None = None) -> Iterator[dict]:
    """From anywhere: open Calendar, add an event (the pickers for the date and the times), save it."""
    yield act.open_app("Calendar")
    yield tap(sb, "#add-event")
    yield from fill(sb, ("#event-title", title))
    yield tap(sb, "#event-date")
    yield from pick_date(sb, TODAY, date)
    for sel, value in (("#event-start", start), ("#event-end", end)):
        if value:
            yield tap(sb, sel)
            yield from pick_time(sb, value)
    if location:
        yield from fill(sb, ("#event-location", location))
    yield tap(sb, "#save")


def write_note(sb, title: str, body: str) -> Iterator[dict]:
    """From anywhere: open Notes, write a new note, save it."""
    yield act.open_app("notes")
    yield tap(sb, "#notes-add")
    yield from fill(sb, ("#note-title", title), ("#note-body", body))
    yield tap(sb, "#note-save")


def add_expense(sb, e: dict) -> Iterator[dict]:
    """From anywhere: open Expenses, add an expense (title, amount, category, date typed over the default), save."""
    yield act.open_app("expenses")
    yield tap(sb, "#exp-add")
    yield from fill(sb, ("#exp-title", e["title"]), ("#exp-amount", f"{e['amount']:.2f}"))
    yield tap(sb, f'.cat-opt[data-cat="{e["category"]}"]')
    yield tap(sb, "#exp-date-clear")
    yield act.typed(e["date"])
    yield tap(sb, "#exp-save")


def files_by_size(sb, folder: str) -> Iterator[dict]:
    """From anywhere: open Files, open `folder`, sort it by size."""
    yield act.open_app("files")
    yield from reach(sb, FOLDER_ROW.format(folder=folder))
    yield tap(sb, "#files-sort")
    yield tap(sb, menu_choice("size"))


# ---- tasks declared as table rows ----------------------------------------------------------------------------
def _tap(sb, sel: str) -> Iterator[dict]:
    yield tap(sb, sel)


def _type(sb, text: str) -> Iterator[dict]:
    yield act.typed(text)


def _press(sb, action: dict) -> Iterator[dict]:
    yield action


#: the oracle steps a table row is written with: `(how, *arguments)` -> the touch that does it (a generator,
#: as the oracle is: the agent sends it each observation)
STEPS: dict[str, Callable[..., Iterator[dict]]] = {
    "tap": _tap,                   # (selector)
    "reach": reach,                # (selector): swiped into view, then tapped
    "hold": long_press_menu,       # (selector, choice): long press, then the choice in its menu
    "type": _type,                 # (text)
    "press": _press,               # (action): a fixed one, e.g. SELECT_ALL, act.press_back()
    "day": calendar_day,           # (date): Calendar's day, from today's month
    "pick_date": pick_date,        # (shown, date): in the open date picker
}


def run_steps(sb, steps: Sequence[tuple], values: dict) -> Iterator[dict]:
    """A row's oracle steps, one tuple `(how, *arguments)` each (`STEPS`); the text arguments are templates
    of `values` (`str.format`), computed when the step is taken."""
    for how, *args in steps:
        yield from STEPS[how](sb, *(a.format(**values) if isinstance(a, str) else a for a in args))


@dataclass(frozen=True)
class Param:
    """In a `ChangeRecord`'s `to`: the value of the task parameter `name` (a value its `new` drew)."""
    name: str


class TableTask(PhoneTask):
    """A task declared as data: a row of a family's table, added to the catalogue with `add_task`. Its card
    and the collection it works on are the constructor's arguments; the tool apps are seeded when the
    collection is one of theirs. The kinds: `AddRecord`, and on one seeded record (`RecordTask`)
    `DeleteRecord`, `ChangeRecord` and `AskRecord`."""

    def __init__(self, id: str, max_steps: int, template: str, collection: str):
        if collection not in ALL_FIELDS:
            raise ValueError(f"{id}: the phone has no collection {collection!r}; it has {sorted(ALL_FIELDS)}")
        self.id, self.max_steps, self.template, self.collection = id, max_steps, template, collection
        self.tool_apps = collection in TOOL_FIELDS
        #: what a listing says of the row (`hybridgym list`): its instruction, as the template words it
        self.__doc__ = template or type(self).__doc__


class AddRecord(TableTask):
    """Add one record (a table row).

    `new(rng, records)` draws the parameters, of which those named in `row` (and the `fixed` values) make the
    new record; the oracle is `enter(sb, *those parameters)`, an app routine such as `add_contact`.
    Checker: exactly one new row with those fields, nothing else changed."""

    def __init__(self, id: str, max_steps: int, template: str, collection: str, row: Sequence[str],
                 enter: Callable[..., Iterator[dict]], new: Callable[..., dict], fixed: dict[str, Any] | None = None):
        super().__init__(id, max_steps, template, collection)
        self.row, self.enter, self.new, self.fixed = tuple(row), enter, new, fixed or {}

    def choose(self, rng, records):
        return self.new(rng, records)

    def expected(self, params):
        return added(self.collection, {**{k: params[k] for k in self.row}, **self.fixed})

    def solve(self, sb, params):
        yield from self.enter(sb, *(params[k] for k in self.row))


class RecordTask(TableTask):
    """A task on one seeded record of the collection.

    `choose` picks the target among the records `where` accepts (all by default; `single`: the one record
    of a collection that has one, Settings', with nothing drawn); the parameters are its fields `keys`
    ("photo=name": the parameter `photo` is the field `name`), then what `new(rng, record, records)` returns
    (the new values asked for; it may also rewrite the record first). `match` names the parameters that
    identify the record (all of `keys` by default). The oracle opens `app` and runs `steps` (`run_steps`),
    whose templates also see `id`, the target's store id.
    """

    def __init__(self, id: str, max_steps: int, template: str, collection: str, keys: Sequence[str], app: str,
                 *steps: tuple, where: Callable[[dict], bool] | None = None, match: Sequence[str] = (),
                 new: Callable[..., dict] | None = None, single: bool = False):
        super().__init__(id, max_steps, template, collection)
        self.keys = {param: field or param for param, _, field in (k.partition("=") for k in keys)}
        self.match = tuple(match) or tuple(self.keys)
        if not set(self.match) <= set(self.keys):
            raise ValueError(f"{id}: match {self.match} names parameters that are not in keys {tuple(keys)}")
        bad = [s for s in steps if not s or s[0] not in STEPS]
        if bad:
            raise ValueError(f"{id}: steps {bad} are not (how, ...) with how one of {sorted(STEPS)}")
        self.app, self.steps, self.where, self.new, self.single = app, steps, where, new, single

    def choose(self, rng, records):
        rows = [r for r in records[self.collection] if self.where is None or self.where(r)]
        if self.single and len(rows) != 1:
            raise LookupError(f"{self.id}: single=True wants one {self.collection} record, the phone has {len(rows)}")
        record = rows[0] if self.single else pick(rng, rows)
        extra = self.new(rng, record, records) if self.new else {}
        return {**{param: record[field] for param, field in self.keys.items()}, **extra}

    def target(self, params: dict) -> dict:
        """The fields that identify the target record, with their values."""
        return {self.keys[k]: params[k] for k in self.match}

    def solve(self, sb, params):
        yield act.open_app(self.app)
        target = record_id(params, self.collection, **self.target(params))
        yield from run_steps(sb, self.steps, {**params, "id": target})


class DeleteRecord(RecordTask):
    """Delete one seeded record (a table row). Checker: only that record is gone."""

    def expected(self, params):
        return removed(params, self.collection, **self.target(params))


class ChangeRecord(RecordTask):
    """Change fields of one seeded record (a table row): `to` maps each field to its new value (a `Param`: a
    drawn parameter). Checker: only those fields of that record changed, to those values."""

    def __init__(self, *args, to: dict[str, Any], **kwargs):
        super().__init__(*args, **kwargs)
        self.to = to

    def expected(self, params):
        values = {f: params[v.name] if isinstance(v, Param) else v for f, v in self.to.items()}
        return changed(params, self.collection, self.target(params), values)


class AskRecord(RecordTask):
    """A question one seeded record answers (a table row): `truth` (a template of the parameters), read as
    `answer_form` says. Checker: that answer, and nothing changed."""

    def __init__(self, *args, truth: str, answer_form: str = "text", **kwargs):
        super().__init__(*args, **kwargs)
        if answer_form not in ANSWER_FORMS:
            raise ValueError(f"{self.id}: answer_form {answer_form!r} is not one of {ANSWER_FORMS}")
        self.truth, self.answer_form = truth, answer_form
