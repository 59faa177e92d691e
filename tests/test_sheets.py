"""The spreadsheet readers (Gnumeric, .xlsx, CSV), the Gnumeric writer and the sheet checkers, on fixture files
made in the test (real Gnumeric files from `ssconvert`, which ships with Gnumeric); no display."""

from __future__ import annotations

import gzip
import subprocess

import pytest

from hybridgym.reward import CHECKERS
from hybridgym.reward.sheets import (Cell, SheetFormatError, Workbook, cell_name, parse_ref, read_csv, read_gnumeric,
                                     read_spreadsheet, read_xlsx, sheet_equals, sheet_has_chart, shift_formula, table,
                                     values_match, with_values, write_csv, write_gnumeric)
from hybridgym.tasks.kit.desktop import read_book

CSV = "Item,Qty,Price\napple,3,1.5\npear,5,2.25\nfig,2,4\nTotal,=SUM(B2:B4),=SUM(C2:C4)\n"


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """a.csv and the same workbook converted by ssconvert to .gnumeric and .xlsx."""
    d = tmp_path_factory.mktemp("sheets")
    (d / "a.csv").write_text(CSV)
    for ext in ("gnumeric", "xlsx"):
        subprocess.run(["ssconvert", str(d / "a.csv"), str(d / f"a.{ext}")], check=True, capture_output=True)
    return d


def test_references_convert_both_ways():
    assert cell_name(0, 0) == "A1" and cell_name(6, 27) == "AB7"
    assert parse_ref("AB7") == (6, 27) and parse_ref("$c$3") == (2, 2)
    with pytest.raises(ValueError):
        parse_ref("7B")


def test_shifting_a_formula_moves_relative_references_only():
    assert shift_formula('=SUM(B2:B4)+$C$1*LOG10(A1)&"B2"', 1, 1) == '=SUM(C3:C5)+$C$1*LOG10(B2)&"B2"'


def test_gnumeric_reader_reads_values_and_expands_shared_formulas(made):
    book = read_gnumeric((made / "a.gnumeric").read_bytes())
    cells = book.sheet()
    assert cells["A2"] == Cell("apple") and cells["B3"] == Cell(5.0) and cells["C2"] == Cell(1.5)
    # Gnumeric stores C5 as a shared expression (ExprID) of B5: its own references come back
    assert cells["B5"].formula.upper() == "=SUM(B2:B4)" and cells["C5"].formula.upper() == "=SUM(C2:C4)"
    assert cells["B5"].value is None          # the native format keeps no results


def test_xlsx_reader_reads_cached_results_and_formulas(made):
    cells = read_xlsx((made / "a.xlsx").read_bytes()).sheet()
    assert cells["A1"].value == "Item" and cells["B2"].value == 3.0
    assert cells["B5"] == Cell(10.0, "=SUM(B2:B4)") and cells["C5"] == Cell(7.75, "=SUM(C2:C4)")


def test_read_book_fills_formula_results_by_recalculating(made):
    cells = read_book(made / "a.gnumeric").sheet()
    assert cells["B5"].value == 10.0 and cells["C5"].value == 7.75 and cells["B5"].formula
    assert read_book(made / "missing.gnumeric") is None


def test_writer_output_opens_in_gnumeric_and_reads_back(tmp_path):
    rows = [["Item", "Qty"], ["kettle", 3], ["ladle", 2.5], [None, "=SUM(B2:B3)"], ["flag", True]]
    data = write_gnumeric({"Stock": rows})
    assert data[:2] == b"\x1f\x8b"
    back = read_gnumeric(data)
    assert list(back.sheets) == ["Stock"]
    assert back.sheet()["B3"] == Cell(2.5) and back.sheet()["B4"].formula == "=SUM(B2:B3)"
    assert back.sheet()["B5"] == Cell(True)
    (tmp_path / "w.gnumeric").write_bytes(data)
    assert read_book(tmp_path / "w.gnumeric").sheet()["B4"].value == 5.5   # ssconvert read and computed it


def test_csv_reader_and_writer_round_trip():
    rows = [["Day", "Store", "Amount"], [1, "Baixa", 12.5], [2, "Graca, west", 3.0]]
    book = read_csv(write_csv(rows).encode())
    assert book.values() == {"A1": "Day", "B1": "Store", "C1": "Amount", "A2": 1.0, "B2": "Baixa", "C2": 12.5,
                             "A3": 2.0, "B3": "Graca, west", "C3": 3.0}


