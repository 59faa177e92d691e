"""The computer suite's desktop for task families: the episode's home, reading it back, the oracles' moves.

- Names: `WORDS`, `CITIES`, `TOPICS`, `GOODS`, `NAMES` are split pools (`kit.data.Pool`) and `year`
  a split's own range of years, so that `home(rng)`, `doc_name` and the tasks' drawn names differ
  between training and test seeds by construction.
- Home templates: path -> text, bytes, or an image `("png", width, height, (r, g, b), seed)`
  drawn as a real PNG (`png`); `place` writes one, `home` draws the standard home, `notes` and
  `distractors` the documents a task is not about.
- State: `home_state` (the home without the app caches, `home_snapshot`), `read_book` (a saved
  workbook, formula results recalculated with ssconvert); `files_intact` / `wrote_text` judge it.
- Task bases: `HomeTask` (judged on the whole home: what the asked work `changes`) and
  `SheetTask` (judged on one workbook and the rest of the home).
- Oracle moves: positions come from the live windows and the screen, acting only through the
  env's actions (`kit.actions`): the panel's task list (`switch_to`), saving (`save`), Mousepad
  (`editor_goto_line`, `editor_save_as`), Gnumeric (`goto_cell`, `open_workbook`, `save_workbook_as`).
"""

from __future__ import annotations

import io
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable, ClassVar, Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of, file_text_equals, files_unchanged
from hybridgym.reward.files import APP_STATE_PREFIXES, expected_tree
from hybridgym.reward.sheets import (SheetFormatError, Workbook, read_csv, read_spreadsheet, sheet_equals,
                                     with_values, write_gnumeric)
from hybridgym.sandbox.desktop import home_snapshot

from ..base import Outcome, Task
from . import actions as act
from .data import Pool, money, pick, split_int, split_of

# -- data ----------------------------------------------------------------------------------------
# The name lists are split pools (`kit.data.Pool`): `pick` draws a training seed's names from one half and a
# test seed's from the other, so every file, folder, topic, city, item or person an instruction names tells the
# splits apart by construction.
#: the words of file and folder names (split pool)
WORDS = Pool(["amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
              "kelp", "lumen", "meadow", "nectar", "onyx", "pepper", "quartz", "raven", "sierra", "tundra",
              "acorn", "birch", "cobalt", "dune", "elm", "flint", "grove", "hazel", "iris", "jasper",
              "kestrel", "lagoon", "maple", "nimbus", "orchid", "pebble", "quill", "reef", "sable", "thistle"])
SENTENCES = ["Meeting moved to Thursday at 10:30.", "Remember to water the ficus.",
             "Invoice 2231 was paid in full.", "The build server restarts at midnight.",
             "会议改到星期四上午十点半。", "Café au lait costs €3.20 today.",
             "Quarterly numbers are due on the 5th.", "Pack the blue charger and the adapter."]
CITIES = Pool(["Lisbon", "Osaka", "Denver", "Tallinn", "Nairobi", "Quito", "Perth", "Bergen", "Porto", "Leeds",
               "Cusco", "Hobart", "Tromso", "Malaga", "Dakar", "Sapporo", "Bilbao", "Gdansk", "Austin", "Zagreb"])
TOPICS = Pool(["budget", "roadmap", "hiring", "launch", "offsite", "migration", "audit", "newsletter",
               "pricing", "training", "security", "inventory", "payroll", "branding", "support", "research"])
#: the goods of the office tasks' tables (sales, prices, receipts)
GOODS = Pool(["anchor", "beacon", "candle", "dynamo", "easel", "funnel", "gasket", "hinge", "ingot", "jigsaw",
         "kettle", "ladle", "magnet", "nozzle", "oar", "pulley", "quill", "ratchet", "sprocket", "trowel",
         "valve", "whisk", "yarn", "zipper"])
REGIONS = ["North", "South", "East", "West"]
NAMES = Pool(["Ada", "Bruno", "Chen", "Dalia", "Emeka", "Freya", "Goran", "Hana", "Ivo", "Jun", "Kira", "Luis",
              "Mona", "Nils", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Vera", "Wes", "Xia",
              "Yusuf", "Zara", "Anouk", "Bela", "Cyrus", "Dina", "Elio", "Fumi"])
SALES_HEADER = ["Item", "Region", "Units", "Price"]


