"""Mobile tasks on the phone's Expenses app (assets/phone/apps/expenses.js): add, correct, delete an expense; totals.

## Description
The agent adds an expense (title, amount, category, date typed or picked), corrects the amount of an expense
of this month, deletes one (confirm), or says how much was spent on a category in a month of 2026 (the app
shows a month at a time; its category chips filter the list and its total).

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the `expenses` rows show exactly the asked change (an amount to the cent) and every other collection
is unchanged (`phone_changed`); the total also needs the amount as `finished(content=...)` (`match_answer`, a
number in dollars: "$42.50", "42.5", "USD 42.50"; another currency or a second number fails).

## Starting State
The home screen at 2026-03-14 09:30 with all ten apps seeded from the reset seed (`kit.phone_world`): 17
expenses from January to March 2026 (5, 6 and 6; titles distinct within a month), in six categories.

## Episode End
`finished(...)`, or `max_steps` (12; 20 to add).

## Tasks
* `mobile.expenses-add-v1`: add an expense with a title, amount, category and date (one new expense with them).
* `mobile.expenses-edit-v1`: correct the amount of an expense of March (tap it, clear, type, Save; only `amount`).
* `mobile.expenses-delete-v1`: delete an expense of March (tap it, Delete expense, confirm; only it is gone).
* `mobile.expenses-total-v1`: how much went on a category in a month of 2026 (the amount, to the cent).

## Version History
* v0: first version.
* v1: the phone's names (contacts' first names, alarm labels, event titles, notes, files, albums, expenses) and
  numbers come from split-disjoint pools, so no test instance is a training one; a question's answer is read by
  `reward.answers.match_answer` (one number, time or date; no list, no hedge); expenses reach back to October
  2025 and expenses-total asks about January-March 2026 (train) or October-December 2025 (test), its answer a
  number in dollars.
"""

from __future__ import annotations

from .base import add_task, register_task
from .kit import actions as act
from .kit.data import MONTHS, pick
from .kit.phone import OK, ChangeRecord, DeleteRecord, NewExpenseTask, Param, ToolAppTask, tap
from .kit.phone_world import expense_months, new_expense, price

#: an expense in the list of its month (Expenses opens on March)
EXPENSE = '.exp-row[data-id="{id}"]'


@register_task(id="mobile.expenses-add-v1", max_steps=20,
               template=('Add an expense "{expense[title]}" of ${expense[amount]:.2f} in the {expense[category]} category, '
                         "dated {expense[date]}."))
class ExpenseAdd(NewExpenseTask):
    """Add an expense with a title, amount, category and date."""

    def choose(self, rng, records):
        return {"expense": new_expense(rng)}


@register_task(id="mobile.expenses-total-v1")
class ExpenseTotal(ToolAppTask):
    """How much was spent on a category in a month? A sum of several rows when there is one. A training seed asks
    about January to March 2026, a test seed about October to December 2025 (`expense_months`)."""

    truth = "{total:.2f}"
    answer_form = "number"
    currency = "$"

    def choose(self, rng, records):
        months = expense_months(rng)
        pairs = [(int(e["date"][:4]), int(e["date"][5:7]), e["category"]) for e in records["expenses"]]
        pairs = [p for p in pairs if p[:2] in months]
        several = [p for p in pairs if pairs.count(p) > 1]
        year, month, cat = pick(rng, several or pairs)
        total = round(sum(x["amount"] for x in records["expenses"]
                          if x["category"] == cat and x["date"].startswith(f"{year}-{month:02d}")), 2)
        return {"year": year, "month": month, "category": cat, "total": total}

    def instruction(self, p):
        return (f"How much did I spend on {p['category']} in {MONTHS[p['month'] - 1]} {p.get('year', 2026)} "
                "according to Expenses? Answer with the amount.")

    def solve(self, sb, p):
        yield act.open_app("expenses")
        for _ in range((2026 - p.get("year", 2026)) * 12 + 3 - p["month"]):   # back from March 2026 to the month
            yield tap(sb, "#exp-prev")
        yield tap(sb, f'.chip[data-cat="{p["category"]}"]')


def _in_march(expense: dict) -> bool:
    return expense["date"] >= "2026-03"


def _new_amount(rng, expense, records) -> dict:
    """An amount at least a dollar away from the expense's."""
    new = expense["amount"]
    while abs(new - expense["amount"]) < 1:
        new = price(rng, 5, 120)
    return {"new_amount": new}


for task in (
    ChangeRecord("mobile.expenses-edit-v1", 12,
                 'The expense "{title}" of {date} was really ${new_amount:.2f}: correct its amount.', "expenses",
                 ("title", "date", "amount"), "expenses", ("reach", EXPENSE), ("tap", "#exp-amount-clear"),
                 ("type", "{new_amount:.2f}"), ("tap", "#exp-save"), where=_in_march, match=("title", "date"),
                 new=_new_amount, to={"amount": Param("new_amount")}),
    DeleteRecord("mobile.expenses-delete-v1", 12, 'Delete the expense "{title}" of {date}.', "expenses",
                 ("title", "date", "amount"), "expenses", ("reach", EXPENSE), ("tap", "#exp-delete"), ("tap", OK),
                 where=_in_march, match=("title", "date")),
):
    add_task(task)
