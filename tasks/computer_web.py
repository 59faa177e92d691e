"""Computer tasks across the browser and the spreadsheet: downloads, a rate, a table and a web form.

## Description
Chromium shows a page of the env's local web server (a download link, an exchange rate,
a table, or the expense report form); Gnumeric is open on an empty workbook or the task's
workbook. The agent downloads a CSV and saves it as a workbook (with a total, or as .xlsx),
converts prices at the shown rate, copies the table, or submits a month's total in the
form. Files a page offers are served per episode (`sb.server.route`); the desktop's
Chromium saves them to ~/Downloads/ without asking.

## Action Space / Observation Space
Those of `ComputerEnv` (the whole 1280×800 desktop; clicks, keys, typing, scrolls). No SDK.

## Rewards
1.0 when the saved workbook holds exactly the expected cells (`sheet_equals`, read back
with `read_book`; ±0.01 for converted prices), or, for the form, the server's records hold
exactly one report with the month and total (±0.01); every other file of the home intact.

## Starting State
The page's data and the workbook drawn from the seed; Gnumeric and Chromium opened
together (`sb.open_apps`), the page loaded from the env's web server.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1 (the sheet tasks: web-download-to-xlsx, web-download-total, web-rate-convert, web-table-to-sheet):
  the workbook's other sheets must stay empty; web-download-total's total must be a formula that
  reads the amounts (C2:Cn), not a typed constant.
"""

from __future__ import annotations

from typing import ClassVar, Iterator

from hybridgym.reward.checkers import all_of, holds
from hybridgym.reward.sheets import table, values_match, write_csv
from hybridgym.sandbox import Response

from .base import Task, register_task
from .kit import actions as act
from .kit.data import MONTHS, money, pick
from .kit.desktop import (CITIES, GOODS, NAMES, REGIONS, SALES_HEADER, WORDS, SheetTask, await_file, book_bytes,
                          distractors, doc_name, files_intact, goto_cell, home_state, open_workbook, place,
                          sales_rows, save_workbook_as, screen_shows, switch_to)

#: where the page's viewport starts on the screen in the desktop's Chromium window
_VIEWPORT_Y = 87
#: the big first link/button of a page (office.css `.primary`: at 40,120 CSS px, 320x56)
_PRIMARY = (200, _VIEWPORT_Y + 148)
#: the expense form page (assets/desktop/web/expense-form.html), in screen pixels: its first field, its button,
#: and the x of the fields' left edge, dark where Chromium draws the focus ring
_FORM_MONTH, _FORM_SUBMIT, _FORM_EDGE_X = (190, _VIEWPORT_Y + 168), (190, _VIEWPORT_Y + 314), 41


def _page_blue(px: list[int]) -> bool:
    """office.css's button colour (#2f5d9b) at a point: the page has been drawn."""
    return px[2] > 120 and px[0] < 90


def _serve_page(sb, route: str, title: str, body: str) -> None:
    """A page of the desktop's web server (office.css: fixed layout, so positions are predictable)."""
    html = (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title>"
            f"<link rel='stylesheet' href='/office.css'></head><body>{body}</body></html>")
    sb.server.route(route, lambda req: Response(200, html, "text/html; charset=utf-8"))


class _DownloadTask(SheetTask):
    """A CSV (`params["rows"]`) offered for download as `params["file"]` on the page `page` of the env's web
    server; Gnumeric is open on an empty workbook. The checker reads the workbook saved as `params["out"]`."""

    book = "out"
    max_steps = 25
    page: ClassVar[str] = ""
    page_title: ClassVar[str] = ""

    def link(self, params: dict) -> str:
        """The download link's text."""
        raise NotImplementedError

    def setup(self, sb, params):
        place(sb, params["others"])
        (sb.workspace.root / "Documents").mkdir(exist_ok=True)
        href, csv = f"{self.page}/{params['file']}", write_csv(params["rows"])
        sb.server.route(href, lambda req: Response(200, csv, "text/csv", {
            "Content-Disposition": f'attachment; filename="{params["file"]}"'}))
        _serve_page(sb, self.page, self.page_title,
                    f"<h1>{self.page_title}</h1><a class='primary' href='{href}'>{self.link(params)}</a>")
        sb.open_apps("spreadsheet", ("browser", sb.server.url(self.page)))

    def download(self, sb, params: dict) -> Iterator[dict]:
        """Click the link, wait for the file in Downloads/ and open it in Gnumeric."""
        dl = f"Downloads/{params['file']}"
        sb.wait_ready(title=self.page_title)
        screen_shows(sb, _page_blue, (50, _PRIMARY[1]), timeout=8.0)    # the page has drawn its link
        yield act.click(*_PRIMARY)
        yield from await_file(sb, dl)
        yield from switch_to(sb, "Gnumeric")
        yield from open_workbook(sb, dl)


