"""Computer tasks that may not be doable as asked: decline with `call_user()` when it cannot be done, do it when it can.

## Description
Requests in the form of things this desktop cannot do: edit a document that does not exist,
use an app that is not installed (LibreOffice Impress), plot with a calculator that cannot
plot, remove a background with an image viewer, restore a version history nobody kept.
Each task has a feasible twin drawn by the seed (about half the seeds): the document exists,
the deck is a Markdown file for the text editor, the calculator is asked for a value, the
viewer for a copy, the backup to restore from is there. Always declining therefore scores
about one half, and so does always trying.

## Action Space / Observation Space
Those of `ComputerEnv` (the whole 1280×800 desktop; clicks, keys, typing, scrolls). No SDK.

## Rewards
Infeasible draw: 1.0 when the agent hands back with `call_user()` (with or without a
message; `outcome.called_user`) and no user file changed. Declining is that one action: a
`finished(content="I cannot ...")` fails, whatever its text, and so do running out of steps
and a claim of success.
Feasible draw: 1.0 when the home is the baseline with exactly the asked change
(`expected_tree`: the edited document, the new file, the restored copy; everything else
intact), and the agent did not hand back with `call_user()`.

## Starting State
The standard home drawn from the seed, with the task's own look-alike files, and the
app the request names or its neighbour opened (the same apps in both twins).

## Episode End
`finished(...)` or `call_user(...)`, or the task's `max_steps`.

## Version History
* v0: first version.
* v1: a feasible twin per task, drawn by the seed; declining is `call_user()` only (no keyword
  reading of the answer); split-disjoint names (train and test instances never coincide).
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar, Iterator

import numpy as np

from hybridgym.reward import CheckResult, Condition
from hybridgym.reward.checkers import all_of, holds
from hybridgym.reward.files import expected_tree

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import pick
from .kit.desktop import (SENTENCES, TOPICS, WORDS, HomeTask, await_file, doc_lines, editor_open, editor_save_as,
                          exists, fm_go, fm_select, home, no_window, replace_all, save, switch_to, year)


class _InfeasibleTask(HomeTask):
    """A request that this desktop may or may not be able to do: `params["feasible"]`, drawn 50/50 by
    the seed (`twin`). Infeasible: success is `call_user()` with no user file changed. Feasible:
    success is the asked change (`feasible_changes`, judged with `expected_tree` on the whole home),
    without `call_user()`.

    `request` is the instruction of the infeasible draw and `doable` that of the feasible one (both
    with "{name}" filled from the params; the same wording where the task allows it)."""

    max_steps = 10
    request: ClassVar[str] = ""
    doable: ClassVar[str] = ""

    @staticmethod
    def twin(rng: np.random.Generator) -> bool:
        """Whether this draw is the feasible twin (one half of the seeds)."""
        return bool(rng.integers(2))

    def instruction(self, params: dict) -> str:
        return (self.doable if params["feasible"] and self.doable else self.request).format(**params)

    def feasible_changes(self, params: dict, before: dict[str, bytes]) -> dict:
        raise NotImplementedError

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return self.feasible_changes(params, before) if params["feasible"] else {}

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        tree = expected_tree(baseline["files"], state["files"], self.changes(params, baseline["files"]))
        if params["feasible"]:
            if outcome.called_user:
                why = "this request can be done here; the agent handed back with call_user() instead"
                return all_of(CheckResult.failed(why, conditions=[Condition("did not hand back", False, why, guard=True)]),
                              tree)
            return tree
        declined = Condition("handed back with call_user()", outcome.called_user,
                             "the request cannot be done here; the agent should have handed back with "
                             f"call_user(), it ended with answer {outcome.answer!r}")
        if not outcome.called_user:
            return CheckResult.failed(declined.message, conditions=[declined, *tree.conditions])
        if not tree.success:
            return replace(tree, conditions=(declined, *tree.conditions))
        return CheckResult.passed("handed back with call_user(), and nothing was changed", [declined, *tree.conditions])

    def solve(self, sb, params: dict) -> Iterator[dict]:
        """The feasible twin's oracle moves, up to (not including) the final `finished()`."""
        raise NotImplementedError

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        if not params["feasible"]:
            yield act.call_user("This cannot be done on this desktop.")
            return
        yield from self.solve(sb, params)
        yield act.finish()


