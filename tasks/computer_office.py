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
from hybridgym.reward.checkers import all_of, file_text_equals, files_unchanged
from hybridgym.reward.sheets import (SheetFormatError, Workbook, read_csv, read_spreadsheet, sheet_equals,
                                     sheet_has_chart, table, values_match, with_values, write_csv, write_gnumeric)

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


def _active_title(sb) -> str:
    """The title of the window that has the focus (_NET_ACTIVE_WINDOW)."""
    from Xlib import display as xdisplay
    d = xdisplay.Display(sb.display.name)
    try:
        root = d.screen().root
        prop = root.get_full_property(d.intern_atom("_NET_ACTIVE_WINDOW"), 0)
        if not prop or not prop.value[0]:
            return ""
        win = d.create_resource_object("window", int(prop.value[0]))
        name = win.get_full_property(d.intern_atom("_NET_WM_NAME"), 0)
        return name.value.decode("utf-8", "replace") if name else (win.get_wm_name() or "")
    except Exception:
        return ""
    finally:
        d.close()


def _is_active(sb, title_part: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        if title_part in _active_title(sb):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def _switch_to(sb, title_part: str, grace: float = 0.0) -> Iterator[dict]:
    """Bring up the window whose title contains `title_part` by its entry in the panel's task list (sorted by
    application, as tint2's `taskbar_sort_order = application`: by WM_CLASS), unless it has the focus within
    `grace` seconds; then wait until it has the focus (a click on the entry of the focused window would
    minimize it)."""
    if _is_active(sb, title_part, grace):
        return
    tasks = sorted((w for w in sb.windows() if w["wm_class"] and "tint2" not in w["wm_class"]),
                   key=lambda w: (w["wm_class"][-1].casefold(), w["id"]))
    index = next((i for i, w in enumerate(tasks) if title_part in w["title"]), 0)
    for _ in range(3):
        yield _click(_TASK_X0 + index * _TASK_DX, _TASK_Y)
        if _is_active(sb, title_part, 2.0):
            sb.capture.settle(quiet=0.1, max_wait=1.0)
            return


def _goto(sb, ref: str) -> Iterator[dict]:
    """Select a cell or range in Gnumeric through its name box."""
    x, y, _, _ = _window(sb, "Gnumeric")
    yield _click(x + 60, y + 151)
    yield _key("ctrl", "a")
    yield _type(f"{ref}\n")


def _screen_shows(sb, test, point: tuple[int, int], timeout: float = 1.5) -> bool:
    """Watch the screen (as a person waits for a popup) until the pixel at `point` passes `test`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test([int(v) for v in sb.capture.grab()[point[1], point[0]]]):
            return True
        time.sleep(0.05)
    return False


def _gone(sb, title_part: str, timeout: float = 2.0) -> bool:
    """Wait until no window's title contains `title_part` (a dialog closed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(title_part in w["title"] for w in sb.windows()):
            return True
        time.sleep(0.05)
    return False


def _mtime(sb, rel: str) -> float:
    p = sb.workspace.root / rel
    return p.stat().st_mtime_ns if p.exists() else -1


def _await_file(sb, rel: str, before: float, tries: int = 12) -> Iterator[dict]:
    """Wait (as a person watching the title bar) until the file at `rel` is written."""
    for i in range(tries):
        if _mtime(sb, rel) != before:
            break
        yield _wait(0.25 if i < 2 else 0.5)


def _save(sb, rel: str) -> Iterator[dict]:
    before = _mtime(sb, rel)
    yield _key("ctrl", "s")
    yield from _await_file(sb, rel, before)


def _save_as(sb, rel: str, xlsx: bool = False) -> Iterator[dict]:
    """Gnumeric's Save As: for .xlsx the file type first (choosing it resets the name), then the full path."""
    before = _mtime(sb, rel)
    yield _key("ctrl", "shift", "s")
    sb.wait_ready(title="Save the current workbook")
    x, y, w, h = _window(sb, "Save the current workbook")
    if xlsx:
        for _ in range(3):                            # the file type list; open it (again if the click was early)
            x, y, w, h = _window(sb, "Save the current workbook")
            yield _click(x + 336, y + h - 70)
            if _screen_shows(sb, lambda px: px[2] > 180 and px[0] < 120, (x + 200, y + h - 70)):
                break                                 # open: its current entry is highlighted over the button
        # its first entry, ECMA 376 (MS Excel 2007, .xlsx), is one row above "Gnumeric XML"
        yield from _menu_pick(x + 336, y + h - 70 - 29)
        yield _key("alt", "n")                        # back to the Name field
    yield _key("ctrl", "a")
    yield _type(str(sb.workspace.root / rel) + "\n")
    yield from _await_file(sb, rel, before)


def _open_in_gnumeric(sb, rel: str) -> Iterator[dict]:
    yield _key("ctrl", "o")
    sb.wait_ready(title="Open Spreadsheet File")
    yield _type(str(sb.workspace.root / rel) + "\n")
    sb.wait_ready("gnumeric", Path(rel).name)
    yield from _switch_to(sb, "Gnumeric", grace=1.0)


def _editor_save_as(sb, rel: str) -> Iterator[dict]:
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
        # openbox gives the focus back to the workbook after a dialog, but not always: else the panel does
        yield from _switch_to(sb, "Gnumeric", grace=1.0)
        yield from _save(sb, params["path"])
        yield _finish()


@register_task
class SheetColumnChart(_SheetTask):
    """Insert a column chart of a monthly series into the workbook and save it.

    Gnumeric shows Documents/<name>.gnumeric with Month and one value column. The
    checker reads the saved file's XML: a bar/column plot (GogBarColPlot) whose
    series reads the value column's cells, and the table's cells unchanged.
    """

    id = "computer.sheet-column-chart-v0"
    max_steps = 20

    def sample(self, rng):
        n = int(rng.integers(5, 10))
        start = int(rng.integers(0, 12 - n + 1))
        measure = str(rng.choice(["Visitors", "Orders", "Rainfall", "Downloads"]))
        rows = [["Month", measure]] + [[_MONTHS[start + i][:3], int(rng.integers(20, 500))] for i in range(n)]
        return {"path": f"Documents/{_doc_name(rng, measure.lower())}.gnumeric", "rows": rows, "measure": measure,
                "others": _distractors(rng)}

    def instruction(self, params):
        return (f"In {params['path']} (open in Gnumeric), insert a column chart of the {params['measure']} per "
                "month, on the same sheet, and save the file.")

    def read_state(self, sb, params):
        state = super().read_state(sb, params)
        path = sb.workspace.root / params["path"]
        state["raw"] = path.read_bytes() if path.is_file() else None
        return state

    def expected(self, params):
        return table(params["rows"]), {}

    def check(self, state, params, answer, baseline):
        return all_of(sheet_has_chart(state["raw"], plot="GogBarColPlot", series=f"B2:B{len(params['rows'])}",
                                      where=params["path"]),
                      super().check(state, params, answer, baseline))

    def oracle(self, sb, params):
        yield from _goto(sb, f"A1:B{len(params['rows'])}")
        blue = lambda px: px[2] > 180 and px[0] < 120    # noqa: E731  GTK's selection colour
        yield _key("alt", "i")                        # Insert, its first entry highlighted once it is open
        _screen_shows(sb, blue, (250, 59))
        for _ in range(4):                            # Cells, Columns, Rows, Sheet, Chart...
            yield _key("down")
        yield _key("enter")
        sb.wait_ready(title="Select Chart Type")
        x, y, w, h = _window(sb, "Select Chart Type")
        for _ in range(3):
            yield _click(x + 66, y + 141)             # Column
            if _screen_shows(sb, blue, (x + 300, y + 141)):
                break
        for _ in range(3):
            yield _click(x + w - 51, y + h - 26)      # Insert
            if _gone(sb, "Select Chart Type"):
                break
        yield {"action_type": "drag", "x1": 500, "y1": 300, "x2": 900, "y2": 600}   # where the chart goes
        yield from _switch_to(sb, "Gnumeric", grace=1.0)   # the keyboard focus back on the sheet
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


def _page_blue(px: list[int]) -> bool:
    """office.css's button colour (#2f5d9b) at a point: the page has been drawn."""
    return px[2] > 120 and px[0] < 90


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
    _page_title = "Sales reports"
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
        sb.open_apps("spreadsheet", ("browser", sb.server.url("/reports")))

    def read_state(self, sb, params):
        return {"files": sb.workspace.snapshot(), "book": read_book(sb.workspace.root / params["out"])}

    def check(self, state, params, answer, baseline):
        total = round(sum(r[2] for r in params["rows"][1:]), 6)
        return all_of(sheet_equals(state["book"], {**table(params["rows"]), params["cell"]: total},
                                   formulas={params["cell"]: ""}, where=params["out"]),
                      _files_intact(state, baseline))

    def oracle(self, sb, params):
        dl = f"Downloads/{params['file']}"
        sb.wait_ready(title=self._page_title)
        _screen_shows(sb, _page_blue, (50, _PRIMARY[1]), timeout=8.0)    # the page has drawn its link
        yield _click(*_PRIMARY)
        yield from _await_file(sb, dl, -1)
        yield from _switch_to(sb, "Gnumeric")
        yield from _open_in_gnumeric(sb, dl)
        n = len(params["rows"])
        yield from _goto(sb, params["cell"])
        yield _type(f"=SUM(C2:C{n})\n")
        yield from _save_as(sb, params["out"])
        yield _finish()


@register_task
class WebDownloadToXlsx(Task):
    """Multi-app: download a CSV price list in the browser and save it as an Excel workbook (.xlsx) with the spreadsheet.

    The checker reads Documents/<name>.xlsx with the zip/XML parser: the list's cells, numbers as numbers.
    """

    id = "computer.web-download-to-xlsx-v0"
    suite = "computer"
    _page_title = "Price lists"
    max_steps = 25

    def sample(self, rng):
        rows = [_SALES_HEADER] + _sales_rows(rng, int(rng.integers(4, 8)))
        supplier = str(rng.choice(_WORDS)).capitalize()
        return {"rows": rows, "supplier": supplier, "file": f"{supplier.lower()}-prices.csv",
                "out": f"Documents/{supplier.lower()}-prices.xlsx", "others": _distractors(rng)}

    def instruction(self, params):
        return (f"Download the {params['supplier']} price list (CSV) from the page open in the web browser and "
                f"save it, with the same data, as an Excel workbook {params['out']} using the spreadsheet.")

    def setup(self, sb, params):
        _place(sb, params["others"])
        _serve_download(sb, f"/prices/{params['file']}", params["file"], write_csv(params["rows"]))
        _serve_page(sb, "/prices", "Price lists",
                    f"<h1>Price lists</h1><a class='primary' href='/prices/{params['file']}'>"
                    f"{params['supplier']} prices (CSV)</a>")
        sb.open_apps("spreadsheet", ("browser", sb.server.url("/prices")))

    def read_state(self, sb, params):
        return {"files": sb.workspace.snapshot(), "book": read_book(sb.workspace.root / params["out"])}

    def check(self, state, params, answer, baseline):
        return all_of(sheet_equals(state["book"], table(params["rows"]), where=params["out"]),
                      _files_intact(state, baseline))

    def oracle(self, sb, params):
        dl = f"Downloads/{params['file']}"
        sb.wait_ready(title=self._page_title)
        _screen_shows(sb, _page_blue, (50, _PRIMARY[1]), timeout=8.0)    # the page has drawn its link
        yield _click(*_PRIMARY)
        yield from _await_file(sb, dl, -1)
        yield from _switch_to(sb, "Gnumeric")
        yield from _open_in_gnumeric(sb, dl)
        yield from _save_as(sb, params["out"], xlsx=True)
        yield _finish()


@register_task
class WebRateConvert(_SheetTask):
    """Multi-app: read an exchange rate on a web page and add a converted-price column in the spreadsheet.

    The browser shows "1 EUR = r USD"; Gnumeric has a workbook with Item and EUR
    columns. The checker reads the saved file: header USD in C1 and each row's
    price × r (±0.01), the rest unchanged.
    """

    id = "computer.web-rate-convert-v0"
    max_steps = 20

    def sample(self, rng):
        n = int(rng.integers(4, 8))
        items = rng.choice(_ITEMS, size=n, replace=False)
        rows = [["Item", "EUR"]] + [[str(items[i]), _money(rng, 5, 200)] for i in range(n)]
        return {"path": f"Documents/{_doc_name(rng, 'prices')}.gnumeric", "rows": rows,
                "rate": round(float(rng.uniform(1.02, 1.35)), 4), "others": _distractors(rng)}

    def instruction(self, params):
        return (f"The web browser shows today's euro to US dollar rate. In {params['path']} (in the spreadsheet), "
                "add the header USD in cell C1 and, in column C of each row, the row's EUR price converted to US "
                "dollars at that rate. Save the file.")

    def setup(self, sb, params):
        _serve_page(sb, "/rates", "Exchange rates",
                    f"<h1>Exchange rates</h1><div class='big'>1 EUR = {params['rate']} USD</div>")
        _place(sb, {params["path"]: _book_bytes(params["rows"]), **params["others"]})
        sb.open_apps(("spreadsheet", params["path"]), ("browser", sb.server.url("/rates")))

    def expected(self, params):
        rows = params["rows"]
        want = {**table(rows), "C1": "USD"}
        want.update({f"C{i + 1}": rows[i][1] * params["rate"] for i in range(1, len(rows))})
        return want, {}

    def check(self, state, params, answer, baseline):
        want, _ = self.expected(params)
        return all_of(sheet_equals(state["book"], want, tol=0.01, where=params["path"]),
                      _files_intact(state, baseline, params["path"]))

    def oracle(self, sb, params):
        n = len(params["rows"])
        yield from _switch_to(sb, "Gnumeric")
        yield from _goto(sb, "C1")
        yield _type("USD\n" + "".join(f"=B{i}*{params['rate']}\n" for i in range(2, n + 1)))
        yield from _save(sb, params["path"])
        yield _finish()


#: the expense form page (assets/desktop/web/expense-form.html), in screen pixels
_FORM_MONTH, _FORM_TOTAL, _FORM_SUBMIT = (190, _VIEWPORT_Y + 168), (190, _VIEWPORT_Y + 254), (190, _VIEWPORT_Y + 314)


@register_task
class SheetToWebForm(Task):
    """Multi-app: total a month's expenses in the spreadsheet and submit the total through a web form.

    Gnumeric shows Documents/expenses-*.gnumeric (Date, Month, Description, Amount;
    two months mixed); the browser shows the expense-report form of the env's
    web server. The checker reads the server's records: exactly one report,
    for the asked month, with the right total (±0.01).
    """

    id = "computer.sheet-to-web-form-v0"
    suite = "computer"
    max_steps = 15

    def sample(self, rng):
        m = int(rng.integers(0, 11))
        months = _MONTHS[m:m + 2]
        rows = [["Day", "Month", "Description", "Amount"]]
        for _ in range(int(rng.integers(8, 13))):
            rows.append([int(rng.integers(1, 29)), str(rng.choice(months)), str(rng.choice(_ITEMS)),
                         _money(rng, 4, 150)])
        month = str(rng.choice(months))
        if not any(r[1] == month for r in rows[1:]):
            rows[1][1] = month
        total = round(sum(r[3] for r in rows[1:] if r[1] == month), 2)
        return {"path": f"Documents/{_doc_name(rng, 'expenses')}.gnumeric", "rows": rows, "month": month,
                "total": total, "others": _distractors(rng)}

    def instruction(self, params):
        return (f"Add up the {params['month']} expenses in {params['path']} (open in the spreadsheet) and submit "
                f"the total through the expense report form in the web browser (month {params['month']}).")

    def setup(self, sb, params):
        _place(sb, {params["path"]: _book_bytes(params["rows"]), **params["others"]})
        sb.server.store.load({"reports": []}, {"reports": ("month", "total")})
        sb.open_apps(("browser", sb.server.url("/expense-form.html")), ("spreadsheet", params["path"]))

    def read_state(self, sb, params):
        return {"files": sb.workspace.snapshot(), "reports": sb.server.store.snapshot()["reports"]}

    def check(self, state, params, answer, baseline):
        reports = state["reports"]
        if len(reports) != 1:
            return CheckResult.failed(f"{len(reports)} expense reports were submitted, expected exactly 1")
        got = reports[0]
        if not values_match(str(got.get("month", "")), params["month"]):
            return CheckResult.failed(f"the report is for {got.get('month')!r}, not {params['month']}")
        if not values_match(str(got.get("total", "")), params["total"], tol=0.01):
            return CheckResult.failed(f"the report's total is {got.get('total')!r}, not {params['total']:.2f}")
        return all_of(CheckResult.passed(f"report for {params['month']}: {params['total']:.2f}"),
                      _files_intact(state, baseline))

    def oracle(self, sb, params):
        sb.wait_ready(title="Expense report")
        yield from _switch_to(sb, "Expense report")
        _screen_shows(sb, _page_blue, (60, _FORM_SUBMIT[1]), timeout=8.0)   # the form is drawn
        yield _click(*_FORM_MONTH)
        yield _type(params["month"])
        yield _click(*_FORM_TOTAL)
        yield _type(f"{params['total']:.2f}")
        yield _click(*_FORM_SUBMIT)
        for _ in range(8):
            if sb.server.store.snapshot()["reports"]:
                break
            yield _wait(0.2)
        yield _finish()


@register_task
class EditorNumbersToSheet(_SheetTask):
    """Multi-app: add up receipts listed in a text file (open in the editor) and enter the sum in the spreadsheet.

    Mousepad shows Documents/receipts-*.txt; Gnumeric shows a budget workbook
    (Category, Amount). The checker reads the saved workbook: the asked
    category's Amount cell holds the receipts' sum (±0.01), the rest unchanged.
    """

    id = "computer.editor-numbers-to-sheet-v0"
    max_steps = 15

    def sample(self, rng):
        cats = [str(c) for c in rng.choice(["Travel", "Meals", "Office", "Books", "Software", "Phone"], size=4,
                                            replace=False)]
        rows = [["Category", "Amount"]] + [[c, None] for c in cats]
        k = int(rng.integers(0, 4))
        rows[1 + (k + 1) % 4][1] = _money(rng, 20, 300)        # one other category is filled already
        receipts = [[str(rng.choice(_ITEMS)), _money(rng, 3, 90)] for _ in range(int(rng.integers(4, 8)))]
        return {"path": f"Documents/{_doc_name(rng, 'budget')}.gnumeric", "rows": rows, "category": cats[k],
                "receipts": receipts, "notes": f"Documents/receipts-{rng.choice(_WORDS)}.txt",
                "others": _distractors(rng)}

    def instruction(self, params):
        return (f"The text file {params['notes']} (open in the text editor) lists receipts. Enter their total in "
                f"the Amount cell of the {params['category']} row in {params['path']} (open in the spreadsheet) "
                "and save the workbook.")

    def setup(self, sb, params):
        text = f"Receipts ({params['category']})\n" + "".join(f"{w}: {v:.2f}\n" for w, v in params["receipts"])
        _place(sb, {params["notes"]: text, params["path"]: _book_bytes(params["rows"]), **params["others"]})
        sb.open_apps(("spreadsheet", params["path"]), ("editor", params["notes"]))

    def _row(self, params) -> int:
        return [r[0] for r in params["rows"]].index(params["category"]) + 1

    def expected(self, params):
        total = round(sum(v for _, v in params["receipts"]), 2)
        return {**table(params["rows"]), f"B{self._row(params)}": total}, {}

    def check(self, state, params, answer, baseline):
        want, _ = self.expected(params)
        return all_of(sheet_equals(state["book"], want, tol=0.01, where=params["path"]),
                      _files_intact(state, baseline, params["path"]))

    def oracle(self, sb, params):
        total = round(sum(v for _, v in params["receipts"]), 2)
        yield from _switch_to(sb, "Gnumeric")
        yield from _goto(sb, f"B{self._row(params)}")
        yield _type(f"{total:.2f}\n")
        yield from _save(sb, params["path"])
        yield _finish()


#: Ristretto's settings (xfconf channel file): no thumbnail bar, and no modal "thumbnailer-service can not be
#: reached" dialog (Debian's desktop has no tumbler)
_RISTRETTO_XFCONF = """<?xml version="1.0" encoding="UTF-8"?>
<channel name="ristretto" version="1.0">
  <property name="errors" type="empty"><property name="missing-thumbnailer" type="bool" value="false"/></property>
  <property name="window" type="empty">
    <property name="thumbnails" type="empty"><property name="show" type="bool" value="false"/></property>
  </property>
</channel>
"""


def _ristretto_settings(sb) -> None:
    _place(sb, {".config/xfce4/xfconf/xfce-perchannel-xml/ristretto.xml": _RISTRETTO_XFCONF})


def _picture(text: str, sub: str, seed: int) -> bytes:
    """A PNG with big text on a coloured card (what an image-viewer task asks about)."""
    import io
    from PIL import Image, ImageDraw, ImageFont
    rng = np.random.default_rng(seed)
    bg = tuple(int(v) for v in rng.integers(150, 230, size=3))
    img = Image.new("RGB", (720, 400), bg)
    d = ImageDraw.Draw(img)
    big = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 96)
    small = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 32)
    d.text((360, 190), text, fill=(20, 24, 32), font=big, anchor="mm")
    d.text((360, 320), sub, fill=(40, 40, 40), font=small, anchor="mm")
    for _ in range(12):     # a little noise, so the text is the only thing to read
        x, y = int(rng.integers(0, 720)), int(rng.integers(0, 400))
        d.ellipse((x, y, x + 14, y + 14), outline=(90, 90, 90))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