@register_task(id="computer.web-download-total-v1")
class WebDownloadTotal(_DownloadTask):
    """Multi-app: download a CSV report in the browser, add its total in the spreadsheet, save as a workbook.

    Chromium shows a page of the env's web server with a download link; Gnumeric
    is open on an empty workbook. The checker reads Documents/<out>.gnumeric: the
    report's cells, and a formula cell with the Amount total.
    """

    page, page_title = "/reports", "Sales reports"

    def sample(self, rng):
        n = int(rng.integers(5, 9))
        names = pick(rng, NAMES, n)
        rows = [["Rep", "Region", "Amount"]] + [[names[i], pick(rng, REGIONS), money(rng, 100, 900)]
                                               for i in range(n)]
        month = pick(rng, MONTHS)
        return {"rows": rows, "month": month, "file": f"sales-{month.lower()}.csv",
                "out": f"Documents/{doc_name(rng, month.lower())}.gnumeric", "cell": f"C{n + 3}",
                "others": distractors(rng)}

    def instruction(self, params):
        return (f"Download the {params['month']} sales report (CSV) from the page open in the web browser, open it "
                f"in the spreadsheet, put the total of the Amount column in cell {params['cell']} with a formula, "
                f"and save it as a Gnumeric workbook {params['out']}.")

    def link(self, params):
        return f"{params['month']} report (CSV)"

    def reads(self, params):
        return {params["cell"]: f"C2:C{len(params['rows'])}"}

    def expected(self, params):
        total = round(sum(r[2] for r in params["rows"][1:]), 6)
        return {**table(params["rows"]), params["cell"]: total}, {params["cell"]: ""}

    def oracle(self, sb, params):
        yield from self.download(sb, params)
        yield from goto_cell(sb, params["cell"])
        yield act.typed(f"=SUM(C2:C{len(params['rows'])})\n")
        yield from save_workbook_as(sb, params["out"])
        yield act.finish()


@register_task(id="computer.web-download-to-xlsx-v1")
class WebDownloadToXlsx(_DownloadTask):
    """Multi-app: download a CSV price list in the browser and save it as an Excel workbook (.xlsx) with the spreadsheet.

    The checker reads Documents/<name>.xlsx with the zip/XML parser: the list's cells, numbers as numbers.
    """

    page, page_title = "/prices", "Price lists"

    def sample(self, rng):
        rows = [SALES_HEADER] + sales_rows(rng, int(rng.integers(4, 8)))
        supplier = pick(rng, WORDS).capitalize()
        return {"rows": rows, "supplier": supplier, "file": f"{supplier.lower()}-prices.csv",
                "out": f"Documents/{supplier.lower()}-prices.xlsx", "others": distractors(rng)}

    def instruction(self, params):
        return (f"Download the {params['supplier']} price list (CSV) from the page open in the web browser and "
                f"save it, with the same data, as an Excel workbook {params['out']} using the spreadsheet.")

    def link(self, params):
        return f"{params['supplier']} prices (CSV)"

    def expected(self, params):
        return table(params["rows"]), {}

    def oracle(self, sb, params):
        yield from self.download(sb, params)
        yield from save_workbook_as(sb, params["out"], xlsx=True)
        yield act.finish()


@register_task(id="computer.web-rate-convert-v1")
class WebRateConvert(SheetTask):
    """Multi-app: read an exchange rate on a web page and add a converted-price column in the spreadsheet.

    The browser shows "1 EUR = r USD"; Gnumeric has a workbook with Item and EUR
    columns. The checker reads the saved file: header USD in C1 and each row's
    price × r (±0.01), the rest unchanged.
    """

    tol = 0.01
    focus = "Gnumeric"

    def sample(self, rng):
        n = int(rng.integers(4, 8))
        items = pick(rng, GOODS, n)
        rows = [["Item", "EUR"]] + [[items[i], money(rng, 5, 200)] for i in range(n)]
        return {"path": f"Documents/{doc_name(rng, 'prices')}.gnumeric", "rows": rows,
                "rate": round(float(rng.uniform(1.02, 1.35)), 4), "others": distractors(rng)}

    def instruction(self, params):
        return (f"The web browser shows today's euro to US dollar rate. In {params['path']} (in the spreadsheet), "
                "add the header USD in cell C1 and, in column C of each row, the row's EUR price converted to US "
                "dollars at that rate. Save the file.")

    def setup(self, sb, params):
        _serve_page(sb, "/rates", "Exchange rates",
                    f"<h1>Exchange rates</h1><div class='big'>1 EUR = {params['rate']} USD</div>")
        place(sb, {params["path"]: book_bytes(params["rows"]), **params["others"]})
        sb.open_apps(("spreadsheet", params["path"]), ("browser", sb.server.url("/rates")))

    def expected(self, params):
        rows = params["rows"]
        want = {**table(rows), "C1": "USD"}
        want.update({f"C{i + 1}": rows[i][1] * params["rate"] for i in range(1, len(rows))})
        return want, {}

    def entries(self, params):
        return [("C1", "USD\n" + "".join(f"=B{i}*{params['rate']}\n" for i in range(2, len(params["rows"]) + 1)))]


