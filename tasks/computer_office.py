"""Computer suite, office work: spreadsheet tasks in Gnumeric, tasks that need two or more desktop apps
together, and hybrid tasks where the terminal does part of the work; checked on the files they leave.

Spreadsheets are read back with the parsers in `hybridgym.reward.sheets` (Gnumeric's
gzip XML, .xlsx, CSV); formula results of a saved `.gnumeric` file come from
recalculating it with `ssconvert` (it ships with Gnumeric). Files a task offers
for download, and its web pages, are served per episode by the env's local web
server (`sb.server.route`), next to the static pages in `assets/desktop/web/`.
See docs/computer-office-tasks.md.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of, file_text_equals, files_unchanged, records_contain
from hybridgym.reward.sheets import (SheetFormatError, Workbook, read_csv, read_spreadsheet, sheet_equals, table,
                                     with_values, write_csv, write_gnumeric)

from .base import Task, register_task
from .computer import APP_STATE_PREFIXES

# -- data ------------------------------------------------------------------------
_ITEMS = ["anchor", "beacon", "candle", "dynamo", "easel", "funnel", "gasket", "hinge", "ingot", "jigsaw",
          "kettle", "ladle", "magnet", "nozzle", "oar", "pulley", "quill", "ratchet", "sprocket", "trowel",
          "valve", "whisk", "yarn", "zipper"]
_REGIONS = ["North", "South", "East", "West"]
_NAMES = ["Ada", "Bruno", "Chen", "Dalia", "Emeka", "Freya", "Goran", "Hana", "Ivo", "Jun", "Kira", "Luis",
          "Mona", "Nils", "Omar", "Priya"]
_WORDS = ["amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
          "kelp", "lumen", "meadow", "nectar", "onyx", "pepper", "quartz", "raven", "sierra", "tundra"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]
_SALES_HEADER = ["Item", "Region", "Units", "Price"]


def _money(rng: np.random.Generator, lo: float, hi: float) -> float:
    return round(float(rng.uniform(lo, hi)), 2)


def _sales_rows(rng: np.random.Generator, n: int) -> list[list]:
    """Rows of a small sales table: distinct items, a region, units (distinct), a price."""
    items = rng.choice(_ITEMS, size=n, replace=False)
    units = rng.choice(np.arange(2, 90), size=n, replace=False)
    return [[str(items[i]), str(rng.choice(_REGIONS)), int(units[i]), _money(rng, 1, 60)] for i in range(n)]


def _doc_name(rng: np.random.Generator, stem: str) -> str:
    return f"{stem}-{rng.choice(_WORDS)}-{int(rng.integers(10, 100))}"


def _distractors(rng: np.random.Generator) -> dict[str, str]:
    return {f"Documents/{w}-notes.txt": f"{w}\nnothing to do here\n"
            for w in rng.choice(_WORDS, size=2, replace=False)}


# -- setup and reading ----------------------------------------------------------
def _place(sb, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = sb.workspace.resolve(rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())


def _book_bytes(rows: list[list], sheet: str = "Sheet1") -> bytes:
    return write_gnumeric({sheet: rows})


def read_book(path: Path) -> Workbook | None:
    """A saved spreadsheet as a Workbook, formula results filled by recalculating it with ssconvert;
    None if the file is missing or not a spreadsheet of its extension's type."""
    if not path.is_file():
        return None
    try:
        book = read_spreadsheet(path.name, path.read_bytes())
    except (SheetFormatError, ValueError, KeyError, OSError):
        return None
    if any(c.formula and c.value is None for cells in book.sheets.values() for c in cells.values()):
        with tempfile.TemporaryDirectory(prefix="hybridgym-sheet-") as tmp:
            out = Path(tmp)
            subprocess.run(["ssconvert", "-S", "--export-type=Gnumeric_stf:stf_csv", str(path),
                            str(out / "s%n.csv")], capture_output=True, timeout=30)
            computed = {}
            for i, name in enumerate(book.sheets):
                f = out / f"s{i}.csv"
                if f.is_file():
                    computed[name] = read_csv(f.read_bytes())
        book = with_values(book, computed)
    return book


