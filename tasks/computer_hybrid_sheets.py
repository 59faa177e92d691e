"""Computer tasks for GUI + SDK on workbooks: the terminal does the bulk (merge, grep, count), Gnumeric the rest.

## Description
Merge 30 daily CSV files and total them in a new workbook; find which of 40 workbooks
belongs to a project code and change its budget; count status codes in a 3000-line access
log, total 600 transactions by category, or look up stock counts among 120 bin files, and
fill the results into a workbook open in Gnumeric.

## Action Space / Observation Space
Those of `ComputerEnv` (the whole 1280×800 desktop), plus the SDK (`sdk = True`):
`terminal(command=...)`, `read_file(path=...)`, `write_file(path=..., content=...)`;
the step's observation carries the command's output (`sdk_output`).

## Rewards
1.0 when the saved workbook holds exactly the expected cells (`sheet_equals`, read back
with `read_book`: numbers within 0.005, money totals within 0.01), no other sheet of it holds
anything, and every other file of the home is byte-for-byte intact. The merge task's total must
be a formula that reads the whole Amount column (a typed constant fails).

## Test split
Test seeds draw the names (workbooks, months' years, stores, project codes, SKUs, categories)
and the log's year from other halves of their pools and ranges than training seeds.

## Starting State
The data files and the workbook drawn from the seed; Gnumeric open on the workbook (or
on an empty one).

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1: the total formula must read the data, other sheets must stay empty, train/test instances
  are disjoint; the access log is drawn in one vectorized pass.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from hybridgym.reward.sheets import table, write_csv

from .base import register_task
from .kit import actions as act
from .kit.data import MONTHS, WORDS, Pool, money, pick, split_int, split_of
from .kit.desktop import (NAMES, SheetTask, book_bytes, split_doc_name, distractors, fill_and_save, goto_cell, open_workbook, place, save,
                          save_workbook_as)

_STORES = Pool(["Alfama", "Baixa", "Belem", "Chiado", "Graca", "Lapa", "Estrela", "Campo", "Areeiro", "Benfica"])
_CATEGORIES = Pool(["Books", "Fuel", "Groceries", "Rent", "Software", "Travel", "Dining", "Health", "Music",
                    "Garden", "Phone", "Sports"])

_DAY_HEADER = ["Day", "Store", "Amount"]


def _ids(rng: np.random.Generator) -> range:
    """Four-digit ids (project codes, SKUs): 1000-5499 for training seeds, 5500-9999 for test seeds."""
    return range(1000, 5500) if split_of(rng) == "train" else range(5500, 10000)


@register_task(id="computer.merge-csvs-total-v1", sdk=True)
class MergeCsvsTotal(SheetTask):
    """Hybrid: merge 30 daily CSV files into one workbook with a total (the terminal merges, the spreadsheet totals).

    sales/day-01.csv … day-30.csv each hold a header (Day, Store, Amount) and a few
    rows. The checker reads Documents/<month>-sales.gnumeric: the header, every
    row in day order (file order within a day), and a formula in E1 whose result
    is the Amount total.
    """

    book = "out"

    def sample(self, rng):
        stores = pick(rng, _STORES, 4)
        days = {}
        for d in range(1, 31):
            days[str(d)] = [[d, pick(rng, stores), money(rng, 50, 600)] for _ in range(int(rng.integers(2, 5)))]
        month = f"{pick(rng, MONTHS).lower()}-{split_int(rng, 2016, 2026)}"
        return {"days": days, "out": f"Documents/{month}-sales.gnumeric", "others": distractors(rng)}

    def instruction(self, params):
        return ("The folder sales/ holds 30 daily CSV files (day-01.csv to day-30.csv, each with the header Day, "
                "Store, Amount). Make one Gnumeric workbook " + params["out"] + " whose first sheet has the header "
                "in row 1 followed by all the rows of the 30 files in day order, and in cell E1 a formula giving "
                "the total of the Amount column.")

    def _rows(self, params) -> list[list]:
        return [_DAY_HEADER] + [r for d in range(1, 31) for r in params["days"][str(d)]]

    def setup(self, sb, params):
        files = {f"sales/day-{d:02d}.csv": write_csv([_DAY_HEADER] + params["days"][str(d)]) for d in range(1, 31)}
        place(sb, {**files, **params["others"]})
        (sb.workspace.root / "Documents").mkdir(exist_ok=True)
        sb.open_app("spreadsheet")

    def expected(self, params):
        rows = self._rows(params)
        return {**table(rows), "E1": round(sum(r[2] for r in rows[1:]), 6)}, {"E1": ""}

    def reads(self, params):
        return {"E1": f"C2:C{len(self._rows(params))}"}

    def oracle(self, sb, params):
        yield act.terminal("(head -n 1 sales/day-01.csv; tail -q -n +2 sales/day-*.csv) > sales/merged.csv && "
                           "wc -l sales/merged.csv")
        yield from open_workbook(sb, "sales/merged.csv")
        yield from goto_cell(sb, "E1")
        yield act.typed(f"=SUM(C2:C{len(self._rows(params))})\n")
        yield from save_workbook_as(sb, params["out"])
        yield act.finish()


@register_task(id="computer.grep-then-edit-sheet-v1", sdk=True, max_steps=15)
class GrepThenEditSheet(SheetTask):
    """Hybrid: find which of 40 project workbooks belongs to a project code (terminal), then change its budget (GUI).

    projects/*.gnumeric each hold Project, Owner and Budget in A1:B3; Gnumeric is
    open on an empty workbook. The checker reads the right file (Budget = the new
    value, the rest unchanged) and confirms every other file is byte-for-byte intact.
    """

    book = "target"

    def sample(self, rng):
        codes = [f"PRJ-{c}" for c in pick(rng, _ids(rng), 40)]
        nums = pick(rng, range(100, 999), 40)
        projects = {f"projects/project-{nums[i]}.gnumeric":
                    [["Project", codes[i]], ["Owner", pick(rng, NAMES)], ["Budget", int(rng.integers(5, 90)) * 1000]]
                    for i in range(40)}
        target = sorted(projects)[int(rng.integers(40))]
        return {"projects": projects, "target": target, "code": projects[target][0][1],
                "budget": int(rng.integers(95, 200)) * 1000}

    def instruction(self, params):
        return (f"One of the Gnumeric workbooks in the folder projects/ is for project {params['code']}. Change its "
                f"Budget to {params['budget']} and save it in place.")

    def setup(self, sb, params):
        place(sb, {p: book_bytes(rows) for p, rows in params["projects"].items()})
        sb.open_app("spreadsheet")

    def expected(self, params):
        rows = [list(r) for r in params["projects"][params["target"]]]
        rows[2][1] = params["budget"]
        return table(rows), {}

    def oracle(self, sb, params):
        obs = yield act.terminal(f"zgrep -l -- '{params['code']}' projects/*.gnumeric")
        path = obs["sdk_output"].split()[0].strip()
        yield from open_workbook(sb, path)
        yield from goto_cell(sb, "B3")
        yield act.typed(f"{params['budget']}\n")
        yield from save(sb, path)
        yield act.finish()


class _FillTask(SheetTask):
    """A workbook open in Gnumeric whose column B the agent fills with what the terminal finds in the
    task's `data` files (path -> text, placed next to it)."""

    sdk = True
    max_steps = 15

    def setup(self, sb, params):
        place(sb, self.data(params))
        super().setup(sb, params)

    def data(self, params) -> dict[str, str]:
        raise NotImplementedError

    def fill(self, sb, params, values: list) -> Iterator[dict]:
        """Type `values` down column B from B2, save, finish."""
        yield from fill_and_save(sb, params["path"], [("B2", "".join(f"{v}\n" for v in values))])
        yield act.finish()


@register_task(id="computer.log-counts-to-sheet-v1")
class LogCountsToSheet(_FillTask):
    """Hybrid: count HTTP status codes in a 3000-line access log (terminal) and fill them into a workbook (GUI).

    logs/access.log is in the common log format; Gnumeric is open on a stats
    workbook listing three status codes. The checker reads the saved workbook:
    each code's count in column B, nothing else changed.
    """

    def sample(self, rng):
        codes = np.array([200, 301, 304, 404, 500, 503])
        weights = np.array([60, 5, 10, 12, 8, 5], float)
        n = 3000
        drawn = rng.choice(codes, size=n, p=weights / weights.sum())
        ip3, ip4 = rng.integers(0, 9, n), rng.integers(1, 250, n)
        words, pages, sizes = rng.integers(len(WORDS), size=n), rng.integers(1, 99, n), rng.integers(200, 9000, n)
        year = 2025 if split_of(rng) == "train" else 2026
        lines = [f"10.0.{ip3[i]}.{ip4[i]} - - [12/Mar/{year}:{i // 360 % 24:02d}:{i // 6 % 60:02d}:{i % 60:02d} +0000] "
                 f"\"GET /{WORDS[words[i]]}/{pages[i]} HTTP/1.1\" {drawn[i]} {sizes[i]}" for i in range(n)]
        asked = sorted(pick(rng, [301, 304, 404, 500, 503], 3))
        rows = [["Status", "Requests"]] + [[c, None] for c in asked]
        return {"path": f"Documents/{split_doc_name(rng, 'stats')}.gnumeric", "rows": rows,
                "log": "\n".join(lines) + "\n", "counts": {str(c): int((drawn == c).sum()) for c in asked},
                "others": distractors(rng)}

    def instruction(self, params):
        return (f"Count how many requests in logs/access.log got each of the status codes listed in "
                f"{params['path']} (open in the spreadsheet), enter the counts in its Requests column and save it.")

    def data(self, params):
        return {"logs/access.log": params["log"]}

    def expected(self, params):
        return table([params["rows"][0]] + [[r[0], params["counts"][str(r[0])]] for r in params["rows"][1:]]), {}

    def oracle(self, sb, params):
        obs = yield act.terminal("awk '{print $9}' logs/access.log | sort | uniq -c")
        counts = {parts[1]: parts[0] for parts in (ln.split() for ln in obs["sdk_output"].splitlines())
                  if len(parts) == 2 and parts[0].isdigit()}
        yield from self.fill(sb, params, [counts.get(str(r[0]), 0) for r in params["rows"][1:]])


@register_task(id="computer.category-totals-to-sheet-v1")
class CategoryTotalsToSheet(_FillTask):
    """Hybrid: total 600 transactions by category (terminal: awk) and fill the totals into a summary workbook (GUI).

    data/transactions.csv has Id, Category, Amount; Gnumeric is open on a summary
    workbook listing the categories. The checker reads the saved workbook: each
    category's total (±0.01) in column B.
    """

    tol = 0.01

    def sample(self, rng):
        cats = pick(rng, _CATEGORIES, 5)
        rows_tx = [["Id", "Category", "Amount"]]
        for i in range(600):
            rows_tx.append([1000 + i, pick(rng, cats), money(rng, 2, 300)])
        asked = sorted(pick(rng, cats, 4))
        totals = {c: round(sum(r[2] for r in rows_tx[1:] if r[1] == c), 2) for c in asked}
        return {"path": f"Documents/{split_doc_name(rng, 'summary')}.gnumeric",
                "rows": [["Category", "Total"]] + [[c, None] for c in asked], "csv": write_csv(rows_tx),
                "totals": totals, "others": distractors(rng)}

    def instruction(self, params):
        return (f"data/transactions.csv lists 600 transactions. In {params['path']} (open in the spreadsheet), "
                "fill the Total column with the sum of the amounts of each listed category, and save it.")

    def data(self, params):
        return {"data/transactions.csv": params["csv"]}

    def expected(self, params):
        rows = [[r[0], params["totals"][r[0]] if r[1] is None and r[0] in params["totals"] else r[1]]
                for r in params["rows"]]
        return table(rows), {}

    def oracle(self, sb, params):
        obs = yield act.terminal("awk -F, 'NR>1 {t[$2]+=$3} END {for (c in t) printf \"%s %.2f\\n\", c, t[c]}' "
                                 "data/transactions.csv")
        totals = dict(ln.split() for ln in obs["sdk_output"].splitlines() if len(ln.split()) == 2)
        yield from self.fill(sb, params, [totals.get(r[0], 0) for r in params["rows"][1:]])


@register_task(id="computer.stock-from-files-to-sheet-v1")
class StockFromFilesToSheet(_FillTask):
    """Hybrid: look up stock counts in 120 warehouse bin files (terminal: grep) and fill an inventory workbook (GUI).

    warehouse/bin-*.txt each hold "sku:", "stock:" and "shelf:" lines; Gnumeric is
    open on an inventory workbook listing five SKUs. The checker reads the saved
    workbook: each SKU's stock in column B.
    """

    def sample(self, rng):
        skus = [f"K-{s}" for s in pick(rng, _ids(rng), 120)]
        stock = {s: int(rng.integers(0, 500)) for s in skus}
        asked = pick(rng, skus, 5)
        return {"path": f"Documents/{split_doc_name(rng, 'inventory')}.gnumeric",
                "rows": [["SKU", "Stock"]] + [[s, None] for s in asked],
                "bins": {f"warehouse/bin-{i:03d}.txt": f"sku: {s}\nstock: {stock[s]}\nshelf: {chr(65 + i % 6)}{i % 9}\n"
                         for i, s in enumerate(skus)},
                "stock": {s: stock[s] for s in asked}, "others": distractors(rng)}

    def instruction(self, params):
        return (f"The files in warehouse/ record the stock of each SKU. Fill the Stock column of {params['path']} "
                "(open in the spreadsheet) for the SKUs it lists, and save it.")

    def data(self, params):
        return params["bins"]

    def expected(self, params):
        return table([params["rows"][0]] + [[r[0], params["stock"][r[0]]] for r in params["rows"][1:]]), {}

    def oracle(self, sb, params):
        skus = [r[0] for r in params["rows"][1:]]
        obs = yield act.terminal("grep -h -A1 -E '^sku: (" + "|".join(skus) + ")$' warehouse/*.txt")
        lines = [ln.strip() for ln in obs["sdk_output"].splitlines()]
        found = {lines[i][5:]: lines[i + 1][7:] for i in range(len(lines) - 1)
                 if lines[i].startswith("sku: ") and lines[i + 1].startswith("stock: ")}
        yield from self.fill(sb, params, [found.get(s, "") for s in skus])
