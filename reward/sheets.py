"""Spreadsheet files as data: pure readers of Gnumeric, .xlsx and CSV files, a Gnumeric writer, and sheet checkers.

A workbook is read into `Workbook`: sheets in order, each a dict from A1-style
references ("B7") to `Cell(value, formula)`. Numbers are floats, text is str,
booleans are bool; `formula` is the cell's formula text ("=SUM(B2:B9)") or None.

Gnumeric's native format (gzip-compressed XML) stores formulas but not their
results, so a reader of a saved `.gnumeric` file gives formula cells the value
None; `with_values(book, computed)` fills them from the same workbook
recalculated elsewhere (the tasks export it to CSV with `ssconvert`, which
ships with Gnumeric). `.xlsx` files carry cached results and are read with
`zipfile` and `xml.etree` only.
"""

from __future__ import annotations

import csv
import gzip
import io
import math
import re
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from .checkers import CheckResult, Condition, all_of, checker, judged, normalize_text, not_judged

Value = float | str | bool | None


@dataclass(frozen=True)
class Cell:
    value: Value
    formula: str | None = None


@dataclass
class Workbook:
    """Sheets in file order: name -> {"A1": Cell}."""
    sheets: dict[str, dict[str, Cell]] = field(default_factory=dict)

    def sheet(self, name: str | None = None) -> dict[str, Cell]:
        """A sheet by name, or the first sheet (None)."""
        if name is None:
            return next(iter(self.sheets.values()), {})
        return self.sheets.get(name, {})

    def values(self, name: str | None = None) -> dict[str, Value]:
        return {ref: c.value for ref, c in self.sheet(name).items()}


class SheetFormatError(ValueError):
    """A file that is not the spreadsheet format it was read as."""


# -- references ----------------------------------------------------------------
_REF = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+)$")