def _files_intact(state: dict, baseline: dict, *changed: str) -> CheckResult:
    return files_unchanged(baseline["files"], state["files"], ignore=changed, ignore_prefixes=APP_STATE_PREFIXES)


# -- oracle building blocks (GUI actions, positions from the live windows) ---------------
def _click(x: int, y: int) -> dict:
    return {"action_type": "click", "x": int(x), "y": int(y)}


def _key(*keys: str) -> dict:
    return {"action_type": "hotkey", "keys": list(keys)}


def _type(text: str) -> dict:
    return {"action_type": "type", "text": text}


def _hover(x: int, y: int) -> dict:
    return {"action_type": "hover", "x": int(x), "y": int(y)}


def _menu_pick(x: int, y: int) -> Iterator[dict]:
    """Pick an item of an open GTK menu or list: point at it first (GTK ignores a click on an item the pointer
    has not entered yet)."""
    yield _hover(x, y)
    yield _click(x, y)


def _wait(seconds: float = 0.2) -> dict:
    return {"action_type": "wait", "seconds": seconds}


def _window(sb, title_part: str) -> tuple[int, int, int, int]:
    """Client geometry of the mapped window whose title contains `title_part`."""
    for w in sb.windows():
        if title_part in w["title"] and w["geometry"]:
            return w["geometry"]
    raise RuntimeError(f"no window titled like {title_part!r}; have {[w['title'] for w in sb.windows()]}")


#: tint2 task list: the first entry's centre and the distance between entries (see assets/desktop/tint2rc)
_TASK_X0, _TASK_DX, _TASK_Y = 332, 224, 784


def _switch_to(index: int) -> dict:
    """Click the panel's task-list entry of the index-th window opened (setup opens apps in a known order)."""
    return _click(_TASK_X0 + index * _TASK_DX, _TASK_Y)


def _goto(sb, ref: str) -> Iterator[dict]:
    """Select a cell or range in Gnumeric through its name box."""
    x, y, _, _ = _window(sb, "Gnumeric")
    yield _click(x + 60, y + 151)
    yield _key("ctrl", "a")
    yield _type(f"{ref}\n")


def _mtime(sb, rel: str) -> float:
    p = sb.workspace.root / rel
    return p.stat().st_mtime_ns if p.exists() else -1


def _await_file(sb, rel: str, before: float, tries: int = 12) -> Iterator[dict]:
    """Wait (as a person watching the title bar) until the file at `rel` is written."""
    for _ in range(tries):
        if _mtime(sb, rel) != before:
            break
        yield _wait(0.25)


def _save(sb, rel: str) -> Iterator[dict]:
    before = _mtime(sb, rel)
    yield _key("ctrl", "s")
    yield from _await_file(sb, rel, before)


def _save_as(sb, rel: str, xlsx: bool = False) -> Iterator[dict]:
    """Gnumeric's Save As: the full path in the name field, the file type for .xlsx."""
    before = _mtime(sb, rel)
    yield _key("ctrl", "shift", "s")
    sb.wait_ready(title="Save the current workbook")
    yield _key("ctrl", "a")
    yield _type(str(sb.workspace.root / rel))
    if xlsx:
        x, y, w, h = _window(sb, "Save the current workbook")
        yield _click(x + 336, y + h - 70)              # the file type list, opened on the current type
        # its first entry, ECMA 376 (MS Excel 2007, .xlsx), is one row above "Gnumeric XML"
        yield from _menu_pick(x + 336, y + h - 70 - 29)
        yield _click(x + w - 50, y + h - 24)          # Save
    else:
        yield _key("enter")
    yield from _await_file(sb, rel, before)


def _open_in_gnumeric(sb, rel: str) -> Iterator[dict]:
    yield _key("ctrl", "o")
    sb.wait_ready(title="Open Spreadsheet File")
    yield _type(str(sb.workspace.root / rel) + "\n")
    sb.wait_ready("gnumeric", Path(rel).name)