@register_task
class ImageWordToEditor(Task):
    """Multi-app: read a code word shown in a picture (image viewer) and save it in a new text file (editor).

    Ristretto shows Pictures/<name>.png with a word and a number drawn large;
    Mousepad is open on a new document. The checker reads Documents/code.txt:
    exactly the code ("WORD-1234"), one trailing newline allowed.
    """

    id = "computer.image-word-to-editor-v0"
    suite = "computer"
    max_steps = 15

    def sample(self, rng):
        code = f"{str(rng.choice(_WORDS)).upper()}-{int(rng.integers(1000, 10000))}"
        return {"code": code, "image": f"Pictures/badge-{int(rng.integers(100, 1000))}.png",
                "out": "Documents/code.txt", "seed": int(rng.integers(1 << 30)), "others": _distractors(rng)}

    def instruction(self, params):
        return (f"The picture {params['image']} (open in the image viewer) shows an access code. Using the text "
                f"editor, save the code (exactly as shown, nothing else) in the file {params['out']}.")

    def setup(self, sb, params):
        _place(sb, {params["image"]: _picture(params["code"], "access code", params["seed"]), **params["others"]})
        (sb.workspace.root / "Documents").mkdir(exist_ok=True)
        _ristretto_settings(sb)
        sb.open_apps("editor", ("images", params["image"]))

    def read_state(self, sb, params):
        return {"files": sb.workspace.snapshot()}

    def check(self, state, params, answer, baseline):
        return all_of(file_text_equals(state["files"], params["out"], params["code"]),
                      _files_intact(state, baseline))

    def oracle(self, sb, params):
        yield from _switch_to(sb, "Mousepad")
        yield _click(sb.width // 2, sb.height // 2)
        yield _type(params["code"])
        yield from _editor_save_as(sb, params["out"])
        yield _finish()


@register_task
class ImageNumberToSheet(_SheetTask):
    """Multi-app: read a meter reading from a photo-like picture (image viewer) and enter it in the spreadsheet.

    Ristretto shows Pictures/meter-<date>.png; Gnumeric shows a readings log (Date,
    Reading) with the row for that date empty. The checker reads the saved
    workbook: that row's Reading equals the number in the picture.
    """

    id = "computer.image-number-to-sheet-v0"
    max_steps = 15

    def sample(self, rng):
        day0 = int(rng.integers(1, 10))
        n = int(rng.integers(4, 7))
        value = int(rng.integers(10000, 90000))
        rows = [["Date", "Reading"]]
        for i in range(n):
            rows.append([f"2025-03-{day0 + 7 * i:02d}", value - 120 * (n - i) - int(rng.integers(0, 100))])
        rows.append([f"2025-03-{day0 + 7 * n:02d}", None])
        return {"path": f"Documents/{_doc_name(rng, 'meter')}.gnumeric", "rows": rows, "value": value,
                "image": f"Pictures/meter-{rows[-1][0]}.png", "seed": int(rng.integers(1 << 30)),
                "others": _distractors(rng)}

    def instruction(self, params):
        return (f"The picture {params['image']} (open in the image viewer) shows the water meter reading of "
                f"{params['rows'][-1][0]}. Enter it in that date's Reading cell in {params['path']} (open in "
                "the spreadsheet) and save the workbook.")

    def setup(self, sb, params):
        _place(sb, {params["image"]: _picture(f"{params['value']:05d}", "m³", params["seed"]),
                    params["path"]: _book_bytes(params["rows"]), **params["others"]})
        _ristretto_settings(sb)
        sb.open_apps(("spreadsheet", params["path"]), ("images", params["image"]))

    def expected(self, params):
        return {**table(params["rows"]), f"B{len(params['rows'])}": float(params["value"])}, {}

    def oracle(self, sb, params):
        yield from _switch_to(sb, "Gnumeric")
        yield from _goto(sb, f"B{len(params['rows'])}")
        yield _type(f"{params['value']}\n")
        yield from _save(sb, params["path"])
        yield _finish()


@register_task
class CalculatorToEditor(Task):
    """Multi-app: work out an arithmetic result (the calculator is open) and write it into a text file (editor).

    Galculator and Mousepad (a new document) are open. The checker reads
    Documents/result.txt: the exact integer result, one trailing newline allowed.
    """

    id = "computer.calculator-to-editor-v0"
    suite = "computer"
    max_steps = 15

    def sample(self, rng):
        a, b, c = int(rng.integers(120, 999)), int(rng.integers(12, 99)), int(rng.integers(100, 5000))
        return {"a": a, "b": b, "c": c, "out": f"Documents/result-{rng.choice(_WORDS)}.txt",
                "others": _distractors(rng)}

    def instruction(self, params):
        return (f"Compute {params['a']} × {params['b']} − {params['c']} (the calculator is open) and save just the "
                f"result, as a whole number, in the text file {params['out']} using the text editor.")

    def setup(self, sb, params):
        _place(sb, params["others"])
        sb.open_apps("editor", "calculator")

    def read_state(self, sb, params):
        return {"files": sb.workspace.snapshot()}

    def check(self, state, params, answer, baseline):
        return all_of(file_text_equals(state["files"], params["out"],
                                       str(params["a"] * params["b"] - params["c"])),
                      _files_intact(state, baseline))

    def oracle(self, sb, params):
        # on the calculator (its keyboard takes the expression), then in the editor under it
        yield _type(f"{params['a']}*{params['b']}-{params['c']}=")
        yield from _switch_to(sb, "Mousepad")
        yield _click(120, 500)                          # the editor's text area, left of the calculator
        yield _type(str(params["a"] * params["b"] - params["c"]))
        yield from _editor_save_as(sb, params["out"])
        yield _finish()


@register_task
class SheetToEditor(Task):
    """Multi-app: find the top scorer in a spreadsheet and write the name into a new text file (editor).

    Gnumeric shows a scores workbook (Player, Round 1..3); Mousepad is open on a
    new document. The checker reads Documents/winner.txt: the name of the player
    with the highest total over the rounds (unique by construction).
    """

    id = "computer.sheet-to-editor-v0"
    suite = "computer"
    max_steps = 15

    def sample(self, rng):
        n = int(rng.integers(5, 9))
        names = [str(x) for x in rng.choice(_NAMES, size=n, replace=False)]
        rows = [["Player", "Round 1", "Round 2", "Round 3"]]
        for name in names:
            rows.append([name] + [int(v) for v in rng.integers(10, 100, size=3)])
        totals = [sum(r[1:]) for r in rows[1:]]
        best = int(np.argmax(totals))
        rows[1 + best][1] += 5 if totals.count(max(totals)) > 1 else 0     # make the winner unique
        return {"path": f"Documents/{_doc_name(rng, 'scores')}.gnumeric", "rows": rows, "winner": names[best],
                "out": "Documents/winner.txt", "others": _distractors(rng)}

    def instruction(self, params):
        return (f"In {params['path']} (open in the spreadsheet), find the player with the highest total over the "
                f"three rounds, and save just that player's name in the text file {params['out']} using the "
                "text editor.")

    def setup(self, sb, params):
        _place(sb, {params["path"]: _book_bytes(params["rows"]), **params["others"]})
        sb.open_apps("editor", ("spreadsheet", params["path"]))

    def read_state(self, sb, params):
        return {"files": sb.workspace.snapshot()}

    def check(self, state, params, answer, baseline):
        return all_of(file_text_equals(state["files"], params["out"], params["winner"]),
                      _files_intact(state, baseline))

    def oracle(self, sb, params):
        n = len(params["rows"])
        yield from _goto(sb, "E2")                      # a person would total the rounds first
        yield _type("".join(f"=SUM(B{i}:D{i})\n" for i in range(2, n + 1)))
        yield from _switch_to(sb, "Mousepad")
        yield _click(sb.width // 2, sb.height // 2)
        yield _type(params["winner"])
        yield from _editor_save_as(sb, params["out"])
        yield _finish()


@register_task
class WebTableToSheet(Task):
    """Multi-app: copy a small table shown on a web page into a new spreadsheet and save it.

    The browser shows a table (City, Rain in mm); Gnumeric is open on an empty
    workbook. The checker reads Documents/<name>.gnumeric: the same cells from A1,
    numbers as numbers.
    """

    id = "computer.web-table-to-sheet-v0"
    suite = "computer"
    max_steps = 15

    def sample(self, rng):
        cities = ["Lisbon", "Osaka", "Denver", "Tallinn", "Nairobi", "Quito", "Perth", "Bergen", "Porto", "Leeds"]
        n = int(rng.integers(4, 7))
        rows = [["City", "Rain"]] + [[str(c), int(rng.integers(5, 250))]
                                     for c in rng.choice(cities, size=n, replace=False)]
        return {"rows": rows, "out": f"Documents/{_doc_name(rng, 'rain')}.gnumeric", "others": _distractors(rng)}

    def instruction(self, params):
        return ("Copy the rainfall table shown in the web browser (header row included) into a new spreadsheet, "
                f"starting at cell A1, and save it as the Gnumeric workbook {params['out']}.")

    def setup(self, sb, params):
        _place(sb, params["others"])
        head, *body = params["rows"]
        html = ("<table class='data'><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"
                + "".join("<tr>" + "".join(f"<td>{v}</td>" for v in r) + "</tr>" for r in body) + "</table>")
        _serve_page(sb, "/rain", "Rainfall", f"<h1>Rainfall last month (mm)</h1>{html}")
        sb.open_apps("spreadsheet", ("browser", sb.server.url("/rain")))

    def read_state(self, sb, params):
        return {"files": sb.workspace.snapshot(), "book": read_book(sb.workspace.root / params["out"])}

    def check(self, state, params, answer, baseline):
        return all_of(sheet_equals(state["book"], table(params["rows"]), where=params["out"]),
                      _files_intact(state, baseline))

    def oracle(self, sb, params):
        yield from _switch_to(sb, "Gnumeric")
        yield from _goto(sb, "A1")
        yield _type("".join("\t".join(str(v) for v in r) + "\n" for r in params["rows"]))
        yield from _save_as(sb, params["out"])
        yield _finish()


# ================================ hybrid (GUI + SDK) ================================
def _terminal(command: str) -> dict:
    return {"action_type": "terminal", "command": command}


@register_task
class MergeCsvsTotal(Task):
    """Hybrid: merge 30 daily CSV files into one workbook with a total (the terminal merges, the spreadsheet totals).

    sales/day-01.csv … day-30.csv each hold a header (Day, Store, Amount) and a few
    rows. The checker reads Documents/<month>-sales.gnumeric: the header, every
    row in day order (file order within a day), and a formula in E1 whose result
    is the Amount total.
    """

    id = "computer.merge-csvs-total-v0"
    suite = "computer"
    sdk = True
    max_steps = 20

    def sample(self, rng):
        stores = ["Alfama", "Baixa", "Belem", "Chiado", "Graca"]
        days = {}
        for d in range(1, 31):
            days[d] = [[d, str(rng.choice(stores)), _money(rng, 50, 600)] for _ in range(int(rng.integers(2, 5)))]
        month = str(rng.choice(_MONTHS)).lower()
        return {"days": {str(k): v for k, v in days.items()}, "out": f"Documents/{month}-sales.gnumeric",
                "others": _distractors(rng)}

    def instruction(self, params):
        return ("The folder sales/ holds 30 daily CSV files (day-01.csv to day-30.csv, each with the header Day, "
                "Store, Amount). Make one Gnumeric workbook " + params["out"] + " whose first sheet has the header "
                "in row 1 followed by all the rows of the 30 files in day order, and in cell E1 a formula giving "
                "the total of the Amount column.")

    def _rows(self, params) -> list[list]:
        return [["Day", "Store", "Amount"]] + [r for d in range(1, 31) for r in params["days"][str(d)]]

    def setup(self, sb, params):
        files = {f"sales/day-{d:02d}.csv": write_csv([["Day", "Store", "Amount"]] + params["days"][str(d)])
                 for d in range(1, 31)}
        _place(sb, {**files, **params["others"]})
        (sb.workspace.root / "Documents").mkdir(exist_ok=True)
        sb.open_app("spreadsheet")

    def read_state(self, sb, params):
        return {"files": sb.workspace.snapshot(), "book": read_book(sb.workspace.root / params["out"])}

    def check(self, state, params, answer, baseline):
        rows = self._rows(params)
        total = round(sum(r[2] for r in rows[1:]), 6)
        return all_of(sheet_equals(state["book"], {**table(rows), "E1": total}, formulas={"E1": ""},
                                   where=params["out"]),
                      _files_intact(state, baseline))

    def oracle(self, sb, params):
        yield _terminal("(head -n 1 sales/day-01.csv; tail -q -n +2 sales/day-*.csv) > sales/merged.csv && "
                        "wc -l sales/merged.csv")
        n = len(self._rows(params))
        yield from _open_in_gnumeric(sb, "sales/merged.csv")
        yield from _goto(sb, "E1")
        yield _type(f"=SUM(C2:C{n})\n")
        yield from _save_as(sb, params["out"])
        yield _finish()


@register_task
class GrepThenEditSheet(Task):
    """Hybrid: find which of 40 project workbooks belongs to a project code (terminal), then change its budget (GUI).

    projects/*.gnumeric each hold Project, Owner and Budget in A1:B3; Gnumeric is
    open on an empty workbook. The checker reads the right file (Budget = the new
    value, the rest unchanged) and confirms every other file is byte-for-byte intact.
    """

    id = "computer.grep-then-edit-sheet-v0"
    suite = "computer"
    sdk = True
    max_steps = 15

    def sample(self, rng):
        codes = [f"PRJ-{int(c)}" for c in rng.choice(np.arange(1000, 9999), size=40, replace=False)]
        nums = rng.choice(np.arange(100, 999), size=40, replace=False)
        projects = {f"projects/project-{int(nums[i])}.gnumeric":
                    [["Project", codes[i]], ["Owner", str(rng.choice(_NAMES))], ["Budget", int(rng.integers(5, 90)) * 1000]]
                    for i in range(40)}
        target = sorted(projects)[int(rng.integers(40))]
        return {"projects": projects, "target": target, "code": projects[target][0][1],
                "budget": int(rng.integers(95, 200)) * 1000}

    def instruction(self, params):
        return (f"One of the Gnumeric workbooks in the folder projects/ is for project {params['code']}. Change its "
                f"Budget to {params['budget']} and save it in place.")

    def setup(self, sb, params):
        _place(sb, {p: _book_bytes(rows) for p, rows in params["projects"].items()})
        sb.open_app("spreadsheet")

    def read_state(self, sb, params):
        return {"files": sb.workspace.snapshot(), "book": read_book(sb.workspace.root / params["target"])}

    def check(self, state, params, answer, baseline):
        rows = [list(r) for r in params["projects"][params["target"]]]
        rows[2][1] = params["budget"]
        return all_of(sheet_equals(state["book"], table(rows), where=params["target"]),
                      _files_intact(state, baseline, params["target"]))

    def oracle(self, sb, params):
        obs = yield _terminal(f"zgrep -l -- '{params['code']}' projects/*.gnumeric")
        path = obs["sdk_output"].split()[0].strip()
        yield from _open_in_gnumeric(sb, path)
        yield from _goto(sb, "B3")
        yield _type(f"{params['budget']}\n")
        yield from _save(sb, path)
        yield _finish()


@register_task
class LogCountsToSheet(_SheetTask):
    """Hybrid: count HTTP status codes in a 3000-line access log (terminal) and fill them into a workbook (GUI).

    logs/access.log is in the common log format; Gnumeric is open on a stats
    workbook listing three status codes. The checker reads the saved workbook:
    each code's count in column B, nothing else changed.
    """

    id = "computer.log-counts-to-sheet-v0"
    sdk = True
    max_steps = 15

    def sample(self, rng):
        codes = [200, 301, 304, 404, 500, 503]
        weights = np.array([60, 5, 10, 12, 8, 5], float)
        lines, counts = [], {c: 0 for c in codes}
        for i in range(3000):
            code = int(rng.choice(codes, p=weights / weights.sum()))
            counts[code] += 1
            lines.append(f"10.0.{int(rng.integers(0, 9))}.{int(rng.integers(1, 250))} - - "
                         f"[12/Mar/2025:{i // 360 % 24:02d}:{i // 6 % 60:02d}:{i % 60:02d} +0000] "
                         f"\"GET /{rng.choice(_WORDS)}/{int(rng.integers(1, 99))} HTTP/1.1\" {code} "
                         f"{int(rng.integers(200, 9000))}")
        asked = sorted(int(c) for c in rng.choice([301, 304, 404, 500, 503], size=3, replace=False))
        rows = [["Status", "Requests"]] + [[c, None] for c in asked]
        return {"path": f"Documents/{_doc_name(rng, 'stats')}.gnumeric", "rows": rows, "log": "\n".join(lines) + "\n",
                "counts": {str(c): counts[c] for c in asked}, "others": _distractors(rng)}

    def instruction(self, params):
        return (f"Count how many requests in logs/access.log got each of the status codes listed in "
                f"{params['path']} (open in the spreadsheet), enter the counts in its Requests column and save it.")

    def setup(self, sb, params):
        _place(sb, {"logs/access.log": params["log"]})
        super().setup(sb, params)

    def expected(self, params):
        rows = [list(r) for r in params["rows"]]
        for r in rows[1:]:
            r[1] = params["counts"][str(r[0])]
        return table(rows), {}

    def oracle(self, sb, params):
        obs = yield _terminal("awk '{print $9}' logs/access.log | sort | uniq -c")
        counts = {parts[1]: parts[0] for parts in (ln.split() for ln in obs["sdk_output"].splitlines())
                  if len(parts) == 2 and parts[0].isdigit()}
        yield from _goto(sb, "B2")
        yield _type("".join(f"{counts.get(str(r[0]), 0)}\n" for r in params["rows"][1:]))
        yield from _save(sb, params["path"])
        yield _finish()


@register_task
class CategoryTotalsToSheet(_SheetTask):
    """Hybrid: total 600 transactions by category (terminal: awk) and fill the totals into a summary workbook (GUI).

    data/transactions.csv has Id, Category, Amount; Gnumeric is open on a summary
    workbook listing the categories. The checker reads the saved workbook: each
    category's total (±0.01) in column B.
    """

    id = "computer.category-totals-to-sheet-v0"
    sdk = True
    max_steps = 15

    def sample(self, rng):
        cats = ["Books", "Fuel", "Groceries", "Rent", "Software", "Travel"]
        rows_tx = [["Id", "Category", "Amount"]]
        for i in range(600):
            rows_tx.append([1000 + i, str(rng.choice(cats)), _money(rng, 2, 300)])
        asked = sorted(str(c) for c in rng.choice(cats, size=4, replace=False))
        totals = {c: round(sum(r[2] for r in rows_tx[1:] if r[1] == c), 2) for c in asked}
        return {"path": f"Documents/{_doc_name(rng, 'summary')}.gnumeric",
                "rows": [["Category", "Total"]] + [[c, None] for c in asked], "csv": write_csv(rows_tx),
                "totals": totals, "others": _distractors(rng)}

    def instruction(self, params):
        return (f"data/transactions.csv lists 600 transactions. In {params['path']} (open in the spreadsheet), "
                "fill the Total column with the sum of the amounts of each listed category, and save it.")

    def setup(self, sb, params):
        _place(sb, {"data/transactions.csv": params["csv"]})
        super().setup(sb, params)

    def expected(self, params):
        rows = [[r[0], params["totals"][r[0]] if r[1] is None and r[0] in params["totals"] else r[1]]
                for r in params["rows"]]
        return table(rows), {}

    def check(self, state, params, answer, baseline):
        want, _ = self.expected(params)
        return all_of(sheet_equals(state["book"], want, tol=0.01, where=params["path"]),
                      _files_intact(state, baseline, params["path"]))

    def oracle(self, sb, params):
        obs = yield _terminal("awk -F, 'NR>1 {t[$2]+=$3} END {for (c in t) printf \"%s %.2f\\n\", c, t[c]}' "
                              "data/transactions.csv")
        totals = dict(ln.split() for ln in obs["sdk_output"].splitlines() if len(ln.split()) == 2)
        yield from _goto(sb, "B2")
        yield _type("".join(f"{totals.get(r[0], 0)}\n" for r in params["rows"][1:]))
        yield from _save(sb, params["path"])
        yield _finish()


@register_task
class StockFromFilesToSheet(_SheetTask):
    """Hybrid: look up stock counts in 120 warehouse bin files (terminal: grep) and fill an inventory workbook (GUI).

    warehouse/bin-*.txt each hold "sku:", "stock:" and "shelf:" lines; Gnumeric is
    open on an inventory workbook listing five SKUs. The checker reads the saved
    workbook: each SKU's stock in column B.
    """

    id = "computer.stock-from-files-to-sheet-v0"
    sdk = True
    max_steps = 15

    def sample(self, rng):
        skus = [f"K-{int(s)}" for s in rng.choice(np.arange(1000, 9999), size=120, replace=False)]
        stock = {s: int(rng.integers(0, 500)) for s in skus}
        asked = [str(s) for s in rng.choice(skus, size=5, replace=False)]
        return {"path": f"Documents/{_doc_name(rng, 'inventory')}.gnumeric",
                "rows": [["SKU", "Stock"]] + [[s, None] for s in asked],
                "bins": {f"warehouse/bin-{i:03d}.txt": f"sku: {s}\nstock: {stock[s]}\nshelf: {chr(65 + i % 6)}{i % 9}\n"
                         for i, s in enumerate(skus)},
                "stock": {s: stock[s] for s in asked}, "others": _distractors(rng)}

    def instruction(self, params):
        return (f"The files in warehouse/ record the stock of each SKU. Fill the Stock column of {params['path']} "
                "(open in the spreadsheet) for the SKUs it lists, and save it.")

    def setup(self, sb, params):
        _place(sb, params["bins"])
        super().setup(sb, params)

    def expected(self, params):
        return table([params["rows"][0]] + [[r[0], params["stock"][r[0]]] for r in params["rows"][1:]]), {}

    def oracle(self, sb, params):
        skus = [r[0] for r in params["rows"][1:]]
        obs = yield _terminal("grep -h -A1 -E '^sku: (" + "|".join(skus) + ")$' warehouse/*.txt")
        lines = [ln.strip() for ln in obs["sdk_output"].splitlines()]
        found = {lines[i][5:]: lines[i + 1][7:] for i in range(len(lines) - 1)
                 if lines[i].startswith("sku: ") and lines[i + 1].startswith("stock: ")}
        yield from _goto(sb, "B2")
        yield _type("".join(f"{found.get(s, '')}\n" for s in skus))
        yield from _save(sb, params["path"])
        yield _finish()