def test_readers_refuse_files_of_another_type():
    for reader, data in ((read_gnumeric, b"<html/>"), (read_gnumeric, gzip.compress(b"not xml")),
                         (read_xlsx, b"PK not a zip")):
        with pytest.raises(SheetFormatError):
            reader(data)
    with pytest.raises(SheetFormatError):
        read_spreadsheet("notes.txt", b"x")


def test_with_values_fills_only_formula_cells():
    book = Workbook({"S": {"A1": Cell("x"), "B1": Cell(None, "=1+1")}})
    out = with_values(book, {"S": {"A1": Cell("changed"), "B1": Cell(2.0)}})
    assert out.sheet()["A1"] == Cell("x") and out.sheet()["B1"] == Cell(2.0, "=1+1")


def test_values_match_numbers_within_tolerance_and_text_normalized():
    assert values_match(10.001, 10) and values_match("10.00", 10) and not values_match(10.1, 10)
    assert values_match(" Total ", "total") and not values_match("Totals", "Total")
    assert not values_match("x", 1.0) and values_match(None, None)


def test_sheet_equals_wants_exact_cells_and_formulas_where_asked():
    want = {**table([["Item", "Qty"], ["a", 3], ["b", 4]]), "B4": 7.0}
    good = Workbook({"S": {**{k: Cell(v) for k, v in want.items()}, "B4": Cell(7.0, "=SUM(B2:B3)")}})
    assert sheet_equals(good, want, formulas={"B4": "SUM"}).success
    typed = Workbook({"S": {k: Cell(v) for k, v in want.items()}})
    r = sheet_equals(typed, want, formulas={"B4": ""})
    assert not r.success and "not a formula" in r.message
    assert not sheet_equals(good, want, formulas={"B4": "AVERAGE"}).success
    extra = Workbook({"S": {**good.sheet(), "Z9": Cell("stray")}})
    assert "unexpected" in sheet_equals(extra, want).message
    wrong = Workbook({"S": {**good.sheet(), "B2": Cell(30.0)}})
    assert not sheet_equals(wrong, want).success
    assert not sheet_equals(None, want).success
    assert not sheet_equals(good, want, sheet="Other").success
    assert CHECKERS["sheet_equals"] is sheet_equals


def test_sheet_has_chart_reads_plot_type_and_series_ranges():
    graph = (b'<gnm:Workbook xmlns:gnm="http://www.gnumeric.org/v10.dtd"><gnm:Sheets><gnm:Sheet><gnm:Objects>'
             b'<gnm:SheetObjectGraph><GogObject role="Plot" type="GogBarColPlot"><GogObject role="Series"><data>'
             b'<dimension id="0" type="GnmGODataVector">S!$A$2:$A$7</dimension>'
             b'<dimension id="1" type="GnmGODataVector">S!$B$2:$B$7</dimension>'
             b'</data></GogObject></GogObject></gnm:SheetObjectGraph></gnm:Objects></gnm:Sheet></gnm:Sheets>'
             b'</gnm:Workbook>')
    data = gzip.compress(graph)
    assert sheet_has_chart(data, plot="GogBarColPlot", series="B2:B7").success
    assert not sheet_has_chart(data, plot="GogPiePlot").success
    assert not sheet_has_chart(data, series="C2:C7").success
    assert not sheet_has_chart(write_gnumeric({"S": [["a"]]})).success
    assert not sheet_has_chart(None).success


def test_expense_form_task_wants_one_report_with_the_month_total():
    import numpy as np
    from hybridgym.tasks import TASKS, Outcome
    task = TASKS["computer.sheet-to-web-form-v0"]
    p = task.sample(np.random.default_rng(0))
    base = {"files": {}, "reports": []}
    ok = {"files": {}, "reports": [{"id": 1, "month": p["month"], "total": f"{p['total']:.2f}"}]}
    assert task.check(ok, p, Outcome("", finished=True), base).success
    assert not task.check(base, p, Outcome("", finished=True), base).success
    off = {"files": {}, "reports": [{"id": 1, "month": p["month"], "total": f"{p['total'] + 1:.2f}"}]}
    assert not task.check(off, p, Outcome("", finished=True), base).success
    twice = {"files": {}, "reports": ok["reports"] * 2}
    assert not task.check(twice, p, Outcome("", finished=True), base).success