# -- the home --------------------------------------------------------------------------------------
def png(width: int, height: int, rgb: tuple[int, int, int], seed: int) -> bytes:
    """A real PNG: a colour gradient with a few random blocks (the same bytes for the same arguments)."""
    from PIL import Image
    rng = np.random.default_rng(seed)
    img = np.zeros((height, width, 3), np.uint8)
    img[:] = rgb
    img[..., 0] = np.clip(img[..., 0].astype(int) + np.linspace(0, 60, width, dtype=int)[None, :], 0, 255)
    for _ in range(4):
        x, y = int(rng.integers(0, width - 8)), int(rng.integers(0, height - 8))
        img[y:y + 8, x:x + 8] = rng.integers(0, 256, 3)
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="PNG")
    return buf.getvalue()


def image(rng: np.random.Generator) -> tuple:
    """An image of a home template, drawn from the seed: ("png", width, height, rgb, seed)."""
    return ("png", int(rng.integers(40, 120)), int(rng.integers(30, 90)),
            tuple(int(v) for v in rng.integers(0, 200, 3)), int(rng.integers(1 << 30)))


def file_bytes(content: "str | bytes | tuple") -> bytes:
    """What a home template's entry is on disk: UTF-8 text, the bytes, or the drawn PNG."""
    if isinstance(content, tuple):
        return png(*content[1:])
    return content if isinstance(content, bytes) else content.encode()