@register_task(id="computer.sheet-to-web-form-v0")
class SheetToWebForm(Task):
    """Multi-app: total a month's expenses in the spreadsheet and submit the total through a web form.

    Gnumeric shows Documents/expenses-*.gnumeric (Date, Month, Description, Amount;
    two months mixed); the browser shows the expense-report form of the env's
    web server. The checker reads the server's records: exactly one report,
    for the asked month, with the right total (±0.01).
    """

    suite = "computer"
    max_steps = 15

    def sample(self, rng):
        m = int(rng.integers(0, 11))
        months = MONTHS[m:m + 2]
        rows = [["Day", "Month", "Description", "Amount"]]
        for _ in range(int(rng.integers(8, 13))):
            rows.append([int(rng.integers(1, 29)), pick(rng, months), pick(rng, GOODS), money(rng, 4, 150)])
        month = pick(rng, months)
        if not any(r[1] == month for r in rows[1:]):
            rows[1][1] = month
        total = round(sum(r[3] for r in rows[1:] if r[1] == month), 2)
        return {"path": f"Documents/{doc_name(rng, 'expenses')}.gnumeric", "rows": rows, "month": month,
                "total": total, "others": distractors(rng)}

    def instruction(self, params):
        return (f"Add up the {params['month']} expenses in {params['path']} (open in the spreadsheet) and submit "
                f"the total through the expense report form in the web browser (month {params['month']}).")

    def setup(self, sb, params):
        place(sb, {params["path"]: book_bytes(params["rows"]), **params["others"]})
        sb.server.store.load({"reports": []}, {"reports": ("month", "total")})
        sb.open_apps(("browser", sb.server.url("/expense-form.html")), ("spreadsheet", params["path"]))

    def read_state(self, sb, params):
        return {**home_state(sb), "reports": sb.server.store.snapshot()["reports"]}

    def check(self, state, params, outcome, baseline):
        reports = state["reports"]
        one = holds("one report submitted", len(reports) == 1,
                    f"{len(reports)} expense reports were submitted, expected exactly 1")
        got = reports[0] if one.success else {}
        why = f"not judged: {one.message}"
        month = holds("the report's month", one.success and values_match(str(got.get("month", "")), params["month"]),
                      why if not one.success else f"the report is for {got.get('month')!r}, not {params['month']}")
        total = holds("the report's total",
                      one.success and values_match(str(got.get("total", "")), params["total"], tol=0.01),
                      why if not one.success else f"the report's total is {got.get('total')!r}, not {params['total']:.2f}",
                      f"report for {params['month']}: {params['total']:.2f}")
        return all_of(one, month, total, files_intact(state, baseline))

    def oracle(self, sb, params):
        sb.wait_ready(title="Expense report")
        yield from switch_to(sb, "Expense report")
        screen_shows(sb, _page_blue, (60, _FORM_SUBMIT[1]), timeout=8.0)   # the form is drawn
        for _ in range(3):    # a page just brought up drops input a moment: click until its focus ring shows
            yield act.click(*_FORM_MONTH)
            if screen_shows(sb, lambda px: px[0] < 60, (_FORM_EDGE_X, _FORM_MONTH[1])):
                break
        # Tab to the total and Enter to submit: keys reach the page in order, a click on the next field
        # can land after the first keys
        yield act.typed(f"{params['month']}\t{params['total']:.2f}\n")
        yield from act.until(lambda: bool(sb.server.store.snapshot()["reports"]), tries=8)
        yield act.finish()


@register_task(id="computer.web-table-to-sheet-v1", max_steps=15)
class WebTableToSheet(SheetTask):
    """Multi-app: copy a small table shown on a web page into a new spreadsheet and save it.

    The browser shows a table (City, Rain in mm); Gnumeric is open on an empty
    workbook. The checker reads Documents/<name>.gnumeric: the same cells from A1,
    numbers as numbers.
    """

    book = "out"

    def sample(self, rng):
        n = int(rng.integers(4, 7))
        rows = [["City", "Rain"]] + [[c, int(rng.integers(5, 250))] for c in pick(rng, CITIES, n)]
        return {"rows": rows, "out": f"Documents/{doc_name(rng, 'rain')}.gnumeric", "others": distractors(rng)}

    def instruction(self, params):
        return ("Copy the rainfall table shown in the web browser (header row included) into a new spreadsheet, "
                f"starting at cell A1, and save it as the Gnumeric workbook {params['out']}.")

    def setup(self, sb, params):
        place(sb, params["others"])
        head, *body = params["rows"]
        html = ("<table class='data'><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"
                + "".join("<tr>" + "".join(f"<td>{v}</td>" for v in r) + "</tr>" for r in body) + "</table>")
        _serve_page(sb, "/rain", "Rainfall", f"<h1>Rainfall last month (mm)</h1>{html}")
        sb.open_apps("spreadsheet", ("browser", sb.server.url("/rain")))

    def expected(self, params):
        return table(params["rows"]), {}

    def oracle(self, sb, params):
        yield from switch_to(sb, "Gnumeric")
        yield from goto_cell(sb, "A1")
        yield act.typed("".join("\t".join(str(v) for v in r) + "\n" for r in params["rows"]))
        yield from save_workbook_as(sb, params["out"])
        yield act.finish()
