"""Computer tasks: text editing in Mousepad (create a file, find and replace, fix a line, append a section).

## Description
Mousepad is open on the document to edit (or on a new document); the home holds other
documents around it. The agent edits through the editor's GUI (Find and Replace, Go to
line, typing) and saves.

## Action Space / Observation Space
Those of `ComputerEnv` (the whole 1280×800 desktop; clicks, keys, typing, scrolls). No SDK.

## Rewards
1.0 when the saved file holds exactly the asked text (one final newline allowed) and every
other file of the home keeps its bytes (`file_text_equals`, `expected_tree`).

## Starting State
The home drawn from the seed (Documents/ with a memo, a settings file or Markdown notes),
then Mousepad opened on the document.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of, holds
from hybridgym.reward.files import ANY

from .base import Outcome, Task, register_task
from .kit import actions as act
from .kit.data import pick
from .kit.desktop import (CITIES, SENTENCES, TOPICS, WORDS, HomeTask, doc_lines, editor_goto_line, editor_save_as,
                          home, home_state, notes, place, replace_all, save, wrote_text)


@register_task(id="computer.editor-create-file-v0")
class EditorCreateFile(Task):
    """Create a text file with given content through the Mousepad text editor.

    Mousepad is open on an empty document; the home folder holds a few other
    documents. The checker reads the new file (exact text, one trailing newline
    allowed) and confirms the other documents are intact.
    """

    suite = "computer"
    max_steps = 15

    def sample(self, rng: np.random.Generator) -> dict:
        name = f"{pick(rng, WORDS)}-{int(rng.integers(100, 1000))}.txt"
        return {"filename": name, "text": "\n".join(pick(rng, SENTENCES, 2)), "others": notes(rng, pick(rng, WORDS, 3))}

    def instruction(self, params: dict) -> str:
        return (f"Using the text editor, create a file named {params['filename']} in the home folder "
                f"containing exactly these two lines:\n{params['text']}")

    def setup(self, sb, params: dict) -> None:
        place(sb, params["others"])
        sb.launch_app(["mousepad", "--disable-server"])
        sb.wait_for_window("mousepad")

    def read_state(self, sb, params: dict) -> dict:
        return home_state(sb)

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return wrote_text(state, baseline, params["filename"], params["text"])

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield act.click(sb.width // 2, sb.height // 2)  # the text area
        yield act.typed(params["text"])
        yield from editor_save_as(sb, params["filename"])
        yield act.finish()


@register_task(id="computer.editor-replace-word-v0", max_steps=24)
class EditorReplaceWord(HomeTask):
    """Replace a word everywhere in a document with Mousepad's Find and Replace, and save.

    Mousepad is open on the document. The checker reads the file: every occurrence
    replaced (and nothing else changed in it), other files intact.
    """

    app = ("editor", "{path}")

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        old, new = pick(rng, TOPICS, 2)
        path = f"Documents/{pick(rng, ['memo', 'minutes', 'plan', 'summary'])}-{int(rng.integers(10, 99))}.txt"
        files[path] = "\n".join(doc_lines(rng, old, int(rng.integers(6, 11)))) + "\n"
        return {"home": files, "path": path, "old": old, "new": new}

    def instruction(self, params: dict) -> str:
        return (f"In the text editor, replace every occurrence of the word \"{params['old']}\" with "
                f"\"{params['new']}\" in {params['path']} and save the file.")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["path"]: before[params["path"]].replace(params["old"].encode(), params["new"].encode())}

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield from replace_all(sb, params["old"], params["new"])
        yield from save(sb, params["path"])
        yield act.finish()


@register_task(id="computer.editor-fix-line-v0", max_steps=20)
class EditorFixLine(HomeTask):
    """Correct one line of a settings file in Mousepad (go to the line, retype it) and save.

    The checker wants exactly that line changed and the rest of the file and home intact.
    """

    app = ("editor", "{path}")

    _KEYS = ["timeout", "retries", "workers", "port", "cache_size", "max_users", "interval", "batch_size", "threads"]

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        keys = pick(rng, self._KEYS, int(rng.integers(6, 9)))
        values = {k: int(rng.integers(2, 500)) for k in keys}
        lines = [f"# {pick(rng, WORDS)} service settings"] + [f"{k} = {v}" for k, v in values.items()]
        target = int(rng.integers(1, len(lines)))
        key = lines[target].split(" = ")[0]
        new_value = values[key] + int(rng.integers(1, 50))
        path = f"Documents/{pick(rng, WORDS)}.conf"
        files[path] = "\n".join(lines) + "\n"
        return {"home": files, "path": path, "line": target + 1, "old": lines[target], "new": f"{key} = {new_value}"}

    def instruction(self, params: dict) -> str:
        return (f"In {params['path']}, line {params['line']} reads \"{params['old']}\". Using the text editor, "
                f"change it to \"{params['new']}\" and save the file; leave the other lines as they are.")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["path"]: before[params["path"]].replace(params["old"].encode() + b"\n", params["new"].encode() + b"\n")}

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield from editor_goto_line(sb, params["line"], params["new"])
        yield from save(sb, params["path"])
        yield act.finish()


@register_task(id="computer.editor-append-section-v0", max_steps=16)
class EditorAppendSection(HomeTask):
    """Append a section (a heading and a bullet line) at the end of a Markdown file in Mousepad, and save.

    The checker wants the original text unchanged at the start, then (after optional
    blank lines) exactly the two new lines; other files intact.
    """

    app = ("editor", "{path}")

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        topic = pick(rng, TOPICS)
        path = f"Documents/{topic}-notes.md"
        body = [f"# {topic.title()} notes", ""] + [f"- {s}" for s in pick(rng, SENTENCES, 3)]
        files[path] = "\n".join(body) + "\n"
        heading = f"## {pick(rng, ['Next steps', 'Open questions', 'Decisions', 'Risks'])}"
        item = f"- {pick(rng, ['Ask', 'Call', 'Email', 'Remind'])} {pick(rng, CITIES)} team by {pick(rng, ['Monday', 'Friday', 'noon'])}"
        return {"home": files, "path": path, "heading": heading, "item": item}

    def instruction(self, params: dict) -> str:
        return (f"At the end of {params['path']}, add a new section: a line \"{params['heading']}\" followed by a line "
                f"\"{params['item']}\". Use the text editor and save the file.")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["path"]: ANY}

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        path = params["path"]
        if path not in state["files"]:
            return all_of(holds(f"{path} is there", False, f"{path} is gone", guard=True),
                          super().check(state, params, outcome, baseline))
        old = baseline["files"][path].decode().rstrip("\n").split("\n")
        new = state["files"][path].decode("utf-8", "replace").rstrip("\n").split("\n")
        head, tail = new[:len(old)], [ln for ln in new[len(old):] if ln.strip()]
        want = [params["heading"], params["item"]]
        return all_of(holds(f"the existing text of {path} kept", head == old, f"the existing text of {path} changed",
                            guard=True),
                      holds("the section appended", [ln.rstrip() for ln in tail] == want,
                            f"{path} ends with {tail[-3:]}, expected {want}", "section appended"),
                      super().check(state, params, outcome, baseline))

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield act.keys("ctrl", "end")
        yield act.typed(f"\n{params['heading']}\n{params['item']}\n")
        yield from save(sb, params["path"])
        yield act.finish()
