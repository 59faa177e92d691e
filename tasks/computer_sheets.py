"""Computer tasks: spreadsheet work in Gnumeric (formulas, fixes, sorting, a chart, converting to .xlsx).

## Description
Gnumeric is open on a workbook of the home (a sales table: Item, Region, Units, Price;
a monthly series; or a CSV). The agent adds formulas (a sum, an average, a summary row,
a computed column, a count), corrects values, sorts the rows, inserts a column chart, or
converts the file to an Excel workbook, and saves. See docs/computer-office-tasks.md.

## Action Space / Observation Space
Those of `ComputerEnv` (the whole 1280×800 desktop; clicks, keys, typing, scrolls). No SDK.

## Rewards
1.0 when the saved workbook, read back with `hybridgym.reward.sheets` (formula results
recalculated with ssconvert: `read_book`), holds exactly the expected cells (`sheet_equals`:
numbers within 0.005), no other sheet holds anything, a chart where asked (`sheet_has_chart`),
and every other file of the home is intact. Where the instruction asks for a formula, the cell
must hold one that computes from the data: it reads every cell of the data range it is about
(`reads`, e.g. C2:C9 for a column's total) and types no constant result (`=1234.5` and
`=C2*0+1234.5` fail).

## Test split
Test seeds draw the workbook's name (word and number), the goods and the measures from other
halves of their pools than training seeds (`split_doc_name`, `split_rows`), so no test instance
equals a training one.

## Starting State
The workbook and two unrelated notes are written from the seed (`write_gnumeric` /
`write_csv`), then Gnumeric opens the workbook.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1: a formula must read the data range it is about (a typed constant no longer passes), other
  sheets of the workbook must stay empty, and train/test instances are disjoint (names, goods).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from hybridgym.reward.checkers import all_of
from hybridgym.reward.sheets import sheet_has_chart, table, write_csv

from .base import register_task
from .kit import actions as act
from .kit.data import MONTHS, Pool, money, pick
from .kit.desktop import (GOODS, REGIONS, SALES_HEADER, SheetTask, distractors, goto_cell, place, save,
                          save_workbook_as, screen_shows, selected, split_doc_name, switch_to, window)

#: split-disjoint pools: a test seed's names and goods are never a training seed's
SPLIT_GOODS = Pool(GOODS)


def split_rows(rng: np.random.Generator, n: int) -> list[list]:
    """`n` rows of a sales table (`SALES_HEADER`): distinct goods of the split's half, a region,
    distinct units, a price."""
    items = pick(rng, SPLIT_GOODS, n)
    units = pick(rng, range(2, 90), n)
    return [[items[i], pick(rng, REGIONS), units[i], money(rng, 1, 60)] for i in range(n)]


_MEASURES = Pool(["Visitors", "Orders", "Rainfall", "Downloads", "Signups", "Returns", "Calls", "Sessions"])


def _sheet_params(rng: np.random.Generator, n: int = 0) -> dict:
    """A sales workbook of 6-9 rows (or `n`) and the notes around it."""
    n = n or int(rng.integers(6, 10))
    return {"path": f"Documents/{split_doc_name(rng, 'sales')}.gnumeric", "rows": [SALES_HEADER] + split_rows(rng, n),
            "others": distractors(rng)}


def _col_sum(rows: list[list], col: int) -> float:
    return round(sum(r[col] for r in rows[1:]), 6)


def _closed(sb, title_part: str, timeout: float = 2.0) -> bool:
    """Wait until no window's title contains `title_part` (a dialog closed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(title_part in w["title"] for w in sb.windows()):
            return True
        time.sleep(0.05)
    return False


class _ColumnTask(SheetTask):
    """A sales workbook and one of its number columns (`params["col"]`: C Units or D Price)."""

    def sample(self, rng):
        p = _sheet_params(rng)
        p["col"] = pick(rng, ["C", "D"])
        return p

    @staticmethod
    def column(params) -> tuple[int, str]:
        """The asked column's index and header."""
        col = "CD".index(params["col"]) + 2
        return col, params["rows"][0][col]


