"""Computer tasks with two desktop apps together: read in one (editor, viewer, calculator, sheet), write in another.

## Description
Add up receipts listed in a text file and enter the sum in a budget workbook; read a code
or a meter reading drawn in a picture (Ristretto) and save it in a text file or a readings
log; compute with the calculator and save the result; find the top scorer in a workbook
and save the name. Both apps are open; the agent switches between them (the panel's task
list, or a click on a visible window).

## Action Space / Observation Space
Those of `ComputerEnv` (the whole 1280×800 desktop; clicks, keys, typing, scrolls). No SDK.

## Rewards
1.0 when the written file holds exactly the asked text (`file_text_equals`, one final
newline allowed), or the saved workbook exactly the expected cells (`sheet_equals`, read
back with `read_book`), and every other file of the home is intact.

## Starting State
The documents, pictures (drawn with PIL: big text on a card) and workbooks drawn from the
seed; the two apps opened together (`sb.open_apps`), the last one focused.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1 (editor-numbers-to-sheet, image-number-to-sheet): the workbook's other sheets must stay
  empty; image-number-to-sheet draws real dates (it drew days like 2025-03-43), in the year of the
  seed's split.
"""

from __future__ import annotations

import io
from datetime import date, timedelta
from typing import Iterator

import numpy as np

from hybridgym.reward.sheets import table

from .base import Task, register_task
from .kit import actions as act
from .kit.data import money, pick
from .kit.desktop import (GOODS, NAMES, WORDS, SheetTask, book_bytes, distractors, doc_name, editor_save_as, goto_cell,
                          home_state, place, switch_to, wrote_text, year)

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
_RISTRETTO_SETTINGS = {".config/xfce4/xfconf/xfce-perchannel-xml/ristretto.xml": _RISTRETTO_XFCONF}


def _picture(text: str, sub: str, seed: int) -> bytes:
    """A PNG with big text on a coloured card (what an image-viewer task asks about)."""
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