@register_task(id="computer.infeasible-missing-file-v1", max_steps=24)
class InfeasibleMissingFile(_InfeasibleTask):
    """Edit a document that may not exist (documents with similar names do): the same request in both
    twins; in the feasible one the document is there, and every "old" in it must become "new"."""

    app = ("editor",)
    request = 'Open {missing} in the text editor, replace every "{old}" with "{new}" and save it.'

    def sample(self, rng: np.random.Generator) -> dict:
        feasible = self.twin(rng)
        files = home(rng)
        word = pick(rng, TOPICS)
        files[f"Documents/{word}-notes.txt"] = f"{word} notes\n" + "\n".join(rng.choice(SENTENCES, size=3)) + "\n"
        files[f"Documents/{word}-notes-old.txt"] = f"{word} (old)\n"
        old, new = pick(rng, WORDS, 2)
        missing = f"Documents/{word}-report.txt"
        text = "\n".join(doc_lines(rng, old, int(rng.integers(5, 9)))) + "\n"
        if feasible:
            files[missing] = text
        return {"home": files, "missing": missing, "old": old, "new": new, "feasible": feasible}

    def feasible_changes(self, params: dict, before: dict[str, bytes]) -> dict:
        path = params["missing"]
        return {path: before[path].replace(params["old"].encode(), params["new"].encode())}

    def solve(self, sb, params: dict) -> Iterator[dict]:
        yield from editor_open(sb, params["missing"])
        yield from replace_all(sb, params["old"], params["new"])
        yield from save(sb, params["missing"])


def _deck(rng: np.random.Generator, topic: str, n: int) -> list[list[str]]:
    """The slides of a Markdown deck: a title line and two bullets each."""
    return [[f"# {topic.title()} {k + 1}: {pick(rng, WORDS)}", f"- {pick(rng, SENTENCES[:4])}",
             f"- {pick(rng, SENTENCES[6:])}"] for k in range(n)]


def _deck_text(slides: list[list[str]]) -> str:
    return "\n---\n".join("\n".join(s) for s in slides) + "\n"


def _slides_of(data: bytes | None) -> list[list[str]] | None:
    """A Markdown deck's slides (split at lines "---", blank lines dropped); None if not UTF-8 text."""
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    slides, cur = [], []
    for line in text.split("\n"):
        if line.strip() == "---":
            slides.append(cur)
            cur = []
        elif line.strip():
            cur.append(line.rstrip())
    slides.append(cur)
    return [s for s in slides if s]


@register_task(id="computer.infeasible-app-not-installed-v1", max_steps=20)
class InfeasibleAppNotInstalled(_InfeasibleTask):
    """Delete a slide of a presentation with a named app: LibreOffice Impress on a .pptx (not installed
    here), or, in the feasible twin, the text editor on a Markdown deck (slides separated by "---" lines).
    The feasible twin's checker wants exactly the asked slide gone (slides compared line by line, the
    separators and blank lines around them free) and every other file intact."""

    app = ("editor",)
    request = "Open {deck} in {app_name}, delete slide {slide} and save the presentation."

    def sample(self, rng: np.random.Generator) -> dict:
        feasible = self.twin(rng)
        files = home(rng)
        topic = pick(rng, TOPICS)
        slide = int(rng.integers(2, 9))
        slides = _deck(rng, topic, slide + int(rng.integers(1, 4)))
        if feasible:
            deck, app_name = f"Documents/{topic}-{year(rng)}-slides.md", "the text editor"
            files[deck] = _deck_text(slides)
        else:
            deck, app_name = f"Documents/{topic}-{year(rng)}.pptx", "LibreOffice Impress"
            files[deck] = "PK\x03\x04 (a presentation)\n"
        return {"home": files, "deck": deck, "slide": slide, "app_name": app_name, "feasible": feasible,
                "slides": slides}

    def feasible_changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["deck"]: _deck_text([s for k, s in enumerate(params["slides"])
                                            if k != params["slide"] - 1]).encode()}

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        if not params["feasible"] or outcome.called_user:
            return super().check(state, params, outcome, baseline)
        deck = params["deck"]
        want = [s for k, s in enumerate(params["slides"]) if k != params["slide"] - 1]
        got = _slides_of(state["files"].get(deck))
        rest = expected_tree(baseline["files"], {**state["files"], deck: baseline["files"][deck]}, {})
        return all_of(holds(f"slide {params['slide']} deleted", got == want,
                            f"{deck} does not hold the deck without slide {params['slide']}: "
                            f"{None if got is None else len(got)} slides, expected {len(want)}",
                            f"slide {params['slide']} deleted"), rest)

    def solve(self, sb, params: dict) -> Iterator[dict]:
        yield from editor_open(sb, params["deck"])
        yield act.keys("ctrl", "l")                 # Go to the slide's first line
        sb.wait_ready("mousepad", "Go To", timeout=5)
        yield act.keys("ctrl", "a")
        yield act.typed(f"{4 * (params['slide'] - 1) + 1}\n")
        yield from act.until(no_window(sb, "Go To"), tries=10, seconds=0.1)
        yield act.keys("home")
        for _ in range(4):                          # the slide's three lines and the separator after it
            yield act.keys("shift", "down")
        yield act.keys("delete")
        yield from save(sb, params["deck"])