@register_task(id="computer.sheet-sum-column-v1")
class SheetSumColumn(_ColumnTask):
    """Put the total of a column into a given cell of a workbook, as a formula, and save.

    Gnumeric is open on Documents/sales-*.gnumeric (Item, Region, Units, Price).
    The checker reads the saved file: the cell holds a formula whose result is
    the column's sum, every other cell is as before, other files are intact.
    """

    def sample(self, rng):
        p = super().sample(rng)
        p["cell"] = f"{p['col']}{len(p['rows']) + 2}"
        return p

    def instruction(self, params):
        return (f"In the spreadsheet {params['path']} (open in Gnumeric), put the total of the "
                f"{self.column(params)[1]} column in cell {params['cell']} using a formula, then save the file.")

    def expected(self, params):
        return {**table(params["rows"]), params["cell"]: _col_sum(params["rows"], self.column(params)[0])}, \
            {params["cell"]: ""}

    def entries(self, params):
        return [(params["cell"], f"=SUM({params['col']}2:{params['col']}{len(params['rows'])})\n")]

    def reads(self, params):
        return {params["cell"]: f"{params['col']}2:{params['col']}{len(params['rows'])}"}


@register_task(id="computer.sheet-average-row-v1")
class SheetAverageRow(_ColumnTask):
    """Add a labelled average below a column: the label "Average" in column A and a formula with the average.

    The checker reads the saved file: the label, the formula's result (mean of the
    column), nothing else changed.
    """

    def sample(self, rng):
        p = super().sample(rng)
        p["row"] = len(p["rows"]) + 2
        return p

    def instruction(self, params):
        return (f"In {params['path']} (open in Gnumeric), write the label Average in cell A{params['row']} and, in "
                f"cell {params['col']}{params['row']}, a formula giving the average of the {self.column(params)[1]} "
                "column. Save the file.")

    def expected(self, params):
        rows, cell = params["rows"], f"{params['col']}{params['row']}"
        mean = _col_sum(rows, self.column(params)[0]) / (len(rows) - 1)
        return {**table(rows), f"A{params['row']}": "Average", cell: mean}, {cell: ""}

    def entries(self, params):
        col, n = params["col"], len(params["rows"])
        return [(f"A{params['row']}", "Average\n"), (f"{col}{params['row']}", f"=AVERAGE({col}2:{col}{n})\n")]

    def reads(self, params):
        col = params["col"]
        return {f"{col}{params['row']}": f"{col}2:{col}{len(params['rows'])}"}


@register_task(id="computer.sheet-summary-row-v1")
class SheetSummaryRow(SheetTask):
    """Add a Total row right below the table: "Total" in column A and sum formulas under Units and Price.

    The checker reads the saved file: the row's label and both formulas' results.
    """

    def sample(self, rng):
        return _sheet_params(rng)

    def instruction(self, params):
        return (f"In {params['path']} (open in Gnumeric), add a summary row directly below the last row of the "
                "table: the word Total in column A, and formulas giving the sums of the Units and Price columns "
                "in columns C and D. Save the file.")

    def expected(self, params):
        rows, r = params["rows"], len(params["rows"]) + 1
        return ({**table(rows), f"A{r}": "Total", f"C{r}": _col_sum(rows, 2), f"D{r}": _col_sum(rows, 3)},
                {f"C{r}": "", f"D{r}": ""})

    def entries(self, params):
        n = len(params["rows"])
        return [(f"A{n + 1}", f"Total\t\t=SUM(C2:C{n})\t=SUM(D2:D{n})\n")]

    def reads(self, params):
        n = len(params["rows"])
        return {f"C{n + 1}": f"C2:C{n}", f"D{n + 1}": f"D2:D{n}"}


@register_task(id="computer.sheet-computed-column-v1")
class SheetComputedColumn(SheetTask):
    """Add a column E "Revenue" = Units × Price for every row, as formulas.

    The checker reads the saved file: the header, and in every data row a formula
    whose result is the product (±0.005).
    """

    def sample(self, rng):
        return _sheet_params(rng, int(rng.integers(5, 8)))

    def instruction(self, params):
        return (f"In {params['path']} (open in Gnumeric), add a column E with the header Revenue in E1 and, in "
                "each row of the table, a formula giving Units times Price for that row. Save the file.")

    def expected(self, params):
        rows = params["rows"]
        want = {**table(rows), "E1": "Revenue"}
        want.update({f"E{i + 1}": round(rows[i][2] * rows[i][3], 6) for i in range(1, len(rows))})
        return want, {f"E{i + 1}": "" for i in range(1, len(rows))}

    def entries(self, params):
        return [("E1", "Revenue\n" + "".join(f"=C{i}*D{i}\n" for i in range(2, len(params["rows"]) + 1)))]

    def reads(self, params):
        return {f"E{i}": f"C{i},D{i}" for i in range(2, len(params["rows"]) + 1)}