def place(sb, files: "dict[str, str | bytes | tuple]") -> None:
    """Write a home template into the episode's home (folders as needed)."""
    for rel, content in files.items():
        target = sb.workspace.resolve(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(file_bytes(content))


def year(rng: np.random.Generator) -> int:
    """A year drawn from the split's own range: 2015-2025 for training seeds, 2026-2036 for test seeds."""
    return int(rng.integers(2015, 2026)) + (11 if split_of(rng) == "test" else 0)


def notes(rng: np.random.Generator, words: list[str]) -> dict[str, str]:
    """Documents/<word>.txt for each word: a title line and a sentence."""
    return {f"Documents/{w}.txt": f"{w} notes\n{pick(rng, SENTENCES)}\n" for w in words}


def home(rng: np.random.Generator) -> "dict[str, str | tuple]":
    """The standard home of an episode: a few documents, pictures and a CSV (drawn from the seed)."""
    words = pick(rng, WORDS, 6)
    files: dict[str, str | tuple] = notes(rng, words[:3])
    files.update({f"Pictures/{w}.png": image(rng) for w in words[3:5]})
    rows = [f"2025-{int(rng.integers(1, 13)):02d}-{int(rng.integers(1, 29)):02d},{pick(rng, CITIES)},"
            f"{float(rng.uniform(5, 500)):.2f}" for _ in range(6)]
    files[f"Downloads/{words[5]}.csv"] = "date,city,amount\n" + "\n".join(rows) + "\n"
    return files


def distractors(rng: np.random.Generator) -> dict[str, str]:
    """Two notes in Documents/ the task is not about (an office task's home)."""
    return {f"Documents/{w}-notes.txt": f"{w}\nnothing to do here\n" for w in pick(rng, WORDS, 2)}


def doc_name(rng: np.random.Generator, stem: str) -> str:
    """A document's name drawn from the seed: <stem>-<word>-<number>."""
    return f"{stem}-{pick(rng, WORDS)}-{int(rng.integers(10, 100))}"


def sales_rows(rng: np.random.Generator, n: int) -> list[list]:
    """Rows of a small sales table (`SALES_HEADER`): distinct items, a region, units (distinct), a price."""
    items = pick(rng, GOODS, n)
    units = pick(rng, range(2, 90), n)
    return [[items[i], pick(rng, REGIONS), units[i], money(rng, 1, 60)] for i in range(n)]


def book_bytes(rows: list[list], sheet: str = "Sheet1") -> bytes:
    """A Gnumeric workbook of one sheet holding `rows` from A1."""
    return write_gnumeric({sheet: rows})


# -- reading and judging the home ------------------------------------------------------------------
def home_state(sb) -> dict:
    """The state of a task judged on the home: `{"files": path -> bytes}`, app caches left out."""
    return {"files": home_snapshot(sb.workspace.root)}


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


def files_intact(state: dict, baseline: dict, *changed: str) -> CheckResult:
    """Every user file of the baseline is still there with its bytes, except the `changed` ones."""
    return files_unchanged(baseline["files"], state["files"], ignore=changed, ignore_prefixes=APP_STATE_PREFIXES)


def wrote_text(state: dict, baseline: dict, path: str, text: str) -> CheckResult:
    """`path` holds exactly `text` (one trailing newline allowed) and every other file is intact."""
    return all_of(file_text_equals(state["files"], path, text), files_intact(state, baseline))


def moved(before: dict[str, bytes], pairs: dict[str, str]) -> dict:
    """The `changes` of moving files (source -> destination): each source gone, its bytes at the destination."""
    out: dict = {src: None for src in pairs}
    out.update({dst: before[src] for src, dst in pairs.items()})
    return out


class HomeTask(Task):
    """A computer task on the standard home: setup places `params["home"]` and opens `app`; the checker
    wants the home as before with what the asked work `changes` (`expected_tree`), nothing else."""

    suite = "computer"
    #: the app opened on the home and its arguments; "{name}" is filled from the params ("{path}")
    app: ClassVar[tuple[str, ...]] = ()

    def setup(self, sb, params: dict) -> None:
        place(sb, params["home"])
        if self.app:
            sb.open_app(*(arg.format(**params) for arg in self.app))

    def read_state(self, sb, params: dict) -> dict:
        return home_state(sb)

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        """path -> new bytes, None (gone) or `ANY` (must exist); the default: no user file changes."""
        return {}

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return expected_tree(baseline["files"], state["files"], self.changes(params, baseline["files"]))


class SheetTask(Task):
    """A task judged on one workbook, `params[book]`, and the rest of the home.

    The default setup writes `params["rows"]` as the workbook `params["path"]` (and `params["others"]`)
    and opens it in Gnumeric. Subclasses say what the saved sheet must hold (`expected`: cells, and which
    of them must be formulas); numbers compare within `tol`.
    """

    suite = "computer"
    max_steps = 20
    #: the param naming the workbook the checker reads
    book: ClassVar[str] = "path"
    tol: ClassVar[float] = 0.005
    #: with other apps open: the default oracle first brings up the window whose title contains this
    focus: ClassVar[str] = ""

    def setup(self, sb, params: dict) -> None:
        place(sb, {params["path"]: book_bytes(params["rows"]), **params["others"]})
        sb.open_app("spreadsheet", params["path"], title=Path(params["path"]).name)

    def read_state(self, sb, params: dict) -> dict:
        return {**home_state(sb), "book": read_book(sb.workspace.root / params[self.book])}

    def expected(self, params: dict) -> tuple[dict, dict]:
        raise NotImplementedError

    def reads(self, params: dict) -> dict[str, str]:
        """Formula cells -> the data area each must read ({"C10": "C2:C9"}): "a formula" is one that
        computes from the data, not a typed constant (`sheet_equals`'s `reads`)."""
        return {}

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        """The sheet holds exactly what `expected` says, the formulas asked for read their data
        (`reads`), the workbook's other sheets are empty, and every other file is intact."""
        want, formulas = self.expected(params)
        where = params[self.book]
        return all_of(sheet_equals(state["book"], want, formulas=formulas, tol=self.tol, where=where,
                                   reads=self.reads(params), only_sheet=True),
                      files_intact(state, baseline, where))

    def entries(self, params: dict) -> list[tuple[str, str]]:
        """What the default oracle types into the open workbook, cell by cell (ref, text), before saving."""
        raise NotImplementedError

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        if self.focus:
            yield from switch_to(sb, self.focus)
        yield from fill_and_save(sb, params["path"], self.entries(params))
        yield act.finish()


# -- what the oracles look at: files, windows, the screen ------------------------------------------
def exists(sb, rel: str) -> Callable[[], bool]:
    """A test (for `act.until`): the file `rel` of the home exists."""
    return lambda: (sb.workspace.root / rel).exists()


def no_window(sb, title: str) -> Callable[[], bool]:
    """A test: no window has the title `title` (a dialog has closed)."""
    return lambda: not any(w["title"] == title for w in sb.windows())


def window(sb, title_part: str) -> tuple[int, int, int, int]:
    """Client geometry of the mapped window whose title contains `title_part`."""
    for w in sb.windows():
        if title_part in w["title"] and w["geometry"]:
            return w["geometry"]
    raise RuntimeError(f"no window titled like {title_part!r}; have {[w['title'] for w in sb.windows()]}")


def screen_shows(sb, test: Callable[[list[int]], bool], point: tuple[int, int], timeout: float = 1.5) -> bool:
    """Watch the screen (as a person waits for a popup) until the pixel at `point` passes `test`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test([int(v) for v in sb.capture.grab()[point[1], point[0]]]):
            return True
        time.sleep(0.05)
    return False


def selected(px: list[int]) -> bool:
    """GTK's selection colour (blue) at a pixel: an open menu's or list's highlighted entry."""
    return px[2] > 180 and px[0] < 120


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


# -- moves ------------------------------------------------------------------------------------------
#: tint2 task list: the first entry's centre and the distance between entries (see assets/desktop/tint2rc)
_TASK_X0, _TASK_DX, _TASK_Y = 332, 224, 784


def switch_to(sb, title_part: str, grace: float = 0.0) -> Iterator[dict]:
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
        yield act.click(_TASK_X0 + index * _TASK_DX, _TASK_Y)
        if _is_active(sb, title_part, 2.0):
            sb.capture.settle(quiet=0.1, max_wait=1.0)
            return


def _mtime(sb, rel: str) -> float:
    p = sb.workspace.root / rel
    return p.stat().st_mtime_ns if p.exists() else -1


def await_file(sb, rel: str, before: float = -1, tries: int = 12) -> Iterator[dict]:
    """Wait (as a person watching the title bar) until the file at `rel` is written: its mtime is no
    longer `before` (-1: the file did not exist)."""
    for i in range(tries):
        if _mtime(sb, rel) != before:
            break
        yield act.wait(0.25 if i < 2 else 0.5)


def save(sb, rel: str) -> Iterator[dict]:
    """ctrl+S in the focused app (Mousepad, Gnumeric), then wait until `rel` is written; again if the keys
    went to a window that was closing."""
    before = _mtime(sb, rel)
    for _ in range(3):
        yield act.keys("ctrl", "s")
        yield from await_file(sb, rel, before)
        if _mtime(sb, rel) != before:
            return


def editor_goto_line(sb, line: int | str, text: str) -> Iterator[dict]:
    """Mousepad: go to `line` (Search > Go to, ctrl+L) and type `text` over the whole line."""
    yield act.keys("ctrl", "l")                 # the line number field has focus
    sb.wait_ready("mousepad", "Go To", timeout=5)
    yield act.keys("ctrl", "a")
    yield act.typed(f"{line}\n")
    yield from act.until(no_window(sb, "Go To"), tries=10, seconds=0.1)
    yield act.keys("home")
    yield act.keys("shift", "end")
    yield act.typed(text)


def editor_save_as(sb, rel: str) -> Iterator[dict]:
    """Mousepad: save the new document as `rel` (its full path typed into the Save As dialog) and wait
    for the file; Enter again if the dialog was not ready for it."""
    yield act.keys("ctrl", "s")
    sb.wait_ready("mousepad", "Save As")
    yield act.wait(0.2)
    yield act.typed(sb.shown_path(rel))   # the name field has focus
    yield act.wait(0.6)   # GTK enables the Save button a moment after the name changes
    for _ in range(3):
        yield act.keys("enter")
        yield from await_file(sb, rel, tries=8)
        if exists(sb, rel)():
            return


def goto_cell(sb, ref: str) -> Iterator[dict]:
    """Gnumeric: select a cell or range through the name box."""
    x, y, _, _ = window(sb, "Gnumeric")
    yield act.click(x + 60, y + 151)
    yield act.keys("ctrl", "a")
    yield act.typed(f"{ref}\n")


def fill_and_save(sb, rel: str, entries: list[tuple[str, str]]) -> Iterator[dict]:
    """Gnumeric: type each entry's text at its cell (ref, text; Tab moves right, Enter down), then save
    the workbook `rel`."""
    for ref, text in entries:
        yield from goto_cell(sb, ref)
        yield act.typed(text)
    yield from save(sb, rel)


def open_workbook(sb, rel: str) -> Iterator[dict]:
    """Gnumeric: open the file `rel` (ctrl+O, its full path) and wait until its window has the focus."""
    yield act.keys("ctrl", "o")
    sb.wait_ready(title="Open Spreadsheet File")
    yield act.typed(sb.shown_path(rel) + "\n")
    sb.wait_ready("gnumeric", Path(rel).name)
    yield from switch_to(sb, "Gnumeric", grace=1.0)


def save_workbook_as(sb, rel: str, xlsx: bool = False) -> Iterator[dict]:
    """Gnumeric's Save As: for .xlsx the file type first (choosing it resets the name), then the full path."""
    before = _mtime(sb, rel)
    yield act.keys("ctrl", "shift", "s")
    sb.wait_ready(title="Save the current workbook")
    x, y, w, h = window(sb, "Save the current workbook")
    if xlsx:
        for _ in range(3):                            # the file type list; open it (again if the click was early)
            x, y, w, h = window(sb, "Save the current workbook")
            yield act.click(x + 336, y + h - 70)
            if screen_shows(sb, selected, (x + 200, y + h - 70)):
                break                                 # open: its current entry is highlighted over the button
        # its first entry, ECMA 376 (MS Excel 2007, .xlsx), is one row above "Gnumeric XML"; point at it
        # first (GTK ignores a click on an item the pointer has not entered yet)
        yield act.hover(x + 336, y + h - 70 - 29)
        yield act.click(x + 336, y + h - 70 - 29)
        yield act.keys("alt", "n")                    # back to the Name field
    yield act.keys("ctrl", "a")
    yield act.typed(sb.shown_path(rel) + "\n")
    yield from await_file(sb, rel, before)


# -- helpers several computer families share: memos, the editor, the file manager, names by split --
#: document-name words: split halves (a test document never has a training one's name)
DOC_WORDS = Pool(WORDS)


def split_doc_name(rng: np.random.Generator, stem: str) -> str:
    """A document's name <stem>-<word>-<number>, word and number from the seed's split's halves."""
    return f"{stem}-{pick(rng, DOC_WORDS)}-{split_int(rng, 10, 100)}"


def doc_lines(rng: np.random.Generator, word: str, n: int) -> list[str]:
    """Lines of a memo, each mentioning `word` with probability 1/2 (at least three do)."""
    lines = []
    for i in range(n):
        s = pick(rng, SENTENCES[:4] + SENTENCES[6:])
        lines.append(f"The {word} {s[0].lower()}{s[1:]}" if i % 2 == 0 else s)
    return lines


def _tick(sb, x: int, y: int) -> Iterator[dict]:
    """Click a GTK check box until the screen shows it ticked (blue); a click that lands while
    the dialog is still busy is lost, so look again, as a person would."""
    def ticked() -> bool:
        box = sb.capture.grab()[y - 4:y + 5, x - 4:x + 5].astype(int)
        blue = (box[..., 2] > 180) & (box[..., 2] - box[..., 0] > 40)
        return blue.mean() > 0.3
    for _ in range(3):
        yield from act.point_and_click(x, y)
        for _ in range(8):
            if ticked():
                return
            yield act.wait(0.15)
    raise RuntimeError(f"the check box at ({x}, {y}) did not get ticked")


def replace_all(sb, old: str, new: str) -> Iterator[dict]:
    """Mousepad: replace every `old` with `new` in the current document (Find and Replace, "Replace all
    in: Document"), then close the dialog; the document is left unsaved."""
    yield act.keys("ctrl", "r")
    dialog = sb.wait_ready("mousepad", "Find and Replace", timeout=5)
    x, y, w, h = sb.window_geometry(dialog)
    yield act.typed(old)
    yield act.keys("tab")
    yield act.typed(new)
    yield from _tick(sb, x + 19, y + h - 59)   # "Replace all in: Document"
    yield from act.point_and_click(x + w - 160, y + h - 19)   # "Replace All"
    yield from act.until(lambda: any(w["title"].startswith("*") for w in sb.windows()))  # the document changed
    yield act.keys("esc")                      # close the dialog; the keys go to the document once it is gone
    yield from act.until(no_window(sb, "Find and Replace"), tries=10, seconds=0.1)


def editor_open(sb, rel: str) -> Iterator[dict]:
    """Mousepad: open the file `rel` (ctrl+O, its full path typed into the dialog's location field) and
    wait until its window title shows the file's name."""
    name = rel.rsplit("/", 1)[-1]
    yield act.keys("ctrl", "o")
    sb.wait_ready("mousepad", "Open", timeout=5)
    yield act.wait(0.2)
    yield act.typed(sb.shown_path(rel))     # a "/" first opens the location field
    yield act.wait(0.4)
    yield act.keys("enter")
    yield from act.until(lambda: any(name in w["title"] and "mousepad" in w["wm_class"] for w in sb.windows()
                                     if not w["title"].startswith("Open")))
    sb.capture.settle(quiet=0.1, max_wait=1.0)


# -- the file manager ------------------------------------------------------------------------
def fm_select(name: str) -> Iterator[dict]:
    """Select an item in the file manager's folder view by typing its name (type-ahead), then close the search box."""
    yield act.typed(name)
    yield act.keys("esc")


#: a point of the maximized file manager's folder view with no file under it (files fill the top rows)
FM_EMPTY_SPOT = (1000, 650)


def fm_go(sb, folder: str) -> Iterator[dict]:
    """Open a folder in the file manager by typing its path into the location bar (ctrl+L), wait
    until the window shows it (its title is the folder's name), and click an empty spot of the
    folder view so that keys go to the view again, not to the location bar."""
    yield act.keys("ctrl", "l")
    yield act.typed(sb.shown_path(folder) + "\n")
    name = folder.rstrip("/").rsplit("/", 1)[-1]
    yield from act.until(lambda: any(w["title"] == name and "pcmanfm" in w["wm_class"] for w in sb.windows()))
    yield act.click(*FM_EMPTY_SPOT)
