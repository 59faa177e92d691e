"""Browser tasks on Taskboard (assets/web/todo/), the simplest web app: a to-do list over the server's record API.

## Description
Taskboard lists tasks (title, priority, done) from the env's RecordStore
(`/api/todos`, `sb.server.store`) and has a form to add one (title, a priority
dropdown). The task here adds one with a given title and priority.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when exactly one new record has the title and priority asked for and the existing
records are untouched.

## Starting State
3-6 existing tasks drawn from the reset seed, loaded into the store at setup; the page
opens on the board.

## Episode End
`finished(...)`, or the task's `max_steps`.

## Version History
* v0: first version.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import record_added

from .base import Outcome, Task, register_task
from .kit import actions as act
from .kit.data import Pool, pick
from .kit.web import click, open_app

_CHORES = ["Renew passport", "Book dentist", "Pay electricity bill", "Water the plants", "Call the bank",
           "Return library books", "Fix the bike tyre", "Order printer ink", "Plan team offsite",
           "Send thank-you notes", "Back up laptop", "Clean the fridge", "Update CV", "Buy birthday gift"]
#: the titles to add: training seeds draw the even-indexed ones, test seeds the odd-indexed ones (`Pool`)
_NEW = Pool(["Prepare quarterly report", "Schedule car service", "Buy train tickets to Lyon", "Cancel gym membership",
             "Email the landlord about the heater", "Pick up dry cleaning", "Submit expense claim 4471",
             "Translate the menu into 日本語", "Review pull request #982", "Order 3 boxes of A4 paper",
             "Book flights to Porto", "Renew car insurance", "Draft the newsletter intro", "Reply to Café Müller",
             "Pay invoice INV-2290", "Sort the garage shelves", "Call plumber about the leak", "File tax return 2025",
             "Buy 2 tickets for the 7:30 show", "Return the rented ski boots", "Water Mrs. O'Neill's garden",
             "Print boarding passes", "Collect parcel #5531", "Set up the new router"])
_PRIORITIES = ["low", "medium", "high"]
_TODO_FIELDS = {"todos": ("title", "priority", "done")}


@register_task(id="browser.todo-add-v0", suite="browser", max_steps=10)
class TodoAdd(Task):
    """Add a task with a given title and priority in the Taskboard web app.

    The board starts with 3-6 existing tasks; the checker requires exactly one new
    record with the title and priority asked for, and the existing records untouched.
    """

    def sample(self, rng: np.random.Generator) -> dict:
        existing = [str(x) for x in rng.choice(_CHORES, size=int(rng.integers(3, 7)), replace=False)]
        return {"title": pick(rng, _NEW), "priority": str(rng.choice(_PRIORITIES)),
                "existing": [{"title": t, "priority": str(rng.choice(_PRIORITIES)), "done": bool(rng.random() < 0.3)}
                             for t in existing]}

    def instruction(self, params: dict) -> str:
        return (f"In the Taskboard app, add a new task titled \"{params['title']}\" "
                f"with priority {params['priority'].capitalize()}.")

    def setup(self, sb, params: dict) -> None:
        sb.server.store.load({"todos": params["existing"]}, _TODO_FIELDS)
        open_app(sb, "/todo/index.html")

    def read_state(self, sb, params: dict) -> dict:
        return {"todos": sb.server.store.snapshot()["todos"]}

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return record_added(baseline["todos"], state["todos"], {"title": params["title"], "priority": params["priority"]}, normalize=False)

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield click(sb, "#title")
        yield act.typed(params["title"])
        yield act.keys("tab")
        yield act.typed(params["priority"][0])  # a closed <select> picks by first letter
        yield click(sb, "#add")
        yield act.finish()