# -- the attacks on the sheet tasks' checks (issue 15): a typed constant for "a formula", collateral ------------
def test_formula_uses_wants_the_data_read_and_no_typed_result():
    from hybridgym.reward.sheets import formula_uses
    assert formula_uses("=SUM(C2:C9)", "C2:C9") is None
    assert formula_uses("=sum($C$2:$C$9)/8", "C2:C9") is None            # a small divisor is fine
    assert formula_uses("=C2+C3+C4+C5+C6+C7+C8+C9", "C2:C9") is None
    assert formula_uses('=COUNTIF(B:B,"North")', "B2:B9") is None        # a whole-column range
    assert formula_uses("=Sheet1!C2*Sheet1!D2", "C2,D2") is None
    assert "typed value" in formula_uses(None, "C2:C9")
    assert "does not read" in formula_uses("=1234.5", "C2:C9")
    assert "does not read" in formula_uses("=SUM(C2:C8)", "C2:C9")
    assert "constant" in formula_uses("=SUM(C2:C9)*0+1234.5", "C2:C9")
    assert "constant" in formula_uses("=C2*D2+0.5", "C2,D2")
    assert "does not read" in formula_uses('=COUNTIF(C2:C9,"B2:B9")', "B2:B9")   # a string is not a reference


SHEET_TASKS = ["computer.sheet-sum-column-v1", "computer.sheet-average-row-v1", "computer.sheet-summary-row-v1",
               "computer.sheet-computed-column-v1", "computer.sheet-count-if-v1", "computer.sheet-fix-values-v1",
               "computer.sheet-sort-by-column-v1", "computer.sheet-csv-to-xlsx-v1", "computer.merge-csvs-total-v1",
               "computer.grep-then-edit-sheet-v1", "computer.log-counts-to-sheet-v1",
               "computer.category-totals-to-sheet-v1", "computer.stock-from-files-to-sheet-v1"]


def _solved(task, params, typed: dict | None = None) -> Workbook:
    """The workbook a solver saves: the expected cells, formulas reading their data where asked
    (`typed`: cells whose formula text is replaced)."""
    want, _ = task.expected(params)
    reads = task.reads(params)
    cells = {ref: Cell(v, f"=F({reads[ref]})" if ref in reads else None) for ref, v in want.items()}
    for ref, formula in (typed or {}).items():
        cells[ref] = Cell(want[ref], formula)
    return Workbook({"Sheet1": cells})


def _home(params) -> dict:
    return {"files": {"Documents/keep-notes.txt": b"keep\n", "Documents/other.txt": b"x\n"}}


@pytest.mark.parametrize("task_id", SHEET_TASKS)
@pytest.mark.parametrize("seed", [0, 1000])
def test_sheet_task_passes_the_solution_and_fails_collateral(task_id, seed):
    from hybridgym.tasks import TASKS, Outcome
    task = TASKS[task_id]
    p = task.draw(seed)
    done, base = Outcome("", finished=True), _home(p)
    good = _solved(task, p)
    assert task.check({**base, "book": good}, p, done, base).success
    # "select all and apply": something written on another sheet of the workbook
    other = Workbook({**good.sheets, "Sheet2": {"A1": Cell("scratch")}})
    assert not task.check({**base, "book": other}, p, done, base).success
    # a stray cell, a changed data cell
    stray = Workbook({"Sheet1": {**good.sheet(), "Z40": Cell(1.0)}})
    assert not task.check({**base, "book": stray}, p, done, base).success
    first = next(ref for ref, c in good.sheet().items()
                 if isinstance(c.value, (int, float)) and not isinstance(c.value, bool) and not c.formula)
    changed = Workbook({"Sheet1": {**good.sheet(), first: Cell(good.sheet()[first].value + 7)}})
    assert not task.check({**base, "book": changed}, p, done, base).success
    # another file of the home damaged or gone
    damaged = {"files": {"Documents/keep-notes.txt": b"keep\n"}}
    assert not task.check({**damaged, "book": good}, p, done, base).success


FORMULA_TASKS = ["computer.sheet-sum-column-v1", "computer.sheet-average-row-v1", "computer.sheet-summary-row-v1",
                 "computer.sheet-computed-column-v1", "computer.sheet-count-if-v1", "computer.merge-csvs-total-v1"]


@pytest.mark.parametrize("task_id", FORMULA_TASKS)
def test_formula_tasks_refuse_a_typed_constant(task_id):
    from hybridgym.tasks import TASKS, Outcome
    task = TASKS[task_id]
    p = task.draw(3)
    done, base = Outcome("", finished=True), _home(p)
    want, _ = task.expected(p)
    ref, area = next(iter(task.reads(p).items()))
    first = area.split(",")[0].split(":")[0]
    for cheat in (f"={want[ref]}", f"={first}*0+{want[ref]}", None):
        book = _solved(task, p, {ref: cheat})
        assert not task.check({**base, "book": book}, p, done, base).success, cheat