def _gedit_save_as(sb, rel: str) -> Iterator[dict]:
    """Mousepad: save a new document under a full path."""
    yield _key("ctrl", "s")
    sb.wait_ready(title="Save As")
    yield _wait(0.2)
    yield _type(str(sb.workspace.root / rel))
    yield _wait(0.6)   # GTK enables the Save button a moment after the name changes
    yield _key("enter")
    yield from _await_file(sb, rel, -1)


def _finish() -> dict:
    return {"action_type": "finished", "content": ""}


# -- a base for tasks on one open workbook -----------------------------------------------
class _SheetTask(Task):
    """One workbook (`params["path"]`, rows `params["rows"]`) open in Gnumeric; the agent changes it and saves.

    Subclasses say what the saved sheet must hold (`expected`) and which cells must be formulas.
    """

    suite = "computer"
    max_steps = 20

    def setup(self, sb, params: dict) -> None:
        _place(sb, {params["path"]: _book_bytes(params["rows"]), **params["others"]})
        sb.open_app("spreadsheet", params["path"], title=Path(params["path"]).name)

    def read_state(self, sb, params: dict) -> dict:
        return {"files": sb.workspace.snapshot(), "book": read_book(sb.workspace.root / params["path"])}

    def expected(self, params: dict) -> tuple[dict, dict]:
        raise NotImplementedError

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        want, formulas = self.expected(params)
        return all_of(sheet_equals(state["book"], want, formulas=formulas, where=params["path"]),
                      _files_intact(state, baseline, params["path"]))


def _sheet_params(rng: np.random.Generator, n: int = 0) -> dict:
    n = n or int(rng.integers(6, 10))
    return {"path": f"Documents/{_doc_name(rng, 'sales')}.gnumeric", "rows": [_SALES_HEADER] + _sales_rows(rng, n),
            "others": _distractors(rng)}


def _col_sum(rows: list[list], col: int) -> float:
    return round(sum(r[col] for r in rows[1:]), 6)


# ================================ spreadsheet ================================
@register_task
class SheetSumColumn(_SheetTask):
    """Put the total of a column into a given cell of a workbook, as a formula, and save.

    Gnumeric is open on Documents/sales-*.gnumeric (Item, Region, Units, Price).
    The checker reads the saved file: the cell holds a formula whose result is
    the column's sum, every other cell is as before, other files are intact.
    """

    id = "computer.sheet-sum-column-v0"

    def sample(self, rng):
        p = _sheet_params(rng)
        p["col"] = str(rng.choice(["C", "D"]))
        p["cell"] = f"{p['col']}{len(p['rows']) + 2}"
        return p

    def instruction(self, params):
        name = params["rows"][0]["CD".index(params["col"]) + 2]
        return (f"In the spreadsheet {params['path']} (open in Gnumeric), put the total of the {name} column "
                f"in cell {params['cell']} using a formula, then save the file.")

    def expected(self, params):
        col = "CD".index(params["col"]) + 2
        return {**table(params["rows"]), params["cell"]: _col_sum(params["rows"], col)}, {params["cell"]: ""}

    def oracle(self, sb, params):
        n = len(params["rows"])
        yield from _goto(sb, params["cell"])
        yield _type(f"=SUM({params['col']}2:{params['col']}{n})\n")
        yield from _save(sb, params["path"])
        yield _finish()


