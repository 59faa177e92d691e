"""Computer suite tasks: a Linux desktop (Xvfb + openbox) with real apps, checked on the files they leave."""

from __future__ import annotations

import re
from typing import Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of, answer_matches, file_text_equals, files_unchanged

from .base import Task, register_task

#: app state written under HOME by the apps themselves, not part of any task's result
APP_STATE_PREFIXES = (".config/", ".cache/", ".local/", ".dbus/")

_WORDS = ["amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
          "kelp", "lumen", "meadow", "nectar", "onyx", "pepper", "quartz", "raven", "sierra", "tundra"]
_SENTENCES = ["Meeting moved to Thursday at 10:30.", "Remember to water the ficus.",
              "Invoice 2231 was paid in full.", "The build server restarts at midnight.",
              "会议改到星期四上午十点半。", "Café au lait costs €3.20 today.",
              "Quarterly numbers are due on the 5th.", "Pack the blue charger and the adapter."]


def _distractors(rng: np.random.Generator) -> dict[str, str]:
    return {f"Documents/{w}.txt": f"{w} notes\n{rng.choice(_SENTENCES)}\n"
            for w in rng.choice(_WORDS, size=3, replace=False)}


def _place(sb, files: dict[str, str]) -> None:
    for path, text in files.items():
        sb.workspace.write_text(path, text)


@register_task
class EditorCreateFile(Task):
    """Create a text file with given content through the Mousepad text editor.

    Mousepad is open on an empty document; the home folder holds a few other
    documents. The checker reads the new file (exact text, one trailing newline
    allowed) and confirms the other documents are intact.
    """

    id = "computer.editor-create-file-v0"
    suite = "computer"
    max_steps = 15

    def sample(self, rng: np.random.Generator) -> dict:
        name = f"{rng.choice(_WORDS)}-{int(rng.integers(100, 1000))}.txt"
        lines = [str(s) for s in rng.choice(_SENTENCES, size=2, replace=False)]
        return {"filename": name, "text": "\n".join(lines), "others": _distractors(rng)}

    def instruction(self, params: dict) -> str:
        return (f"Using the text editor, create a file named {params['filename']} in the home folder "
                f"containing exactly these two lines:\n{params['text']}")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["others"])
        sb.launch_app(["mousepad", "--disable-server"])
        sb.wait_for_window("mousepad")

    def read_state(self, sb, params: dict) -> dict:
        return {"files": sb.workspace.snapshot()}

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        return all_of(file_text_equals(state["files"], params["filename"], params["text"]),
                      files_unchanged(baseline["files"], state["files"], ignore_prefixes=APP_STATE_PREFIXES))

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield {"action_type": "click", "x": sb.width // 2, "y": sb.height // 2}  # the text area
        yield {"action_type": "type", "text": params["text"]}
        yield {"action_type": "hotkey", "keys": ["ctrl", "s"]}
        sb.wait_for_window(title="Save As")  # a person waits for the dialog too
        yield {"action_type": "wait", "seconds": 0.2}
        yield {"action_type": "type", "text": params["filename"]}  # the Save As name field has focus
        # GTK enables the Save button a moment after the name changes; then wait for the file
        yield {"action_type": "wait", "seconds": 0.8}
        yield {"action_type": "hotkey", "keys": ["enter"]}
        for _ in range(5):
            if (sb.workspace.root / params["filename"]).exists():
                break
            yield {"action_type": "wait", "seconds": 0.3}
        yield {"action_type": "finished", "content": ""}


_CITIES = ["Lisbon", "Osaka", "Denver", "Tallinn", "Nairobi", "Quito", "Perth", "Bergen", "Porto", "Leeds"]
_ITEMS = ["desk lamp", "usb hub", "notebook", "monitor arm", "keyboard", "webcam", "headset", "chair mat"]


@register_task
class FindOrderTotal(Task):
    """Hybrid GUI+SDK: find an order's total among ~300 order files in the workspace.

    The files are under orders/<year>-<month>/; one holds the asked order id. An
    xterm is open on the desktop, but `terminal(command="grep -r ...")` is the sensible path. The agent answers with
    `finished(content="<total>")`; the checker compares the number with the truth.
    """

    id = "computer.find-order-total-v0"
    suite = "computer"
    max_steps = 8
    sdk = True

    def sample(self, rng: np.random.Generator) -> dict:
        files = {}
        ids = rng.choice(np.arange(1000, 9999), size=300, replace=False)
        target = int(rng.integers(len(ids)))
        truth = ""
        for i, oid in enumerate(ids):
            month = f"2025-{int(rng.integers(1, 13)):02d}"
            lines, total = [], 0.0
            for _ in range(int(rng.integers(1, 4))):
                qty, price = int(rng.integers(1, 5)), round(float(rng.uniform(5, 250)), 2)
                total += qty * price
                lines.append(f"  {qty} x {rng.choice(_ITEMS)} @ {price:.2f}")
            body = (f"Order: A-{oid}\nCustomer city: {rng.choice(_CITIES)}\nItems:\n" + "\n".join(lines)
                    + f"\nTotal: {total:.2f}\n")
            files[f"orders/{month}/order-{i:03d}.txt"] = body
            if i == target:
                truth = f"{total:.2f}"
        return {"order": f"A-{int(ids[target])}", "truth": truth, "files": files}

    def instruction(self, params: dict) -> str:
        return (f"The folder orders/ in your home folder holds order records. What is the total of order "
                f"{params['order']}? Answer with the number only, e.g. finished(content='123.45').")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["files"])
        sb.launch_app(["xterm", "-geometry", "120x40"])  # the GUI path: a terminal window
        sb.wait_for_window("xterm")

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        return answer_matches(answer, params["truth"], numeric=True)

    def oracle(self, sb, params: dict):
        obs = yield {"action_type": "terminal", "command": f"grep -rl -- 'Order: {params['order']}$' orders | xargs cat"}
        m = re.search(r"^Total: ([0-9.]+)$", obs["sdk_output"], re.M)
        yield {"action_type": "finished", "content": m.group(1) if m else "not found"}