@register_task(id="computer.sheet-count-if-v1")
class SheetCountIf(SheetTask):
    """Count with a formula how many rows have a given region, into a given cell.

    The checker reads the saved file: the cell holds a formula whose result is the count.
    """

    def sample(self, rng):
        p = _sheet_params(rng, int(rng.integers(8, 12)))
        p["region"] = p["rows"][1 + int(rng.integers(len(p["rows"]) - 1))][1]
        p["cell"] = f"G{int(rng.integers(2, 6))}"
        return p

    def instruction(self, params):
        return (f"In {params['path']} (open in Gnumeric), put in cell {params['cell']} a formula that counts the "
                f"rows whose Region is {params['region']}. Save the file.")

    def expected(self, params):
        count = sum(1 for r in params["rows"][1:] if r[1] == params["region"])
        return {**table(params["rows"]), params["cell"]: float(count)}, {params["cell"]: ""}

    def entries(self, params):
        return [(params["cell"], f'=COUNTIF(B2:B{len(params["rows"])},"{params["region"]}")\n')]

    def reads(self, params):
        return {params["cell"]: f"B2:B{len(params['rows'])}"}


@register_task(id="computer.sheet-fix-values-v1")
class SheetFixValues(SheetTask):
    """Correct three mistyped Units values, given by item name, in a workbook.

    The checker reads the saved file: the three cells hold the right numbers, every
    other cell is unchanged.
    """

    def sample(self, rng):
        p = _sheet_params(rng, int(rng.integers(8, 12)))
        picks = sorted(pick(rng, range(1, len(p["rows"])), 3))
        p["fixes"] = [[p["rows"][i][0], p["rows"][i][2] + int(rng.integers(100, 400))] for i in picks]
        return p

    def instruction(self, params):
        fixes = "; ".join(f"{item} should be {units}" for item, units in params["fixes"])
        return (f"Three Units values in {params['path']} (open in Gnumeric) were typed wrong: {fixes}. "
                "Correct them and save the file.")

    def expected(self, params):
        fix = dict(params["fixes"])
        rows = [list(r) for r in params["rows"]]
        for r in rows[1:]:
            r[2] = fix.get(r[0], r[2])
        return table(rows), {}

    def entries(self, params):
        items = [r[0] for r in params["rows"]]
        return [(f"C{items.index(item) + 1}", f"{units}\n") for item, units in params["fixes"]]


@register_task(id="computer.sheet-sort-by-column-v1", max_steps=25)
class SheetSortByColumn(SheetTask):
    """Sort the table's rows by one column (ascending or descending), keeping rows together and the header on top.

    The checker reads the saved file: the rows in the asked order, the same cells otherwise.
    """

    def sample(self, rng):
        p = _sheet_params(rng)
        p["col"] = pick(rng, ["Units", "Item"])
        p["descending"] = bool(rng.integers(2))
        return p

    def instruction(self, params):
        order = "largest first" if params["descending"] and params["col"] == "Units" else \
            "Z to A" if params["descending"] else "smallest first" if params["col"] == "Units" else "A to Z"
        return (f"Sort the table in {params['path']} (open in Gnumeric) by the {params['col']} column, "
                f"{order}. Keep each row together and the header row on top. Save the file.")

    def expected(self, params):
        c = SALES_HEADER.index(params["col"])
        rows = params["rows"]
        return table([rows[0]] + sorted(rows[1:], key=lambda r: r[c], reverse=params["descending"])), {}

    def oracle(self, sb, params):
        n = len(params["rows"])
        yield from goto_cell(sb, f"A1:D{n}")
        yield act.keys("alt", "d")                    # the Data menu
        yield act.typed("s")                          # Sort...
        sb.wait_ready(title="Sort")
        dx, dy, _, _ = window(sb, "Sort")
        # the dialog lists every column as a key, in order: move the wanted one to the top
        col = SALES_HEADER.index(params["col"])
        if col:
            yield act.click(dx + 40, dy + 257 + 30 * col)  # its row in the key list
            for _ in range(col):
                yield act.click(dx + 369, dy + 234)   # Up
        if params["descending"]:
            yield act.click(dx + 209, dy + 257)       # the first key's direction toggle
        yield act.click(dx + 363, dy + 480)           # OK
        # openbox gives the focus back to the workbook after a dialog, but not always: else the panel does
        yield from switch_to(sb, "Gnumeric", grace=1.0)
        yield from save(sb, params["path"])
        yield act.finish()