@register_task
class SheetAverageRow(_SheetTask):
    """Add a labelled average below a column: the label "Average" in column A and a formula with the average.

    The checker reads the saved file: the label, the formula's result (mean of the
    column), nothing else changed.
    """

    id = "computer.sheet-average-row-v0"

    def sample(self, rng):
        p = _sheet_params(rng)
        p["col"] = str(rng.choice(["C", "D"]))
        p["row"] = len(p["rows"]) + 2
        return p

    def instruction(self, params):
        name = params["rows"][0]["CD".index(params["col"]) + 2]
        return (f"In {params['path']} (open in Gnumeric), write the label Average in cell A{params['row']} and, in "
                f"cell {params['col']}{params['row']}, a formula giving the average of the {name} column. Save the file.")

    def expected(self, params):
        col = "CD".index(params["col"]) + 2
        rows = params["rows"]
        cell = f"{params['col']}{params['row']}"
        return ({**table(rows), f"A{params['row']}": "Average", cell: _col_sum(rows, col) / (len(rows) - 1)},
                {cell: ""})

    def oracle(self, sb, params):
        n = len(params["rows"])
        yield from _goto(sb, f"A{params['row']}")
        yield _type("Average\n")
        yield from _goto(sb, f"{params['col']}{params['row']}")
        yield _type(f"=AVERAGE({params['col']}2:{params['col']}{n})\n")
        yield from _save(sb, params["path"])
        yield _finish()


@register_task
class SheetSummaryRow(_SheetTask):
    """Add a Total row right below the table: "Total" in column A and sum formulas under Units and Price.

    The checker reads the saved file: the row's label and both formulas' results.
    """

    id = "computer.sheet-summary-row-v0"

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

    def oracle(self, sb, params):
        n = len(params["rows"])
        yield from _goto(sb, f"A{n + 1}")
        yield _type(f"Total\t\t=SUM(C2:C{n})\t=SUM(D2:D{n})\n")
        yield from _save(sb, params["path"])
        yield _finish()


@register_task
class SheetComputedColumn(_SheetTask):
    """Add a column E "Revenue" = Units × Price for every row, as formulas.

    The checker reads the saved file: the header, and in every data row a formula
    whose result is the product (±0.005).
    """

    id = "computer.sheet-computed-column-v0"

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

    def oracle(self, sb, params):
        n = len(params["rows"])
        yield from _goto(sb, "E1")
        yield _type("Revenue\n" + "".join(f"=C{i}*D{i}\n" for i in range(2, n + 1)))
        yield from _save(sb, params["path"])
        yield _finish()


@register_task
class SheetCountIf(_SheetTask):
    """Count with a formula how many rows have a given region, into a given cell.

    The checker reads the saved file: the cell holds a formula whose result is the count.
    """

    id = "computer.sheet-count-if-v0"

    def sample(self, rng):
        p = _sheet_params(rng, int(rng.integers(8, 12)))
        p["region"] = str(p["rows"][1 + int(rng.integers(len(p["rows"]) - 1))][1])
        p["cell"] = f"G{int(rng.integers(2, 6))}"
        return p

    def instruction(self, params):
        return (f"In {params['path']} (open in Gnumeric), put in cell {params['cell']} a formula that counts the "
                f"rows whose Region is {params['region']}. Save the file.")

    def expected(self, params):
        count = sum(1 for r in params["rows"][1:] if r[1] == params["region"])
        return {**table(params["rows"]), params["cell"]: float(count)}, {params["cell"]: ""}

    def oracle(self, sb, params):
        n = len(params["rows"])
        yield from _goto(sb, params["cell"])
        yield _type(f'=COUNTIF(B2:B{n},"{params["region"]}")\n')
        yield from _save(sb, params["path"])
        yield _finish()


@register_task
class SheetFixValues(_SheetTask):
    """Correct three mistyped Units values, given by item name, in a workbook.

    The checker reads the saved file: the three cells hold the right numbers, every
    other cell is unchanged.
    """

    id = "computer.sheet-fix-values-v0"

    def sample(self, rng):
        p = _sheet_params(rng, int(rng.integers(8, 12)))
        picks = sorted(int(i) for i in rng.choice(np.arange(1, len(p["rows"])), size=3, replace=False))
        p["fixes"] = [[p["rows"][i][0], int(p["rows"][i][2]) + int(rng.integers(100, 400))] for i in picks]
        return p

    def instruction(self, params):
        fixes = "; ".join(f"{item} should be {units}" for item, units in params["fixes"])
        return (f"Three Units values in {params['path']} (open in Gnumeric) were typed wrong: {fixes}. "
                "Correct them and save the file.")

    def _fixed(self, params):
        rows = [list(r) for r in params["rows"]]
        fix = dict((item, units) for item, units in params["fixes"])
        for r in rows[1:]:
            if r[0] in fix:
                r[2] = fix[r[0]]
        return rows

    def expected(self, params):
        return table(self._fixed(params)), {}

    def oracle(self, sb, params):
        items = [r[0] for r in params["rows"]]
        for item, units in params["fixes"]:
            yield from _goto(sb, f"C{items.index(item) + 1}")
            yield _type(f"{units}\n")
        yield from _save(sb, params["path"])
        yield _finish()