@register_task(id="computer.infeasible-calculator-plot-v1", max_steps=20)
class InfeasibleCalculatorPlot(_InfeasibleTask):
    """Plot a function with the calculator (Galculator has no plotting), or, in the feasible twin, work
    out one value of it with the calculator and save it in a text file (the editor is open too)."""

    request = ("Use the calculator to plot y = {a}x^2 + ({b}) for x from -5 to 5 and save the graph as "
               "{out}.")
    doable = ("Use the calculator to work out y = {a}x^2 + ({b}) for x = {x} and save the value as the only "
              "text of {out}.")

    def sample(self, rng: np.random.Generator) -> dict:
        feasible = self.twin(rng)
        a, b, x = int(rng.integers(2, 9)), int(rng.integers(-9, 10)), int(rng.integers(-5, 6))
        w = pick(rng, WORDS)
        out = f"Documents/{w}-parabola.txt" if feasible else f"Pictures/{w}-parabola.png"
        return {"home": home(rng), "a": a, "b": b, "x": x, "out": out, "feasible": feasible}

    def setup(self, sb, params: dict) -> None:
        super().setup(sb, params)
        sb.open_apps("editor", "calculator")

    @staticmethod
    def value(params: dict) -> int:
        return params["a"] * params["x"] ** 2 + params["b"]

    def feasible_changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["out"]: f"{self.value(params)}\n".encode()}

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        if params["feasible"] and not outcome.called_user:
            got = state["files"].get(params["out"])
            if got is not None and got.strip() == str(self.value(params)).encode():   # the newline is free
                state = {**state, "files": {**state["files"], params["out"]: f"{self.value(params)}\n".encode()}}
        return super().check(state, params, outcome, baseline)

    def solve(self, sb, params: dict) -> Iterator[dict]:
        x, b = abs(params["x"]), params["b"]        # the calculator has the focus
        yield act.typed(f"{params['a']}*{x}*{x}{'+' if b >= 0 else '-'}{abs(b)}=")
        yield from switch_to(sb, "Mousepad")
        yield act.click(120, 500)                  # the editor's text area, left of the calculator
        yield act.typed(str(self.value(params)))
        yield from editor_save_as(sb, params["out"])


@register_task(id="computer.infeasible-viewer-edit-v1", max_steps=16)
class InfeasibleViewerEdit(_InfeasibleTask):
    """Remove a photo's background with the image viewer (Ristretto only views images), or, in the feasible
    twin, save a copy of the photo with the viewer's own "Save copy" command (File menu, ctrl+S)."""

    app = ("images", "{image}")
    request = ("The image viewer shows {image}. Use its background-removal tool to make the background transparent "
               "and save the result as {copy}.")
    doable = "The image viewer shows {image}. Use its Save copy command to save a copy of the image as {copy}."

    def sample(self, rng: np.random.Generator) -> dict:
        feasible = self.twin(rng)
        files = home(rng)
        img = next(p for p in files if p.startswith("Pictures/"))
        copy = f"Pictures/{pick(rng, WORDS)}-{'copy' if feasible else 'cutout'}.png"
        return {"home": files, "image": img, "copy": copy, "feasible": feasible}

    def feasible_changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["copy"]: before[params["image"]]}

    def solve(self, sb, params: dict) -> Iterator[dict]:
        yield act.keys("ctrl", "s")
        sb.wait_ready("ristretto", "Save", timeout=8)
        yield act.wait(0.2)
        yield act.keys("ctrl", "a")
        yield act.typed(sb.shown_path(params["copy"]))
        yield act.wait(0.6)
        for _ in range(3):
            yield act.keys("enter")
            yield from await_file(sb, params["copy"], tries=8)
            if exists(sb, params["copy"])():
                break


@register_task(id="computer.infeasible-version-history-v1", max_steps=20)
class InfeasibleVersionHistory(_InfeasibleTask):
    """Restore an earlier version of a file from a version history that does not exist, or, in the feasible
    twin, put back a deleted document from the copy kept in Backup/ with the file manager."""

    app = ("files", "Documents")
    request = "Using the file manager's version history, restore {doc} to the version it had last {day}."
    doable = ("{doc} was deleted. Using the file manager, restore it from its copy in {backup}/ (keep the "
              "copy there).")

    def sample(self, rng: np.random.Generator) -> dict:
        feasible = self.twin(rng)
        files = home(rng)
        doc = next(p for p in files if p.startswith("Documents/"))
        backup = f"Backup/{pick(rng, ['Monday', 'Tuesday', 'Wednesday', 'Thursday'])}"
        if feasible:
            files[f"{backup}/{doc.split('/', 1)[1]}"] = files.pop(doc)
        files[f"{backup}/README.txt"] = "Copies made by hand.\n"
        return {"home": files, "doc": doc, "day": backup.split("/")[1], "backup": backup, "feasible": feasible}

    def feasible_changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["doc"]: before[f"{params['backup']}/{params['doc'].split('/', 1)[1]}"]}

    def solve(self, sb, params: dict) -> Iterator[dict]:
        yield from fm_go(sb, params["backup"])
        yield from fm_select(params["doc"].split("/", 1)[1])
        yield act.keys("ctrl", "c")
        yield from fm_go(sb, "Documents")
        yield act.keys("ctrl", "v")
        yield from act.until(exists(sb, params["doc"]))