@register_task(id="computer.sheet-column-chart-v1")
class SheetColumnChart(SheetTask):
    """Insert a column chart of a monthly series into the workbook and save it.

    Gnumeric shows Documents/<name>.gnumeric with Month and one value column. The
    checker reads the saved file's XML: a bar/column plot (GogBarColPlot) whose
    series reads the value column's cells, and the table's cells unchanged.
    """

    def sample(self, rng):
        n = int(rng.integers(5, 10))
        start = int(rng.integers(0, 12 - n + 1))
        measure = pick(rng, _MEASURES)
        rows = [["Month", measure]] + [[MONTHS[start + i][:3], int(rng.integers(20, 500))] for i in range(n)]
        return {"path": f"Documents/{split_doc_name(rng, measure.lower())}.gnumeric", "rows": rows, "measure": measure,
                "others": distractors(rng)}

    def instruction(self, params):
        return (f"In {params['path']} (open in Gnumeric), insert a column chart of the {params['measure']} per "
                "month, on the same sheet, and save the file.")

    def read_state(self, sb, params):
        path = sb.workspace.root / params["path"]
        return {**super().read_state(sb, params), "raw": path.read_bytes() if path.is_file() else None}

    def expected(self, params):
        return table(params["rows"]), {}

    def check(self, state, params, outcome, baseline):
        return all_of(sheet_has_chart(state["raw"], plot="GogBarColPlot", series=f"B2:B{len(params['rows'])}",
                                      where=params["path"]),
                      super().check(state, params, outcome, baseline))

    def oracle(self, sb, params):
        yield from goto_cell(sb, f"A1:B{len(params['rows'])}")
        yield act.keys("alt", "i")                    # Insert, its first entry highlighted once it is open
        screen_shows(sb, selected, (250, 59))
        for _ in range(4):                            # Cells, Columns, Rows, Sheet, Chart...
            yield act.keys("down")
        yield act.keys("enter")
        sb.wait_ready(title="Select Chart Type")
        x, y, w, h = window(sb, "Select Chart Type")
        for _ in range(3):
            yield act.click(x + 66, y + 141)          # Column
            if screen_shows(sb, selected, (x + 300, y + 141)):
                break
        for _ in range(3):
            yield act.click(x + w - 51, y + h - 26)   # Insert
            if _closed(sb, "Select Chart Type"):
                break
        yield act.drag(500, 300, 900, 600)            # where the chart goes
        yield from switch_to(sb, "Gnumeric", grace=1.0)   # the keyboard focus back on the sheet
        yield from save(sb, params["path"])
        yield act.finish()


@register_task(id="computer.sheet-csv-to-xlsx-v1", max_steps=15)
class SheetCsvToXlsx(SheetTask):
    """Convert a CSV file into an Excel workbook (.xlsx) with the same data, next to it.

    Gnumeric is open on Documents/<name>.csv. The checker reads the new .xlsx
    with a zip/XML parser (same cells, numbers as numbers) and confirms the CSV
    and other files are intact.
    """

    book = "xlsx"

    def sample(self, rng):
        rows = [SALES_HEADER] + split_rows(rng, int(rng.integers(5, 9)))
        stem = f"Documents/{split_doc_name(rng, 'report')}"
        return {"csv": stem + ".csv", "xlsx": stem + ".xlsx", "rows": rows, "others": distractors(rng)}

    def instruction(self, params):
        return (f"Convert {params['csv']} (open in Gnumeric) into an Excel workbook saved as {params['xlsx']}, "
                "with the same data.")

    def setup(self, sb, params):
        place(sb, {params["csv"]: write_csv(params["rows"]), **params["others"]})
        sb.open_app("spreadsheet", params["csv"], title=Path(params["csv"]).name)

    def expected(self, params):
        return table(params["rows"]), {}

    def oracle(self, sb, params):
        yield from save_workbook_as(sb, params["xlsx"], xlsx=True)
        yield act.finish()