@register_task
class SheetSortByColumn(_SheetTask):
    """Sort the table's rows by one column (ascending or descending), keeping rows together and the header on top.

    The checker reads the saved file: the rows in the asked order, the same cells otherwise.
    """

    id = "computer.sheet-sort-by-column-v0"
    max_steps = 25

    def sample(self, rng):
        p = _sheet_params(rng)
        p["col"] = str(rng.choice(["Units", "Item"]))
        p["descending"] = bool(rng.integers(2))
        return p

    def instruction(self, params):
        order = "largest first" if params["descending"] and params["col"] == "Units" else \
            "Z to A" if params["descending"] else "smallest first" if params["col"] == "Units" else "A to Z"
        return (f"Sort the table in {params['path']} (open in Gnumeric) by the {params['col']} column, "
                f"{order}. Keep each row together and the header row on top. Save the file.")

    def expected(self, params):
        c = _SALES_HEADER.index(params["col"])
        rows = params["rows"]
        return table([rows[0]] + sorted(rows[1:], key=lambda r: r[c], reverse=params["descending"])), {}

    def oracle(self, sb, params):
        n = len(params["rows"])
        yield from _goto(sb, f"A1:D{n}")
        yield _key("alt", "d")                        # the Data menu
        yield _type("s")                              # Sort...
        sb.wait_ready(title="Sort")
        dx, dy, _, _ = _window(sb, "Sort")
        # the dialog lists every column as a key, in order: move the wanted one to the top
        col = _SALES_HEADER.index(params["col"])
        if col:
            yield _click(dx + 40, dy + 257 + 30 * col)  # its row in the key list
            for _ in range(col):
                yield _click(dx + 369, dy + 234)       # Up
        if params["descending"]:
            yield _click(dx + 209, dy + 257)          # the first key's direction toggle
        yield _click(dx + 363, dy + 480)              # OK
        yield _click(sb.width // 2, 10)               # focus the workbook window again (its title bar)
        yield from _save(sb, params["path"])
        yield _finish()


@register_task
class SheetCsvToXlsx(Task):
    """Convert a CSV file into an Excel workbook (.xlsx) with the same data, next to it.

    Gnumeric is open on Documents/<name>.csv. The checker reads the new .xlsx
    with a zip/XML parser (same cells, numbers as numbers) and confirms the CSV
    and other files are intact.
    """

    id = "computer.sheet-csv-to-xlsx-v0"
    suite = "computer"
    max_steps = 15

    def sample(self, rng):
        rows = [_SALES_HEADER] + _sales_rows(rng, int(rng.integers(5, 9)))
        stem = f"Documents/{_doc_name(rng, 'report')}"
        return {"csv": stem + ".csv", "xlsx": stem + ".xlsx", "rows": rows, "others": _distractors(rng)}

    def instruction(self, params):
        return (f"Convert {params['csv']} (open in Gnumeric) into an Excel workbook saved as {params['xlsx']}, "
                "with the same data.")

    def setup(self, sb, params):
        _place(sb, {params["csv"]: write_csv(params["rows"]), **params["others"]})
        sb.open_app("spreadsheet", params["csv"], title=Path(params["csv"]).name)

    def read_state(self, sb, params):
        return {"files": sb.workspace.snapshot(), "book": read_book(sb.workspace.root / params["xlsx"])}

    def check(self, state, params, answer, baseline):
        return all_of(sheet_equals(state["book"], table(params["rows"]), where=params["xlsx"]),
                      _files_intact(state, baseline))

    def oracle(self, sb, params):
        yield from _save_as(sb, params["xlsx"], xlsx=True)
        yield _finish()


# ================================ multi-app ================================
def _page(title: str, body: str) -> str:
    """A page of the desktop's web server (office.css: fixed layout, so positions are predictable)."""
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title>"
            f"<link rel='stylesheet' href='/office.css'></head><body>{body}</body></html>")