class _WriteDownTask(Task):
    """The agent finds a text with another app and saves it as the only content of a new text file,
    `params["out"]`, with Mousepad; the checker wants exactly `text` there and the rest of the home intact."""

    suite = "computer"
    max_steps = 15

    def text(self, params: dict) -> str:
        raise NotImplementedError

    def read_state(self, sb, params):
        return home_state(sb)

    def check(self, state, params, outcome, baseline):
        return wrote_text(state, baseline, params["out"], self.text(params))

    def write_down(self, sb, params: dict, at: tuple[int, int] | None = None) -> Iterator[dict]:
        """Bring up Mousepad, click its text area (at `at`, else the screen's centre), type the text, save it."""
        yield from switch_to(sb, "Mousepad")
        yield act.click(*(at or (sb.width // 2, sb.height // 2)))
        yield act.typed(self.text(params))
        yield from editor_save_as(sb, params["out"])
        yield act.finish()


@register_task(id="computer.editor-numbers-to-sheet-v1", max_steps=15)
class EditorNumbersToSheet(SheetTask):
    """Multi-app: add up receipts listed in a text file (open in the editor) and enter the sum in the spreadsheet.

    Mousepad shows Documents/receipts-*.txt; Gnumeric shows a budget workbook
    (Category, Amount). The checker reads the saved workbook: the asked
    category's Amount cell holds the receipts' sum (±0.01), the rest unchanged.
    """

    tol = 0.01
    focus = "Gnumeric"

    def sample(self, rng):
        cats = pick(rng, ["Travel", "Meals", "Office", "Books", "Software", "Phone"], 4)
        rows = [["Category", "Amount"]] + [[c, None] for c in cats]
        k = int(rng.integers(0, 4))
        rows[1 + (k + 1) % 4][1] = money(rng, 20, 300)        # one other category is filled already
        receipts = [[pick(rng, GOODS), money(rng, 3, 90)] for _ in range(int(rng.integers(4, 8)))]
        return {"path": f"Documents/{doc_name(rng, 'budget')}.gnumeric", "rows": rows, "category": cats[k],
                "receipts": receipts, "notes": f"Documents/receipts-{pick(rng, WORDS)}.txt",
                "others": distractors(rng)}

    def instruction(self, params):
        return (f"The text file {params['notes']} (open in the text editor) lists receipts. Enter their total in "
                f"the Amount cell of the {params['category']} row in {params['path']} (open in the spreadsheet) "
                "and save the workbook.")

    def setup(self, sb, params):
        text = f"Receipts ({params['category']})\n" + "".join(f"{w}: {v:.2f}\n" for w, v in params["receipts"])
        place(sb, {params["notes"]: text, params["path"]: book_bytes(params["rows"]), **params["others"]})
        sb.open_apps(("spreadsheet", params["path"]), ("editor", params["notes"]))

    @staticmethod
    def _cell(params) -> str:
        return f"B{[r[0] for r in params['rows']].index(params['category']) + 1}"

    @staticmethod
    def _total(params) -> float:
        return round(sum(v for _, v in params["receipts"]), 2)

    def expected(self, params):
        return {**table(params["rows"]), self._cell(params): self._total(params)}, {}

    def entries(self, params):
        return [(self._cell(params), f"{self._total(params):.2f}\n")]


@register_task(id="computer.image-word-to-editor-v0")
class ImageWordToEditor(_WriteDownTask):
    """Multi-app: read a code word shown in a picture (image viewer) and save it in a new text file (editor).

    Ristretto shows Pictures/<name>.png with a word and a number drawn large;
    Mousepad is open on a new document. The checker reads Documents/code-<word>.txt:
    exactly the code ("WORD-1234"), one trailing newline allowed.
    """

    def sample(self, rng):
        code = f"{pick(rng, WORDS).upper()}-{int(rng.integers(1000, 10000))}"
        return {"code": code, "image": f"Pictures/badge-{int(rng.integers(100, 1000))}.png",
                "out": f"Documents/code-{pick(rng, WORDS)}.txt", "seed": int(rng.integers(1 << 30)), "others": distractors(rng)}

    def instruction(self, params):
        return (f"The picture {params['image']} (open in the image viewer) shows an access code. Using the text "
                f"editor, save the code (exactly as shown, nothing else) in the file {params['out']}.")

    def setup(self, sb, params):
        place(sb, {params["image"]: _picture(params["code"], "access code", params["seed"]), **params["others"],
                   **_RISTRETTO_SETTINGS})
        (sb.workspace.root / "Documents").mkdir(exist_ok=True)
        sb.open_apps("editor", ("images", params["image"]))

    def text(self, params):
        return params["code"]

    def oracle(self, sb, params):
        yield from self.write_down(sb, params)


@register_task(id="computer.image-number-to-sheet-v1", max_steps=15)
class ImageNumberToSheet(SheetTask):
    """Multi-app: read a meter reading from a photo-like picture (image viewer) and enter it in the spreadsheet.

    Ristretto shows Pictures/meter-<date>.png; Gnumeric shows a readings log (Date,
    Reading) with the row for that date empty. The checker reads the saved
    workbook: that row's Reading equals the number in the picture.
    """

    focus = "Gnumeric"

    def sample(self, rng):
        first = date(year(rng), int(rng.integers(1, 13)), int(rng.integers(1, 29)))
        n = int(rng.integers(4, 7))
        value = int(rng.integers(10000, 90000))
        rows = [["Date", "Reading"]]
        for i in range(n):   # weekly readings: real dates, in the year of the seed's split
            rows.append([(first + timedelta(days=7 * i)).isoformat(), value - 120 * (n - i) - int(rng.integers(0, 100))])
        rows.append([(first + timedelta(days=7 * n)).isoformat(), None])
        return {"path": f"Documents/{doc_name(rng, 'meter')}.gnumeric", "rows": rows, "value": value,
                "image": f"Pictures/meter-{rows[-1][0]}.png", "seed": int(rng.integers(1 << 30)),
                "others": distractors(rng)}

    def instruction(self, params):
        return (f"The picture {params['image']} (open in the image viewer) shows the water meter reading of "
                f"{params['rows'][-1][0]}. Enter it in that date's Reading cell in {params['path']} (open in "
                "the spreadsheet) and save the workbook.")

    def setup(self, sb, params):
        place(sb, {params["image"]: _picture(f"{params['value']:05d}", "m³", params["seed"]),
                   params["path"]: book_bytes(params["rows"]), **params["others"], **_RISTRETTO_SETTINGS})
        sb.open_apps(("spreadsheet", params["path"]), ("images", params["image"]))

    def expected(self, params):
        return {**table(params["rows"]), f"B{len(params['rows'])}": float(params["value"])}, {}

    def entries(self, params):
        return [(f"B{len(params['rows'])}", f"{params['value']}\n")]


@register_task(id="computer.calculator-to-editor-v0")
class CalculatorToEditor(_WriteDownTask):
    """Multi-app: work out an arithmetic result (the calculator is open) and write it into a text file (editor).

    Galculator and Mousepad (a new document) are open. The checker reads
    Documents/result.txt: the exact integer result, one trailing newline allowed.
    """

    def sample(self, rng):
        a, b, c = int(rng.integers(120, 999)), int(rng.integers(12, 99)), int(rng.integers(100, 5000))
        return {"a": a, "b": b, "c": c, "out": f"Documents/result-{pick(rng, WORDS)}.txt",
                "others": distractors(rng)}

    def instruction(self, params):
        return (f"Compute {params['a']} × {params['b']} − {params['c']} (the calculator is open) and save just the "
                f"result, as a whole number, in the text file {params['out']} using the text editor.")

    def setup(self, sb, params):
        place(sb, params["others"])
        sb.open_apps("editor", "calculator")

    def text(self, params):
        return str(params["a"] * params["b"] - params["c"])

    def oracle(self, sb, params):
        # on the calculator (its keyboard takes the expression), then in the editor under it
        yield act.typed(f"{params['a']}*{params['b']}-{params['c']}=")
        yield from self.write_down(sb, params, at=(120, 500))   # the editor's text area, left of the calculator


@register_task(id="computer.sheet-to-editor-v0")
class SheetToEditor(_WriteDownTask):
    """Multi-app: find the top scorer in a spreadsheet and write the name into a new text file (editor).

    Gnumeric shows a scores workbook (Player, Round 1..3); Mousepad is open on a
    new document. The checker reads Documents/winner.txt: the name of the player
    with the highest total over the rounds (unique by construction).
    """

    def sample(self, rng):
        n = int(rng.integers(5, 9))
        names = pick(rng, NAMES, n)
        rows = [["Player", "Round 1", "Round 2", "Round 3"]]
        for name in names:
            rows.append([name] + [int(v) for v in rng.integers(10, 100, size=3)])
        totals = [sum(r[1:]) for r in rows[1:]]
        best = int(np.argmax(totals))
        rows[1 + best][1] += 5 if totals.count(max(totals)) > 1 else 0     # make the winner unique
        return {"path": f"Documents/{doc_name(rng, 'scores')}.gnumeric", "rows": rows, "winner": names[best],
                "out": "Documents/winner.txt", "others": distractors(rng)}

    def instruction(self, params):
        return (f"In {params['path']} (open in the spreadsheet), find the player with the highest total over the "
                f"three rounds, and save just that player's name in the text file {params['out']} using the "
                "text editor.")

    def setup(self, sb, params):
        place(sb, {params["path"]: book_bytes(params["rows"]), **params["others"]})
        sb.open_apps("editor", ("spreadsheet", params["path"]))

    def text(self, params):
        return params["winner"]

    def oracle(self, sb, params):
        n = len(params["rows"])
        yield from goto_cell(sb, "E2")                  # a person would total the rounds first
        yield act.typed("".join(f"=SUM(B{i}:D{i})\n" for i in range(2, n + 1)))
        yield from self.write_down(sb, params)
