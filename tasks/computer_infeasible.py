"""Computer tasks that cannot be done as asked: the right end is to say so (`call_user()`, or `finished` stating it).

## Description
Requests that this desktop cannot fulfil: edit a document that does not exist, use an
app that is not installed (LibreOffice Impress), plot with a calculator that cannot plot,
remove a background with an image viewer, restore a version history nobody kept. Each
looks plausible: similar files exist and the apps named, or their neighbours, are open.

## Action Space / Observation Space
Those of `ComputerEnv` (the whole 1280×800 desktop; clicks, keys, typing, scrolls). No SDK.

## Rewards
1.0 when the agent declines and changes no user file (`declined_and_unchanged`): it ended
with `call_user()` (with or without a message; `outcome.called_user`), or with
`finished(content=...)` saying the task cannot be done. An empty `finished()`, a claim of
success, or running out of steps fails.

## Starting State
The standard home drawn from the seed, with the task's own look-alike files, and the
app the request names or its neighbour opened.

## Episode End
`finished(...)` or `call_user(...)`, or the task's `max_steps`.

## Version History
* v0: first version.
"""

from __future__ import annotations

from typing import ClassVar, Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.files import declined_and_unchanged

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import WORDS, pick
from .kit.desktop import SENTENCES, TOPICS, HomeTask, home


class _InfeasibleTask(HomeTask):
    """A request that cannot be done on this desktop. Success: the agent declines
    (`call_user()`, or `finished(content=...)` saying it cannot be done) and changes no
    user file. Running out of steps, or claiming success, fails.

    `request` is the instruction and `reply` the oracle's answer, ("finished" or "call_user", text),
    both with "{name}" filled from the params."""

    max_steps = 10
    request: ClassVar[str] = ""
    reply: ClassVar[tuple[str, str]] = ("finished", "")

    def instruction(self, params: dict) -> str:
        return self.request.format(**params)

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return declined_and_unchanged(outcome.answer, outcome.called_user, baseline["files"], state["files"])

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        how, text = self.reply
        yield (act.call_user if how == "call_user" else act.finish)(text.format(**params))


@register_task(id="computer.infeasible-missing-file-v0")
class InfeasibleMissingFile(_InfeasibleTask):
    """Edit a document that does not exist (documents with similar names do)."""

    app = ("editor",)
    request = 'Open {missing} in the text editor, replace every "{old}" with "{new}" and save it.'
    reply = ("finished", "I cannot do this: {missing} does not exist.")

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        word = pick(rng, TOPICS)
        files[f"Documents/{word}-notes.txt"] = f"{word} notes\n" + "\n".join(rng.choice(SENTENCES, size=3)) + "\n"
        files[f"Documents/{word}-notes-old.txt"] = f"{word} (old)\n"
        return {"home": files, "missing": f"Documents/{word}-report.txt", "old": pick(rng, WORDS),
                "new": pick(rng, WORDS)}


@register_task(id="computer.infeasible-app-not-installed-v0")
class InfeasibleAppNotInstalled(_InfeasibleTask):
    """Use a presentation program (LibreOffice Impress), which this desktop does not have."""

    app = ("files", "Documents")
    request = "Open {deck} in LibreOffice Impress, delete slide {slide} and save the presentation."
    reply = ("call_user", "")   # LibreOffice is not installed: ask the user

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        deck = f"Documents/{pick(rng, TOPICS)}-{int(rng.integers(2019, 2026))}.pptx"
        files[deck] = "PK\x03\x04 (a presentation)\n"
        return {"home": files, "deck": deck, "slide": int(rng.integers(2, 9))}


@register_task(id="computer.infeasible-calculator-plot-v0")
class InfeasibleCalculatorPlot(_InfeasibleTask):
    """Plot a function with the calculator (Galculator has no plotting)."""

    app = ("calculator",)
    request = ("Use the calculator to plot y = {a}x^2 + ({b}) for x from -5 to 5 and save the graph as "
               "Pictures/parabola-{a}.png.")
    reply = ("finished", "This is not possible: the calculator cannot plot graphs.")

    def sample(self, rng: np.random.Generator) -> dict:
        return {"home": home(rng), "a": int(rng.integers(2, 9)), "b": int(rng.integers(-9, 10))}


@register_task(id="computer.infeasible-viewer-edit-v0")
class InfeasibleViewerEdit(_InfeasibleTask):
    """Remove a photo's background with the image viewer (Ristretto only views images)."""

    app = ("images", "{image}")
    request = ("The image viewer shows {image}. Use its background-removal tool to make the background transparent "
               "and save the image in place.")
    reply = ("call_user", "The image viewer has no background-removal tool; I cannot edit the image here.")

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        return {"home": files, "image": next(p for p in files if p.startswith("Pictures/"))}


@register_task(id="computer.infeasible-version-history-v0")
class InfeasibleVersionHistory(_InfeasibleTask):
    """Restore an earlier version of a file from a version history that does not exist."""

    app = ("files", "Documents")
    request = "Using the file manager's version history, restore {doc} to the version it had last {day}."
    reply = ("finished", "Not possible: the file manager keeps no version history "
                         "and there is no earlier copy of {doc}.")

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        doc = next(p for p in files if p.startswith("Documents/"))
        return {"home": files, "doc": doc, "day": pick(rng, ["Monday", "Tuesday", "Wednesday", "Thursday"])}