#: where the page's viewport starts on the screen in the desktop's Chromium window
_VIEWPORT_Y = 87
#: the big first link/button of a page (office.css `.primary`: at 40,120 CSS px, 320x56)
_PRIMARY = (200, _VIEWPORT_Y + 148)


def _serve_download(sb, route: str, filename: str, content: str, ctype: str = "text/csv") -> None:
    from hybridgym.sandbox import Response
    sb.server.route(route, lambda req: Response(200, content, ctype,
                                                {"Content-Disposition": f'attachment; filename="{filename}"'}))


def _serve_page(sb, route: str, title: str, body: str) -> None:
    from hybridgym.sandbox import Response
    sb.server.route(route, lambda req: Response(200, _page(title, body), "text/html; charset=utf-8"))


@register_task
class WebDownloadTotal(Task):
    """Multi-app: download a CSV report in the browser, add its total in the spreadsheet, save as a workbook.

    Chromium shows a page of the env's web server with a download link; Gnumeric
    is open on an empty workbook. The checker reads Documents/<out>.gnumeric: the
    report's cells, and a formula cell with the Amount total.
    """

    id = "computer.web-download-total-v0"
    suite = "computer"
    max_steps = 25

    def sample(self, rng):
        n = int(rng.integers(5, 9))
        names = rng.choice(_NAMES, size=n, replace=False)
        rows = [["Rep", "Region", "Amount"]] + [[str(names[i]), str(rng.choice(_REGIONS)), _money(rng, 100, 900)]
                                               for i in range(n)]
        month = str(rng.choice(_MONTHS))
        return {"rows": rows, "month": month, "file": f"sales-{month.lower()}.csv",
                "out": f"Documents/{_doc_name(rng, month.lower())}.gnumeric", "cell": f"C{n + 3}",
                "others": _distractors(rng)}

    def instruction(self, params):
        return (f"Download the {params['month']} sales report (CSV) from the page open in the web browser, open it "
                f"in the spreadsheet, put the total of the Amount column in cell {params['cell']} with a formula, "
                f"and save it as a Gnumeric workbook {params['out']}.")

    def setup(self, sb, params):
        _place(sb, params["others"])
        (sb.workspace.root / "Documents").mkdir(exist_ok=True)
        _serve_download(sb, f"/reports/{params['file']}", params["file"], write_csv(params["rows"]))
        _serve_page(sb, "/reports", "Sales reports",
                    f"<h1>Sales reports</h1><a class='primary' href='/reports/{params['file']}'>"
                    f"{params['month']} report (CSV)</a>")
        sb.open_app("spreadsheet")
        sb.open_app("browser", sb.server.url("/reports"), title="Sales reports")

    def read_state(self, sb, params):
        return {"files": sb.workspace.snapshot(), "book": read_book(sb.workspace.root / params["out"])}

    def check(self, state, params, answer, baseline):
        n = len(params["rows"])
        total = round(sum(r[2] for r in params["rows"][1:]), 6)
        return all_of(sheet_equals(state["book"], {**table(params["rows"]), params["cell"]: total},
                                   formulas={params["cell"]: ""}, where=params["out"]),
                      _files_intact(state, baseline))

    def oracle(self, sb, params):
        dl = f"Downloads/{params['file']}"
        yield _click(*_PRIMARY)
        yield from _await_file(sb, dl, -1)
        yield _switch_to(0)
        yield from _open_in_gnumeric(sb, dl)
        n = len(params["rows"])
        yield from _goto(sb, params["cell"])
        yield _type(f"=SUM(C2:C{n})\n")
        yield from _save_as(sb, params["out"])
        yield _finish()