def col_name(col: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA"."""
    out = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


def cell_name(row: int, col: int) -> str:
    """0-based (row, col) -> "A1"-style reference."""
    return f"{col_name(col)}{row + 1}"


def parse_ref(ref: str) -> tuple[int, int]:
    """"B7" -> 0-based (6, 1)."""
    m = _REF.match(ref.strip())
    if not m:
        raise ValueError(f"not a cell reference: {ref!r} (expected e.g. 'B7')")
    col = 0
    for ch in m.group(1).upper():
        col = col * 26 + ord(ch) - 64
    return int(m.group(2)) - 1, col - 1


def table(rows: Sequence[Sequence[Value]], top_left: str = "A1") -> dict[str, Value]:
    """Rows of values placed from `top_left` -> {"A1": value}; None and "" are left out."""
    r0, c0 = parse_ref(top_left)
    return {cell_name(r0 + i, c0 + j): v for i, row in enumerate(rows) for j, v in enumerate(row)
            if v is not None and v != ""}


# a relative or absolute reference inside a formula (not a function name: no "(" after it)
_FORMULA_REF = re.compile(r"(?<![A-Za-z0-9_.])(\$?)([A-Za-z]{1,3})(\$?)(\d+)(?![A-Za-z0-9_(])")


def shift_formula(formula: str, drow: int, dcol: int) -> str:
    """Move the relative references of a formula by (drow, dcol), as copying the cell does."""
    def move(m: re.Match) -> str:
        cabs, col, rabs, row = m.groups()
        c = parse_ref(f"{col}1")[1] + (0 if cabs else dcol)
        r = int(row) + (0 if rabs else drow)
        return f"{cabs}{col_name(c)}{rabs}{r}"
    parts = re.split(r'("[^"]*")', formula)   # leave string literals alone
    return "".join(p if p.startswith('"') else _FORMULA_REF.sub(move, p) for p in parts)


def number(text: str) -> float | None:
    """A float if `text` is a plain number ("1,234.5", "-3", "12%" are too), else None."""
    t = text.strip().replace(",", "")
    pct = t.endswith("%")
    if pct:
        t = t[:-1]
    if not re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", t):
        return None
    v = float(t)
    return v / 100 if pct else v


# -- readers -------------------------------------------------------------------
def read_csv(data: bytes, sheet_name: str = "Sheet1") -> Workbook:
    """A CSV file as a one-sheet workbook; numeric fields become floats."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SheetFormatError(f"CSV is not UTF-8 text: {e}") from None
    cells: dict[str, Cell] = {}
    for r, row in enumerate(csv.reader(io.StringIO(text))):
        for c, field_ in enumerate(row):
            if field_ == "":
                continue
            num = number(field_)
            cells[cell_name(r, c)] = Cell(num if num is not None else field_)
    return Workbook({sheet_name: cells})


_GNM_TYPES = {"20": "bool", "30": "int", "40": "float", "50": "error", "60": "string"}


def read_gnumeric(data: bytes) -> Workbook:
    """Gnumeric's native file (gzip-compressed or plain XML) -> Workbook.

    Formula cells keep their formula text (shared expressions, `ExprID`, are
    expanded to each cell's own references) and get the value None.
    """
    raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        raise SheetFormatError(f"not a Gnumeric file (XML does not parse: {e})") from None
    if not root.tag.endswith("Workbook"):
        raise SheetFormatError(f"not a Gnumeric file (root element {root.tag!r})")
    book = Workbook()
    for sheet in root.iter():
        if not sheet.tag.endswith("}Sheet"):
            continue
        name = next((ch.text or "" for ch in sheet if ch.tag.endswith("}Name")), f"Sheet{len(book.sheets) + 1}")
        cells: dict[str, Cell] = {}
        shared: dict[str, tuple[int, int, str]] = {}
        pending: list[tuple[int, int, str]] = []
        for el in sheet.iter():
            if not el.tag.endswith("}Cell"):
                continue
            r, c = int(el.get("Row")), int(el.get("Col"))
            text = el.text or ""
            expr_id, vtype = el.get("ExprID"), el.get("ValueType")
            if vtype is None and (text.startswith("=") or expr_id):
                if text.startswith("="):
                    if expr_id:
                        shared[expr_id] = (r, c, text)
                    cells[cell_name(r, c)] = Cell(None, text)
                else:
                    pending.append((r, c, expr_id))
                continue
            kind = _GNM_TYPES.get(vtype or "", "string")
            if kind in ("float", "int"):
                value: Value = float(text)
            elif kind == "bool":
                value = text.strip().upper() == "TRUE"
            else:
                value = text
            if value != "":
                cells[cell_name(r, c)] = Cell(value)
        for r, c, expr_id in pending:
            if expr_id not in shared:
                raise SheetFormatError(f"cell {cell_name(r, c)} refers to an undefined shared expression {expr_id}")
            r0, c0, text = shared[expr_id]
            cells[cell_name(r, c)] = Cell(None, shift_formula(text, r - r0, c - c0))
        book.sheets[name] = cells
    return book


_X = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def read_xlsx(data: bytes) -> Workbook:
    """An Office Open XML workbook (.xlsx) -> Workbook, with cached formula results."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        wb = ET.fromstring(z.read("xl/workbook.xml"))
        rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    except (zipfile.BadZipFile, KeyError, ET.ParseError) as e:
        raise SheetFormatError(f"not an .xlsx workbook: {e}") from None
    targets = {r.get("Id"): r.get("Target") for r in rels}
    strings: list[str] = []
    if "xl/sharedStrings.xml" in z.namelist():
        for si in ET.fromstring(z.read("xl/sharedStrings.xml")).iter(_X + "si"):
            strings.append("".join(t.text or "" for t in si.iter(_X + "t")))
    book = Workbook()
    for sh in wb.iter(_X + "sheet"):
        target = targets.get(sh.get(_R + "id"), "")
        path = target.lstrip("/") if target.startswith("/") else "xl/" + target
        root = ET.fromstring(z.read(path))
        cells: dict[str, Cell] = {}
        shared: dict[str, tuple[int, int, str]] = {}
        for c in root.iter(_X + "c"):
            ref, t = c.get("r"), c.get("t", "n")
            f, v = c.find(_X + "f"), c.find(_X + "v")
            formula = None
            if f is not None:
                if f.text:
                    formula = "=" + f.text
                    if f.get("t") == "shared":
                        shared[f.get("si")] = (*parse_ref(ref), formula)
                elif f.get("t") == "shared" and f.get("si") in shared:
                    r0, c0, text = shared[f.get("si")]
                    r, col = parse_ref(ref)
                    formula = shift_formula(text, r - r0, col - c0)
            if t == "inlineStr":
                value: Value = "".join(x.text or "" for x in c.iter(_X + "t"))
            elif v is None or v.text is None:
                value = None
            elif t == "s":
                value = strings[int(v.text)]
            elif t == "b":
                value = v.text.strip() == "1"
            elif t in ("str", "e"):
                value = v.text
            else:
                value = float(v.text)
            if value not in (None, "") or formula:
                cells[ref] = Cell(value, formula)
        book.sheets[sh.get("name")] = cells
    return book


def read_spreadsheet(name: str, data: bytes) -> Workbook:
    """Read by the file name's extension: .gnumeric, .xlsx or .csv."""
    low = name.lower()
    if low.endswith(".gnumeric"):
        return read_gnumeric(data)
    if low.endswith(".xlsx"):
        return read_xlsx(data)
    if low.endswith(".csv"):
        return read_csv(data)
    raise SheetFormatError(f"{name}: unknown spreadsheet type (expected .gnumeric, .xlsx or .csv)")


def with_values(book: Workbook, computed: Mapping[str, Workbook | dict[str, Cell]]) -> Workbook:
    """`book` with the values of formula cells taken from `computed` (sheet name -> recalculated sheet)."""
    out = Workbook()
    for name, cells in book.sheets.items():
        other = computed.get(name)
        other = other.sheet() if isinstance(other, Workbook) else (other or {})
        out.sheets[name] = {ref: (Cell(other[ref].value if ref in other else None, c.formula) if c.formula else c)
                            for ref, c in cells.items()}
    return out


# -- writer ------------------------------------------------------------------------
_GNM_NS = "http://www.gnumeric.org/v10.dtd"


def write_gnumeric(sheets: Mapping[str, Sequence[Sequence[Value]]]) -> bytes:
    """A gzip-compressed Gnumeric file with the given sheets (name -> rows of values;
    a str starting with "=" is a formula)."""
    ET.register_namespace("gnm", _GNM_NS)
    g = lambda tag: f"{{{_GNM_NS}}}{tag}"  # noqa: E731
    wb = ET.Element(g("Workbook"))
    index = ET.SubElement(wb, g("SheetNameIndex"))
    all_sheets = ET.SubElement(wb, g("Sheets"))
    for name, rows in sheets.items():
        sn = ET.SubElement(index, g("SheetName"), {g("Cols"): "256", g("Rows"): "65536"})
        sn.text = name
        sheet = ET.SubElement(all_sheets, g("Sheet"))
        ET.SubElement(sheet, g("Name")).text = name
        ET.SubElement(sheet, g("MaxCol")).text = str(max((len(r) for r in rows), default=1) - 1)
        ET.SubElement(sheet, g("MaxRow")).text = str(max(len(rows) - 1, 0))
        cells = ET.SubElement(sheet, g("Cells"))
        for r, row in enumerate(rows):
            for c, v in enumerate(row):
                if v is None or v == "":
                    continue
                attrs = {"Row": str(r), "Col": str(c)}
                if isinstance(v, bool):
                    attrs["ValueType"], text = "20", "TRUE" if v else "FALSE"
                elif isinstance(v, (int, float)):
                    attrs["ValueType"], text = "40", repr(float(v)) if not float(v).is_integer() else str(int(v))
                elif v.startswith("="):
                    text = v
                else:
                    attrs["ValueType"], text = "60", v
                ET.SubElement(cells, g("Cell"), attrs).text = text
    raw = b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(wb, encoding="utf-8")
    return gzip.compress(raw, mtime=0)


def write_csv(rows: Sequence[Sequence[Value]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for row in rows:
        w.writerow(["" if v is None else (_fmt(v) if isinstance(v, float) else v) for v in row])
    return buf.getvalue()


def _fmt(v: float) -> str:
    return str(int(v)) if v.is_integer() else repr(v)


# -- checkers ---------------------------------------------------------------------
def values_match(got: Value, want: Value, tol: float = 0.005) -> bool:
    """Numbers within `tol` (a number typed as text counts), text equal after normalizing."""
    if isinstance(want, bool) or isinstance(got, bool):
        return got == want
    if isinstance(want, (int, float)):
        g = got if isinstance(got, (int, float)) else (number(got) if isinstance(got, str) else None)
        return g is not None and math.isfinite(g) and abs(g - want) <= tol
    if want is None:
        return got in (None, "")
    return isinstance(got, str) and normalize_text(got) == normalize_text(str(want))


def cells_of(area: str) -> set[str]:
    """The cells of a reference or range ("B7", "C2:C9", "A1:D3"), as "A1"-style names."""
    a, _, b = area.replace("$", "").partition(":")
    (r0, c0), (r1, c1) = parse_ref(a), parse_ref(b or a)
    return {cell_name(r, c) for r in range(min(r0, r1), max(r0, r1) + 1) for c in range(min(c0, c1), max(c0, c1) + 1)}


# a range "C2:C9" / "$C$2:$C$9", a whole-column range "C:C" or one reference, optionally "Sheet!"-prefixed
_AREA = re.compile(r"(?<![A-Za-z0-9_.])(?:(?:'[^']*'|[A-Za-z_][A-Za-z0-9_]*)!)?"
                   r"(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3})"
                   r"(?![A-Za-z0-9_(])")
_LITERAL = re.compile(r"(?<![A-Za-z0-9_.$])(\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![A-Za-z0-9_(])")
#: the largest numeric literal a formula may hold where it must compute from the data (a divisor, a count)
MAX_LITERAL = 100


def formula_reads(formula: str, rows: int = 1000) -> set[str]:
    """Every cell a formula's references cover (string literals left out; "C:C" read as C1..C`rows`)."""
    out: set[str] = set()
    for part in re.split(r'("[^"]*")', formula):
        if part.startswith('"'):
            continue
        for m in _AREA.finditer(part):
            area = m.group(1).replace("$", "")
            if re.fullmatch(r"[A-Za-z]{1,3}:[A-Za-z]{1,3}", area):
                a, b = area.split(":")
                area = f"{a}1:{b}{rows}"
            out |= cells_of(area)
    return out


def formula_literals(formula: str) -> list[float]:
    """The numeric literals of a formula (references and string literals left out)."""
    out = []
    for part in re.split(r'("[^"]*")', formula):
        if part.startswith('"'):
            continue
        part = _AREA.sub(" ", part)
        out += [float(m.group(0)) for m in _LITERAL.finditer(part)]
    return out


def formula_uses(formula: str | None, needs: str) -> str | None:
    """Why `formula` does not compute from the cells `needs` ("C2:C9"; several areas comma-separated),
    or None when it reads all of them and holds no numeric constant above `MAX_LITERAL` (no typed result
    in disguise: "=1234.5", "=C2*0+1234.5")."""
    if not formula:
        return "holds a typed value, not a formula"
    want: set[str] = set()
    for area in needs.split(","):
        want |= cells_of(area.strip())
    missing = want - formula_reads(formula)
    if missing:
        return f"holds the formula {formula}, which does not read {sorted(missing, key=parse_ref)[:4]} of {needs}"
    big = [v for v in formula_literals(formula) if abs(v) > MAX_LITERAL or v != int(v)]
    if big:
        return f"holds the formula {formula}, with the constant {big[0]:g} typed in: compute it from the cells"
    return None


@checker
def sheet_equals(book: Workbook | None, expected: Mapping[str, Value], *, sheet: str | None = None,
                 formulas: Mapping[str, str] = {}, tol: float = 0.005, where: str = "the sheet",
                 reads: Mapping[str, str] = {}, only_sheet: bool = False) -> CheckResult:
    """The sheet holds exactly `expected` ({"B7": value}; no other non-empty cell), and each
    cell in `formulas` holds a formula that uses the given function ("" = any formula).

    `reads` ({"B10": "B2:B9"}) asks more of a formula cell: it computes from the data, reading every
    cell of the given areas and typing no constant result (`formula_uses`). `only_sheet`: every other
    sheet of the workbook is empty (the workbook had one sheet: nothing may be added elsewhere)."""
    names = ["the expected values", *(["formulas"] if formulas else []), *(["formulas read the data"] if reads else [])]
    if book is None or (sheet is not None and sheet not in book.sheets):
        why = (f"{where} does not exist or could not be read" if book is None else
               f"{where} has no sheet {sheet!r} (sheets: {list(book.sheets)})")
        return judged([Condition(f"{where} can be read", False, why, guard=True), *not_judged(names, why)], "")
    cells = book.sheet(sheet)
    conditions = []
    if only_sheet:
        first = sheet if sheet is not None else next(iter(book.sheets), None)
        filled = [n for n, cs in book.sheets.items()
                  if n != first and any(c.value not in (None, "") or c.formula for c in cs.values())]
        conditions.append(Condition("other sheets empty", not filled,
                                    f"{where}: the sheets {filled} were changed too (only {first!r} was asked)", guard=True))
    wrong = [f"{ref}={cells[ref].value if ref in cells else None!r} (want {v!r})"
             for ref, v in expected.items() if not values_match(cells[ref].value if ref in cells else None, v, tol)]
    extra = [ref for ref, c in cells.items() if ref not in expected and c.value not in (None, "")]
    values = Condition("the expected values", not wrong and not extra,
                       f"{where}: wrong cells {wrong[:4]}" + (f", unexpected cells {sorted(extra)[:4]}" if extra else ""))
    conditions.append(values)
    reward = 0.5 * (len(expected) - len(wrong)) / max(1, len(expected)) if not values.held else 0.5
    if not all(c.held for c in conditions if c.guard):
        reward = 0.0
    if formulas:
        why = None
        for ref, fn in formulas.items():
            f = cells[ref].formula if ref in cells else None
            if not f:
                why = f"{where}: {ref} holds a typed value, not a formula"
            elif fn and not re.search(rf"\b{re.escape(fn)}\s*\(", f, re.I):
                why = f"{where}: the formula in {ref} ({f}) does not use {fn}()"
            if why:
                break
        conditions.append(Condition("formulas", why is None, why or ""))
    if reads:
        why = next((f"{where}: {ref} {w}" for ref, needs in reads.items()
                    for w in [formula_uses(cells[ref].formula if ref in cells else None, needs)] if w), None)
        conditions.append(Condition("formulas read the data", why is None, why or ""))
    return judged(conditions, f"{where} holds the expected {len(expected)} cells", reward=reward)


def charts(data: bytes) -> list[dict]:
    """The charts of a Gnumeric file: for each, its plot types ("GogBarColPlot", ...) and the cell ranges
    its series read ("A2:A7", sheet names and "$" left out)."""
    raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        raise SheetFormatError(f"not a Gnumeric file (XML does not parse: {e})") from None
    out = []
    for graph in root.iter():
        if not graph.tag.endswith("}SheetObjectGraph"):
            continue
        plots = [el.get("type") for el in graph.iter() if el.get("role") == "Plot"]
        ranges = [(d.text or "").split("!")[-1].replace("$", "") for d in graph.iter("dimension")]
        out.append({"plots": plots, "ranges": ranges})
    return out


@checker
def sheet_has_chart(data: bytes | None, plot: str | None = None, series: str | None = None,
                    where: str = "the workbook") -> CheckResult:
    """A Gnumeric file (raw bytes) holds a chart, of plot type `plot` if given (e.g. "GogBarColPlot"
    for bar and column charts), with a series reading the range `series` if given (e.g. "B2:B7")."""
    if not data:
        return CheckResult.failed(f"{where} does not exist")
    try:
        found = charts(data)
    except (SheetFormatError, OSError, EOFError) as e:
        return CheckResult.failed(f"{where} could not be read: {e}")
    if not found:
        return CheckResult.failed(f"{where} holds no chart")
    for c in found:
        if (plot is None or plot in c["plots"]) and (series is None or series.replace("$", "") in c["ranges"]):
            return CheckResult.passed(f"{where} holds a chart {c['plots']} of {c['ranges']}")
    return CheckResult.failed(f"{where} holds charts {found}, none a {plot or 'chart'} of {series or 'the data'}",
                              reward=0.5)


__all__ = ["Cell", "Workbook", "SheetFormatError", "cell_name", "col_name", "parse_ref", "table", "shift_formula",
           "number", "read_csv", "read_gnumeric", "read_xlsx", "read_spreadsheet", "with_values",
           "write_gnumeric", "write_csv", "values_match", "cells_of", "formula_reads", "formula_literals",
           "formula_uses", "sheet_equals", "charts", "sheet_has_chart", "all_of"]
