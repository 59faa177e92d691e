"""Computer suite tasks: a Linux desktop (Xvfb + openbox + tint2) with real apps, checked on the files and configs they leave.

Families: file management (file manager GUI or terminal), text editing
(Mousepad), app settings (checked in the app's config file), infeasible
requests (the right answer is to say so) and hybrid GUI+SDK tasks. Each task's
setup writes a per-episode home from the seed (Documents/, Pictures/ with real
PNGs, Downloads/, data files) and opens the apps it needs with
`sb.open_app(...)`; the checkers (`hybridgym.reward.files`) compare the home
with the baseline snapshot, so damage to other files fails the task.
"""

from __future__ import annotations

import io
import re
from typing import Callable, Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of, answer_matches, file_text_equals, files_unchanged
from hybridgym.reward.files import (ANY, APP_STATE_PREFIXES, archive_holds, config_is, declined_and_unchanged,
                                    expected_tree)

from .base import Task, register_task

_WORDS = ["amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
          "kelp", "lumen", "meadow", "nectar", "onyx", "pepper", "quartz", "raven", "sierra", "tundra"]
_SENTENCES = ["Meeting moved to Thursday at 10:30.", "Remember to water the ficus.",
              "Invoice 2231 was paid in full.", "The build server restarts at midnight.",
              "会议改到星期四上午十点半。", "Café au lait costs €3.20 today.",
              "Quarterly numbers are due on the 5th.", "Pack the blue charger and the adapter."]


def _distractors(rng: np.random.Generator) -> dict[str, str]:
    return {f"Documents/{w}.txt": f"{w} notes\n{rng.choice(_SENTENCES)}\n"
            for w in rng.choice(_WORDS, size=3, replace=False)}


def _place(sb, files: dict[str, "str | tuple"]) -> None:
    """Write a home template: text files, and images given as ("png", width, height, (r, g, b), seed)."""
    for path, content in files.items():
        if isinstance(content, tuple):
            target = sb.workspace.resolve(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_png(*content[1:]))
        else:
            sb.workspace.write_text(path, content)


def _png(width: int, height: int, rgb: tuple[int, int, int], seed: int) -> bytes:
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


def _image(rng: np.random.Generator) -> tuple:
    return ("png", int(rng.integers(40, 120)), int(rng.integers(30, 90)),
            tuple(int(v) for v in rng.integers(0, 200, 3)), int(rng.integers(1 << 30)))


def _home(rng: np.random.Generator) -> dict[str, "str | tuple"]:
    """The standard home of an episode: a few documents, pictures and a CSV (drawn from the seed)."""
    words = [str(w) for w in rng.choice(_WORDS, size=6, replace=False)]
    files: dict[str, str | tuple] = {f"Documents/{w}.txt": f"{w} notes\n{rng.choice(_SENTENCES)}\n" for w in words[:3]}
    files.update({f"Pictures/{w}.png": _image(rng) for w in words[3:5]})
    rows = [f"2025-{int(rng.integers(1, 13)):02d}-{int(rng.integers(1, 29)):02d},{rng.choice(_CITIES)},"
            f"{float(rng.uniform(5, 500)):.2f}" for _ in range(6)]
    files[f"Downloads/{words[5]}.csv"] = "date,city,amount\n" + "\n".join(rows) + "\n"
    return files


def _snapshot_state(sb) -> dict:
    from hybridgym.sandbox.desktop import home_snapshot
    return {"files": home_snapshot(sb.workspace.root)}


def _file_bytes(files: dict, content: "str | tuple") -> bytes:
    return _png(*content[1:]) if isinstance(content, tuple) else content.encode()


# -- oracle building blocks: the env's own actions ------------------------------------------
def _type(text: str) -> dict:
    return {"action_type": "type", "text": text}


def _keys(*keys: str) -> dict:
    return {"action_type": "hotkey", "keys": list(keys)}


def _click(x: int, y: int) -> dict:
    return {"action_type": "click", "x": int(x), "y": int(y)}


def _point_and_click(x: int, y: int) -> Iterator[dict]:
    """Hover, press, release as three steps: a GTK dialog button drops a click whose press and
    release arrive together, the way a person's slower click never does."""
    yield {"action_type": "hover", "x": int(x), "y": int(y)}
    yield {"action_type": "mouse_down", "x": int(x), "y": int(y)}
    yield {"action_type": "mouse_up", "x": int(x), "y": int(y)}


def _until(done: Callable[[], bool], tries: int = 12, seconds: float = 0.1) -> Iterator[dict]:
    """Wait steps until `done()` holds (a person waits for a copy or a save to finish); each wait
    half as long again as the one before, up to 1 s (12 tries: about 7 s in all)."""
    for _ in range(tries):
        if done():
            return
        yield {"action_type": "wait", "seconds": seconds}
        seconds = min(1.0, seconds * 1.5)


def _in_terminal(sb, command: str, done: Callable[[], bool]) -> Iterator[dict]:
    """Type a command into the open xterm and wait until its effect is there."""
    yield _click(sb.width // 2, sb.height // 2)
    yield _type(command + "\n")
    yield from _until(done)


def _tick(sb, x: int, y: int) -> Iterator[dict]:
    """Click a GTK check box until the screen shows it ticked (blue); a click that lands while
    the dialog is still busy is lost, so look again, as a person would."""
    def ticked() -> bool:
        box = sb.capture.grab()[y - 4:y + 5, x - 4:x + 5].astype(int)
        blue = (box[..., 2] > 180) & (box[..., 2] - box[..., 0] > 40)
        return blue.mean() > 0.3
    for _ in range(3):
        yield from _point_and_click(x, y)
        for _ in range(8):
            if ticked():
                return
            yield {"action_type": "wait", "seconds": 0.15}
    raise RuntimeError(f"the check box at ({x}, {y}) did not get ticked")


def _exists(sb, path: str) -> Callable[[], bool]:
    return lambda: (sb.workspace.root / path).exists()


def _gone(sb, path: str) -> Callable[[], bool]:
    return lambda: not (sb.workspace.root / path).exists()


def _fm_select(name: str) -> Iterator[dict]:
    """Select an item in the file manager's folder view by typing its name (type-ahead), then close the search box."""
    yield _type(name)
    yield _keys("esc")


#: a point of the maximized file manager's folder view with no file under it (files fill the top rows)
_FM_EMPTY_SPOT = (1000, 650)


def _fm_go(sb, folder: str) -> Iterator[dict]:
    """Open a folder in the file manager by typing its path into the location bar (ctrl+L), wait
    until the window shows it (its title is the folder's name), and click an empty spot of the
    folder view so that keys go to the view again, not to the location bar."""
    yield _keys("ctrl", "l")
    yield _type(f"{sb.workspace.root / folder}\n")
    name = folder.rstrip("/").rsplit("/", 1)[-1]
    yield from _until(lambda: any(w["title"] == name and "pcmanfm" in w["wm_class"] for w in sb.windows()))
    yield _click(*_FM_EMPTY_SPOT)


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
        return _snapshot_state(sb)

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


# ---------------------------------------------------------------------------------------------
# File management
# ---------------------------------------------------------------------------------------------
class _HomeTask(Task):
    """A computer task judged on the home folder: `changes` says what the asked work does to it."""

    suite = "computer"

    def read_state(self, sb, params: dict) -> dict:
        return _snapshot_state(sb)

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        raise NotImplementedError

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        return expected_tree(baseline["files"], state["files"], self.changes(params, baseline["files"]))


def _moved(before: dict[str, bytes], pairs: dict[str, str]) -> dict:
    out: dict = {}
    for src, dst in pairs.items():
        out[src] = None
    for src, dst in pairs.items():
        out[dst] = before[src]
    return out


@register_task
class FilesRename(_HomeTask):
    """Rename a document in the file manager (PCManFM, open on Documents/).

    The checker wants the file under its new name with the same bytes, and every
    other file of the home intact.
    """

    id = "computer.files-rename-v0"
    max_steps = 20

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        src = next(p for p in home if p.startswith("Documents/"))
        new = f"{rng.choice(_WORDS)}-{rng.choice(['final', 'draft', 'v2', 'old', 'signed'])}.txt"
        return {"home": home, "src": src, "dst": f"Documents/{new}"}

    def instruction(self, params: dict) -> str:
        return (f"In the file manager, rename the file {params['src']} (in your home folder) to "
                f"{params['dst'].split('/', 1)[1]}, keeping it in the same folder.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("files", "Documents")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return _moved(before, {params["src"]: params["dst"]})

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield from _fm_select(params["src"].split("/", 1)[1])
        yield _keys("f2")
        yield _keys("ctrl", "a")
        yield _type(params["dst"].split("/", 1)[1] + "\n")
        yield from _until(_exists(sb, params["dst"]))
        yield {"action_type": "finished", "content": ""}


@register_task
class FilesMove(_HomeTask):
    """Move two documents into another folder with the file manager (cut and paste).

    The file manager is open on Documents/; the target folder exists. The checker
    wants both files only in the target folder, unchanged, and all else intact.
    """

    id = "computer.files-move-v0"
    max_steps = 30

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        docs = [p for p in home if p.startswith("Documents/")]
        picked = [str(p) for p in rng.choice(docs, size=2, replace=False)]
        target = f"Archive/{int(rng.integers(2015, 2025))}"
        home[f"{target}/index.txt"] = f"archive {target}\n"
        return {"home": home, "files": picked, "target": target}

    def instruction(self, params: dict) -> str:
        names = " and ".join(p.split("/", 1)[1] for p in params["files"])
        return f"Using the file manager, move {names} from Documents to the folder {params['target']}/ in your home folder."

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("files", "Documents")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return _moved(before, {p: f"{params['target']}/{p.split('/', 1)[1]}" for p in params["files"]})

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        for i, path in enumerate(params["files"]):
            yield from _fm_select(path.split("/", 1)[1])
            yield _keys("ctrl", "x")
            yield from _fm_go(sb, params["target"])
            yield _keys("ctrl", "v")
            yield from _until(_exists(sb, f"{params['target']}/{path.split('/', 1)[1]}"))
            if i == 0:
                yield from _fm_go(sb, "Documents")
        yield {"action_type": "finished", "content": ""}


@register_task
class FilesCopyFolder(_HomeTask):
    """Copy a folder of photos into Backup/ with the file manager, keeping the original.

    The checker wants Backup/<folder>/ with the same files (bytes), the original
    folder untouched, and nothing else changed.
    """

    id = "computer.files-copy-folder-v0"
    max_steps = 20

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        trip = f"{rng.choice(_CITIES)}-{int(rng.integers(2019, 2026))}"
        for i in range(int(rng.integers(3, 6))):
            home[f"Photos/{trip}/IMG_{int(rng.integers(1000, 9999))}{i}.png"] = _image(rng)
        home["Backup/README.txt"] = "Backups go here.\n"
        return {"home": home, "folder": f"Photos/{trip}"}

    def instruction(self, params: dict) -> str:
        return (f"With the file manager, copy the folder {params['folder']}/ (with everything in it) into the "
                f"folder Backup/ of your home folder. Keep the original where it is.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("files", "Photos")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        name = params["folder"].split("/", 1)[1]
        return {f"Backup/{name}/{p.rsplit('/', 1)[1]}": b for p, b in before.items()
                if p.startswith(params["folder"] + "/")}

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        name = params["folder"].split("/", 1)[1]
        yield from _fm_select(name)
        yield _keys("ctrl", "c")
        yield from _fm_go(sb, "Backup")
        yield _keys("ctrl", "v")
        sources = [sb.workspace.root / p for p in params["home"] if p.startswith(params["folder"] + "/")]
        copies = [sb.workspace.root / "Backup" / name / src.name for src in sources]
        yield from _until(lambda: all(c.exists() and c.stat().st_size == s.stat().st_size
                                      for c, s in zip(copies, sources)))
        yield {"action_type": "finished", "content": ""}


_EXT_CONTENT = {"txt": "plain text {w}\n", "csv": "id,value\n1,{w}\n", "md": "# {w}\n", "log": "{w} started\n",
                "json": '{{"name": "{w}"}}\n'}


@register_task
class FilesOrganizeByExtension(_HomeTask):
    """Sort the files of Downloads/ into subfolders named by their extension (terminal is the sensible path).

    An xterm is open. Downloads/ holds 8-14 files of 3-5 kinds (png, txt, csv, md, ...).
    The checker wants each file in Downloads/<ext>/ with its bytes, nothing left
    loose in Downloads/, and the rest of the home intact.
    """

    id = "computer.files-organize-by-extension-v0"
    max_steps = 16

    def sample(self, rng: np.random.Generator) -> dict:
        home = {p: c for p, c in _home(rng).items() if not p.startswith("Downloads/")}
        exts = [str(e) for e in rng.choice(["png", "txt", "csv", "md", "log", "json"], size=int(rng.integers(3, 6)),
                                           replace=False)]
        names = [str(w) for w in rng.choice(_WORDS, size=int(rng.integers(8, 15)), replace=False)]
        for i, w in enumerate(names):
            ext = exts[i % len(exts)]
            home[f"Downloads/{w}.{ext}"] = _image(rng) if ext == "png" else _EXT_CONTENT[ext].format(w=w)
        return {"home": home}

    def instruction(self, params: dict) -> str:
        return ("Organize the Downloads folder in your home folder: move every file into a subfolder of "
                "Downloads named after its extension in lower case, without the dot (e.g. Downloads/png/ for .png files).")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("terminal")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        loose = [p for p in before if p.startswith("Downloads/") and p.count("/") == 1]
        return _moved(before, {p: f"Downloads/{p.rsplit('.', 1)[1]}/{p.split('/', 1)[1]}" for p in loose})

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        cmd = 'cd ~/Downloads && for f in *.*; do e="${f##*.}"; mkdir -p "$e" && mv -- "$f" "$e/"; done; cd ~'
        last = sorted(p for p in params["home"] if p.startswith("Downloads/"))[-1]
        yield from _in_terminal(sb, cmd, _gone(sb, last))
        yield {"action_type": "finished", "content": ""}


@register_task
class FilesOrganizeByDate(_HomeTask):
    """Move scans named scan-YYYY-MM-DD-<word>.txt into Scans/YYYY-MM/ folders (terminal is the sensible path).

    The checker wants each scan in the folder of its month, unchanged, and nothing else touched.
    """

    id = "computer.files-organize-by-date-v0"
    max_steps = 16

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        year = int(rng.integers(2019, 2026))
        months = sorted(int(m) for m in rng.choice(np.arange(1, 13), size=3, replace=False))
        for w in rng.choice(_WORDS, size=int(rng.integers(7, 12)), replace=False):
            m, d = months[int(rng.integers(3))], int(rng.integers(1, 29))
            home[f"Scans/scan-{year}-{m:02d}-{d:02d}-{w}.txt"] = f"scanned {w} on {year}-{m:02d}-{d:02d}\n"
        return {"home": home}

    def instruction(self, params: dict) -> str:
        return ("The folder Scans/ in your home folder holds files named scan-YYYY-MM-DD-<name>.txt. Move each one "
                "into a subfolder of Scans named by its year and month, YYYY-MM (e.g. Scans/2024-03/).")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("terminal")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        scans = [p for p in before if p.startswith("Scans/scan-")]
        return _moved(before, {p: f"Scans/{p[11:18]}/{p[6:]}" for p in scans})

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        cmd = 'cd ~/Scans && for f in scan-*; do d=$(echo "$f" | cut -d- -f2,3); mkdir -p "$d" && mv -- "$f" "$d/"; done; cd ~'
        last = sorted(p for p in params["home"] if p.startswith("Scans/"))[-1]
        yield from _in_terminal(sb, cmd, _gone(sb, last))
        yield {"action_type": "finished", "content": ""}


@register_task
class FilesZipFolder(_HomeTask):
    """Archive a folder into a zip file (terminal or file manager).

    The checker opens the zip and wants exactly the folder's files (same bytes;
    under the folder's name or at the top), the folder itself kept, and no other change.
    """

    id = "computer.files-zip-folder-v0"
    max_steps = 16

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        folder = f"Reports/{rng.choice(['q1', 'q2', 'q3', 'q4'])}-{int(rng.integers(2019, 2026))}"
        for w in rng.choice(_WORDS, size=int(rng.integers(3, 6)), replace=False):
            home[f"{folder}/{w}.txt"] = f"{w}: {rng.choice(_SENTENCES)}\n"
        home[f"{folder}/chart.png"] = _image(rng)
        return {"home": home, "folder": folder, "zip": f"{folder.split('/')[1]}.zip"}

    def instruction(self, params: dict) -> str:
        return (f"Create a zip archive named {params['zip']} in your home folder that contains the folder "
                f"{params['folder']}/ and all its files. Keep the folder itself.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("terminal")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["zip"]: ANY}

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        inside = {p.rsplit("/", 1)[1]: b for p, b in baseline["files"].items() if p.startswith(params["folder"] + "/")}
        return all_of(archive_holds(state["files"], params["zip"], inside, kind="zip"),
                      super().check(state, params, answer, baseline))

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        parent, name = params["folder"].split("/")
        yield from _in_terminal(sb, f"cd ~/{parent} && zip -qr ~/{params['zip']} {name}; cd ~",
                                _exists(sb, params["zip"]))
        yield {"action_type": "wait", "seconds": 0.3}   # zip writes the file in place: let it finish
        yield {"action_type": "finished", "content": ""}


@register_task
class FilesArchiveLogs(_HomeTask):
    """Pack the .log files of logs/ into a tar.gz and then delete them (terminal is the sensible path).

    The checker opens the tar.gz and wants exactly the .log files (same bytes), the
    .log files gone from logs/, the other files there kept, and no other change.
    """

    id = "computer.files-archive-logs-v0"
    max_steps = 16

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        for w in rng.choice(_WORDS, size=int(rng.integers(4, 8)), replace=False):
            home[f"logs/{w}.log"] = "".join(f"{int(rng.integers(0, 24)):02d}:00 {w} {rng.choice(['ok', 'warn', 'retry'])}\n"
                                            for _ in range(int(rng.integers(2, 6))))
        home["logs/README.md"] = "Service logs. Keep this file.\n"
        home["logs/rotate.conf"] = f"keep = {int(rng.integers(3, 30))}\n"
        return {"home": home, "archive": f"logs-{int(rng.integers(2019, 2026))}-{int(rng.integers(1, 13)):02d}.tar.gz"}

    def instruction(self, params: dict) -> str:
        return (f"Put all the .log files from the folder logs/ in your home folder into a gzip-compressed tar "
                f"archive named {params['archive']} in the home folder, then delete those .log files from logs/. "
                "Leave the other files in logs/ alone.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("terminal")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        out: dict = {p: None for p in before if p.startswith("logs/") and p.endswith(".log")}
        out[params["archive"]] = ANY
        return out

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        logs = {p.split("/", 1)[1]: b for p, b in baseline["files"].items() if p.startswith("logs/") and p.endswith(".log")}
        return all_of(archive_holds(state["files"], params["archive"], logs, kind="tar.gz"),
                      super().check(state, params, answer, baseline))

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        first = sorted(p for p in params["home"] if p.endswith(".log"))[0]
        yield from _in_terminal(sb, f"cd ~/logs && tar czf ~/{params['archive']} *.log && rm -- *.log; cd ~",
                                _gone(sb, first))
        yield {"action_type": "finished", "content": ""}


@register_task
class FilesDeleteMatching(_HomeTask):
    """Delete every editor backup (*~) and temporary file (*.tmp) under Projects/, in all subfolders.

    The checker wants exactly those files gone and every other file (source files,
    notes, files merely containing "tmp" in the name) intact.
    """

    id = "computer.files-delete-matching-v0"
    max_steps = 16

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        for proj in rng.choice(_WORDS, size=3, replace=False):
            for w in rng.choice(_WORDS, size=int(rng.integers(2, 4)), replace=False):
                src = f"Projects/{proj}/src/{w}.py"
                home[src] = f"def {w}():\n    return {int(rng.integers(100))}\n"
                if rng.random() < 0.6:
                    home[src + "~"] = f"def {w}():\n    pass\n"
            home[f"Projects/{proj}/build-{int(rng.integers(100))}.tmp"] = "partial build\n"
            home[f"Projects/{proj}/tmp-notes.txt"] = f"{proj}: keep me, I am not a temporary file\n"
        return {"home": home}

    def instruction(self, params: dict) -> str:
        return ("Clean up the Projects folder in your home folder: delete every file whose name ends in ~ (editor "
                "backups) or in .tmp, in all its subfolders. Do not delete anything else.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("terminal")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {p: None for p in before if p.startswith("Projects/") and (p.endswith("~") or p.endswith(".tmp"))}

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        victims = [p for p in params["home"] if p.startswith("Projects/") and (p.endswith("~") or p.endswith(".tmp"))]
        yield from _in_terminal(sb, r"find ~/Projects -type f \( -name '*~' -o -name '*.tmp' \) -delete",
                                lambda: all(_gone(sb, p)() for p in victims))
        yield {"action_type": "finished", "content": ""}


@register_task
class FilesLargest(_HomeTask):
    """Report the largest file in Downloads/ (by size in bytes), changing nothing.

    The agent answers with `finished(content="<file name>")`; the checker compares
    the name and confirms no file changed.
    """

    id = "computer.files-largest-v0"
    max_steps = 8

    def sample(self, rng: np.random.Generator) -> dict:
        home = {p: c for p, c in _home(rng).items() if not p.startswith("Downloads/")}
        sizes = rng.choice(np.arange(200, 40000), size=int(rng.integers(6, 10)), replace=False)
        names = rng.choice(_WORDS, size=len(sizes), replace=False)
        exts = ["bin", "dat", "txt", "csv"]
        for n, (w, size) in enumerate(zip(names, sizes)):
            home[f"Downloads/{w}.{exts[n % 4]}"] = ("x" * 63 + "\n") * (int(size) // 64) + "y" * (int(size) % 64)
        big = max(zip(sizes, names, range(len(sizes))))
        return {"home": home, "truth": f"{big[1]}.{exts[big[2] % 4]}"}

    def instruction(self, params: dict) -> str:
        return ("Which file in the Downloads folder of your home folder is the largest? Answer with its file name "
                "only, e.g. finished(content='report.pdf').")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("terminal")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {}

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        return all_of(answer_matches(answer, params["truth"]), super().check(state, params, answer, baseline))

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield _click(sb.width // 2, sb.height // 2)
        yield _type("ls -lS ~/Downloads | head -4\n")
        yield {"action_type": "finished", "content": params["truth"]}   # read off the first line of the listing


# ---------------------------------------------------------------------------------------------
# Text editing (Mousepad)
# ---------------------------------------------------------------------------------------------
_TOPICS = ["budget", "roadmap", "hiring", "launch", "offsite", "migration", "audit", "newsletter"]


def _doc_lines(rng: np.random.Generator, word: str, n: int) -> list[str]:
    """Lines of a memo, each mentioning `word` with probability 1/2 (at least three do)."""
    lines = []
    for i in range(n):
        s = str(rng.choice(_SENTENCES[:4] + _SENTENCES[6:]))
        lines.append(f"The {word} {s[0].lower()}{s[1:]}" if i % 2 == 0 else s)
    return lines


def _save_and_wait(sb, path: str, old: bytes) -> Iterator[dict]:
    """ctrl+S, then wait for the file to change; again if the keys went to a window that was closing."""
    changed = lambda: (sb.workspace.root / path).read_bytes() != old
    for _ in range(3):
        yield _keys("ctrl", "s")
        yield from _until(changed, tries=8)
        if changed():
            return


def _close_dialog(sb, title: str) -> Iterator[dict]:
    """Esc, then wait until the dialog's window is gone (focus is back on the main window)."""
    yield _keys("esc")
    yield from _until(lambda: not any(w["title"] == title for w in sb.windows()), tries=10, seconds=0.1)


@register_task
class EditorReplaceWord(_HomeTask):
    """Replace a word everywhere in a document with Mousepad's Find and Replace, and save.

    Mousepad is open on the document. The checker reads the file: every occurrence
    replaced (and nothing else changed in it), other files intact.
    """

    id = "computer.editor-replace-word-v0"
    max_steps = 24

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        old, new = (str(w) for w in rng.choice(_TOPICS, size=2, replace=False))
        path = f"Documents/{rng.choice(['memo', 'minutes', 'plan', 'summary'])}-{int(rng.integers(10, 99))}.txt"
        home[path] = "\n".join(_doc_lines(rng, old, int(rng.integers(6, 11)))) + "\n"
        return {"home": home, "path": path, "old": old, "new": new}

    def instruction(self, params: dict) -> str:
        return (f"In the text editor, replace every occurrence of the word \"{params['old']}\" with "
                f"\"{params['new']}\" in {params['path']} and save the file.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("editor", params["path"])

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["path"]: before[params["path"]].replace(params["old"].encode(), params["new"].encode())}

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        old = (sb.workspace.root / params["path"]).read_bytes()
        yield _keys("ctrl", "r")
        dialog = sb.wait_ready("mousepad", "Find and Replace", timeout=5)
        x, y, w, h = sb.window_geometry(dialog)
        yield _type(params["old"])
        yield _keys("tab")
        yield _type(params["new"])
        yield from _tick(sb, x + 19, y + h - 59)   # "Replace all in: Document"
        yield from _point_and_click(x + w - 160, y + h - 19)   # "Replace All"
        yield from _until(lambda: any(w["title"].startswith("*") for w in sb.windows()))  # the document changed
        yield from _close_dialog(sb, "Find and Replace")
        yield from _save_and_wait(sb, params["path"], old)
        yield {"action_type": "finished", "content": ""}


@register_task
class EditorFixLine(_HomeTask):
    """Correct one line of a settings file in Mousepad (go to the line, retype it) and save.

    The checker wants exactly that line changed and the rest of the file and home intact.
    """

    id = "computer.editor-fix-line-v0"
    max_steps = 20

    _KEYS = ["timeout", "retries", "workers", "port", "cache_size", "max_users", "interval", "batch_size", "threads"]

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        keys = [str(k) for k in rng.choice(self._KEYS, size=int(rng.integers(6, 9)), replace=False)]
        values = {k: int(rng.integers(2, 500)) for k in keys}
        lines = [f"# {rng.choice(_WORDS)} service settings"] + [f"{k} = {v}" for k, v in values.items()]
        target = int(rng.integers(1, len(lines)))
        key = lines[target].split(" = ")[0]
        new_value = values[key] + int(rng.integers(1, 50))
        path = f"Documents/{rng.choice(_WORDS)}.conf"
        home[path] = "\n".join(lines) + "\n"
        return {"home": home, "path": path, "line": target + 1, "old": lines[target], "new": f"{key} = {new_value}"}

    def instruction(self, params: dict) -> str:
        return (f"In {params['path']}, line {params['line']} reads \"{params['old']}\". Using the text editor, "
                f"change it to \"{params['new']}\" and save the file; leave the other lines as they are.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("editor", params["path"])

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["path"]: before[params["path"]].replace(params["old"].encode() + b"\n", params["new"].encode() + b"\n")}

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        old = (sb.workspace.root / params["path"]).read_bytes()
        yield _keys("ctrl", "l")                 # Search > Go to... (line number field has focus)
        sb.wait_ready("mousepad", "Go To", timeout=5)
        yield _keys("ctrl", "a")
        yield _type(f"{params['line']}\n")
        yield from _until(lambda: not any(w["title"] == "Go To" for w in sb.windows()), tries=10, seconds=0.1)
        yield _keys("home")
        yield _keys("shift", "end")
        yield _type(params["new"])
        yield from _save_and_wait(sb, params["path"], old)
        yield {"action_type": "finished", "content": ""}


@register_task
class EditorAppendSection(_HomeTask):
    """Append a section (a heading and a bullet line) at the end of a Markdown file in Mousepad, and save.

    The checker wants the original text unchanged at the start, then (after optional
    blank lines) exactly the two new lines; other files intact.
    """

    id = "computer.editor-append-section-v0"
    max_steps = 16

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        topic = str(rng.choice(_TOPICS))
        path = f"Documents/{topic}-notes.md"
        body = [f"# {topic.title()} notes", ""] + [f"- {s}" for s in rng.choice(_SENTENCES, size=3, replace=False)]
        home[path] = "\n".join(body) + "\n"
        heading = f"## {rng.choice(['Next steps', 'Open questions', 'Decisions', 'Risks'])}"
        item = f"- {rng.choice(['Ask', 'Call', 'Email', 'Remind'])} {rng.choice(_CITIES)} team by {rng.choice(['Monday', 'Friday', 'noon'])}"
        return {"home": home, "path": path, "heading": heading, "item": item}

    def instruction(self, params: dict) -> str:
        return (f"At the end of {params['path']}, add a new section: a line \"{params['heading']}\" followed by a line "
                f"\"{params['item']}\". Use the text editor and save the file.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("editor", params["path"])

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["path"]: ANY}

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        path = params["path"]
        if path not in state["files"]:
            return CheckResult.failed(f"{path} is gone")
        old = baseline["files"][path].decode().rstrip("\n").split("\n")
        new = state["files"][path].decode("utf-8", "replace").rstrip("\n").split("\n")
        head, tail = new[:len(old)], [ln for ln in new[len(old):] if ln.strip()]
        if head != old:
            return CheckResult.failed(f"the existing text of {path} changed")
        if [ln.rstrip() for ln in tail] != [params["heading"], params["item"]]:
            return CheckResult.failed(f"{path} ends with {tail[-3:]}, expected {[params['heading'], params['item']]}")
        return all_of(CheckResult.passed("section appended"), super().check(state, params, answer, baseline))

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        old = (sb.workspace.root / params["path"]).read_bytes()
        yield _keys("ctrl", "end")
        yield _type(f"\n{params['heading']}\n{params['item']}\n")
        yield from _save_and_wait(sb, params["path"], old)
        yield {"action_type": "finished", "content": ""}


# ---------------------------------------------------------------------------------------------
# App settings, checked in the app's own config file
# ---------------------------------------------------------------------------------------------
#: Mousepad keeps its preferences in GSettings; the desktop stores them in this keyfile
GSETTINGS_KEYFILE = ".config/glib-2.0/settings/keyfile"


def _config_value(sb, path: str, section: str, key: str) -> str | None:
    from hybridgym.reward.files import config_value
    target = sb.workspace.root / path
    return config_value(target.read_bytes() if target.exists() else None, section, key)


def _menu(sb, top: tuple[int, int], item: tuple[int, int], wm_class: str) -> Iterator[dict]:
    """Open a menu of the menu bar and choose an item (positions of a window whose place the openbox rules fix)."""
    popups = lambda: [w for w in sb.windows() if wm_class in w["wm_class"] and w["geometry"]
                      and w["geometry"][1] > top[1] and w["geometry"][0] <= item[0]]
    for _ in range(3):
        yield _click(*top)
        yield from _until(lambda: bool(popups()), tries=8, seconds=0.1)
        if popups():
            break
    yield from _point_and_click(*item)


class _SettingsTask(Task):
    """Change one setting of an app; the checker reads the app's config file and confirms no user file changed."""

    suite = "computer"
    max_steps = 16

    def read_state(self, sb, params: dict) -> dict:
        return _snapshot_state(sb)

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        return all_of(config_is(state["files"], params["config"], params["section"], params["key"], params["value"]),
                      expected_tree(baseline["files"], state["files"], {}))


_EDITOR_VIEW = {   # name in the instruction -> (menu, item, keyfile section, key)
    "line numbers": ((163, 34), (213, 110), "org/xfce/mousepad/preferences/view", "show-line-numbers"),
    "the toolbar": ((163, 34), (192, 161), "org/xfce/mousepad/preferences/window", "toolbar-visible"),
    "the status bar": ((163, 34), (200, 186), "org/xfce/mousepad/preferences/window", "statusbar-visible"),
}
_EDITOR_DOCUMENT = {
    "word wrap": ((229, 34), (252, 59), "org/xfce/mousepad/preferences/view", "word-wrap"),
    "automatic indentation": ((229, 34), (254, 84), "org/xfce/mousepad/preferences/view", "auto-indent"),
}


class _EditorSetting(_SettingsTask):
    OPTIONS: dict = {}

    def sample(self, rng: np.random.Generator) -> dict:
        name = str(rng.choice(sorted(self.OPTIONS)))
        _, _, section, key = self.OPTIONS[name]
        doc = f"Documents/{rng.choice(_WORDS)}-{int(rng.integers(10, 99))}.txt"
        return {"home": {**_home(rng), doc: "\n".join(rng.choice(_SENTENCES, size=4)) + "\n"}, "doc": doc,
                "option": name, "config": GSETTINGS_KEYFILE, "section": section, "key": key, "value": "true"}

    def instruction(self, params: dict) -> str:
        return f"Turn on {params['option']} in the text editor (it should stay on for every document)."

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("editor", params["doc"])

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        top, item, section, key = self.OPTIONS[params["option"]]
        yield from _menu(sb, top, item, "mousepad")
        yield from _until(lambda: _config_value(sb, GSETTINGS_KEYFILE, section, key) == "true")
        yield {"action_type": "finished", "content": ""}


@register_task
class SettingsEditorView(_EditorSetting):
    """Show line numbers, the toolbar or the status bar in Mousepad (View menu).

    Checked in Mousepad's GSettings, stored in ~/.config/glib-2.0/settings/keyfile
    (`[org/xfce/mousepad/preferences/view] show-line-numbers=true`, ...).
    """

    id = "computer.settings-editor-view-v0"
    OPTIONS = _EDITOR_VIEW


@register_task
class SettingsEditorDocument(_EditorSetting):
    """Turn on word wrap or automatic indentation in Mousepad (Document menu).

    Checked in ~/.config/glib-2.0/settings/keyfile
    (`[org/xfce/mousepad/preferences/view] word-wrap=true` or `auto-indent=true`).
    """

    id = "computer.settings-editor-document-v0"
    OPTIONS = _EDITOR_DOCUMENT


@register_task
class SettingsCalculatorMode(_SettingsTask):
    """Switch Galculator to scientific or paper mode and quit it, so it saves the setting.

    Galculator writes ~/.config/galculator/galculator.conf when it quits; the checker
    wants `[general] mode=1` (scientific) or `mode=2` (paper).
    """

    id = "computer.settings-calculator-mode-v0"
    max_steps = 24
    _MODES = {"scientific": ("1", (550, 185)), "paper": ("2", (539, 210))}

    def sample(self, rng: np.random.Generator) -> dict:
        mode = str(rng.choice(sorted(self._MODES)))
        return {"home": _home(rng), "mode": mode, "config": ".config/galculator/galculator.conf",
                "section": "general", "key": "mode", "value": self._MODES[mode][0]}

    def instruction(self, params: dict) -> str:
        return (f"Switch the calculator to {params['mode']} mode, then quit the calculator (File > Quit) so that it "
                "remembers the mode.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("calculator")

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        x, y, w, h = sb.window_geometry(sb.wait_for_window("galculator"))
        yield from _menu(sb, (x + 103, y + 12), self._MODES[params["mode"]][1], "galculator")
        yield from _until(lambda: sb.window_geometry(sb.wait_for_window("galculator"))[2] != w, tries=10)
        x, y, w, h = sb.window_geometry(sb.wait_for_window("galculator"))
        yield from _menu(sb, (x + 18, y + 12), (x + 38, y + 37), "galculator")   # File > Quit
        yield from _until(lambda: _config_value(sb, params["config"], "general", "mode") is not None)
        yield {"action_type": "finished", "content": ""}


@register_task
class SettingsFilesHidden(_SettingsTask):
    """Make PCManFM show hidden files (View > Show Hidden, or ctrl+H).

    PCManFM saves it at once in ~/.config/pcmanfm/default/pcmanfm.conf; the checker
    wants `[ui] show_hidden=1`, and no user file changed.
    """

    id = "computer.settings-files-hidden-v0"
    max_steps = 12

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        folder = str(rng.choice(["Documents", "Pictures", "Downloads"]))
        home[f"{folder}/.{rng.choice(_WORDS)}-cache"] = "hidden\n"
        return {"home": home, "folder": folder, "config": ".config/pcmanfm/default/pcmanfm.conf",
                "section": "ui", "key": "show_hidden", "value": "1"}

    def instruction(self, params: dict) -> str:
        return (f"The file manager is open on {params['folder']}. Change its settings so that it shows hidden files "
                "(names starting with a dot) in every folder.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("files", params["folder"])

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        for _ in range(3):
            yield _keys("ctrl", "h")
            yield from _until(lambda: _config_value(sb, params["config"], "ui", "show_hidden") == "1", tries=8)
            if _config_value(sb, params["config"], "ui", "show_hidden") == "1":
                break
        yield {"action_type": "finished", "content": ""}


# ---------------------------------------------------------------------------------------------
# Infeasible as asked: the right answer is to say so (call_user(), or finished stating it)
# ---------------------------------------------------------------------------------------------
class _InfeasibleTask(Task):
    """A request that cannot be done on this desktop. Success: the agent declines
    (`call_user()`, or `finished(content=...)` saying it cannot be done) and changes no
    user file. Running out of steps, or claiming success, fails."""

    suite = "computer"
    max_steps = 10

    def read_state(self, sb, params: dict) -> dict:
        return _snapshot_state(sb)

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        return declined_and_unchanged(answer, baseline["files"], state["files"])


@register_task
class InfeasibleMissingFile(_InfeasibleTask):
    """Edit a document that does not exist (documents with similar names do)."""

    id = "computer.infeasible-missing-file-v0"

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        word = str(rng.choice(_TOPICS))
        home[f"Documents/{word}-notes.txt"] = f"{word} notes\n" + "\n".join(rng.choice(_SENTENCES, size=3)) + "\n"
        home[f"Documents/{word}-notes-old.txt"] = f"{word} (old)\n"
        return {"home": home, "missing": f"Documents/{word}-report.txt", "old": str(rng.choice(_WORDS)),
                "new": str(rng.choice(_WORDS))}

    def instruction(self, params: dict) -> str:
        return (f"Open {params['missing']} in the text editor, replace every \"{params['old']}\" with "
                f"\"{params['new']}\" and save it.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("editor")

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield {"action_type": "finished", "content": f"I cannot do this: {params['missing']} does not exist."}


@register_task
class InfeasibleAppNotInstalled(_InfeasibleTask):
    """Use a presentation program (LibreOffice Impress), which this desktop does not have."""

    id = "computer.infeasible-app-not-installed-v0"

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        deck = f"Documents/{rng.choice(_TOPICS)}-{int(rng.integers(2019, 2026))}.pptx"
        home[deck] = "PK\x03\x04 (a presentation)\n"
        return {"home": home, "deck": deck, "slide": int(rng.integers(2, 9))}

    def instruction(self, params: dict) -> str:
        return (f"Open {params['deck']} in LibreOffice Impress, delete slide {params['slide']} and save the "
                "presentation.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("files", "Documents")

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield {"action_type": "call_user"}   # LibreOffice is not installed: ask the user


@register_task
class InfeasibleCalculatorPlot(_InfeasibleTask):
    """Plot a function with the calculator (Galculator has no plotting)."""

    id = "computer.infeasible-calculator-plot-v0"

    def sample(self, rng: np.random.Generator) -> dict:
        return {"home": _home(rng), "a": int(rng.integers(2, 9)), "b": int(rng.integers(-9, 10))}

    def instruction(self, params: dict) -> str:
        return (f"Use the calculator to plot y = {params['a']}x^2 + ({params['b']}) for x from -5 to 5 and save the "
                f"graph as Pictures/parabola-{params['a']}.png.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("calculator")

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield {"action_type": "finished", "content": "This is not possible: the calculator cannot plot graphs."}


@register_task
class InfeasibleViewerEdit(_InfeasibleTask):
    """Remove a photo's background with the image viewer (Ristretto only views images)."""

    id = "computer.infeasible-viewer-edit-v0"

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        return {"home": home, "image": next(p for p in home if p.startswith("Pictures/"))}

    def instruction(self, params: dict) -> str:
        return (f"The image viewer shows {params['image']}. Use its background-removal tool to make the "
                "background transparent and save the image in place.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("images", params["image"])

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield {"action_type": "call_user", "content": "The image viewer has no background-removal tool; "
                                                      "I cannot edit the image here."}


@register_task
class InfeasibleVersionHistory(_InfeasibleTask):
    """Restore an earlier version of a file from a version history that does not exist."""

    id = "computer.infeasible-version-history-v0"

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        doc = next(p for p in home if p.startswith("Documents/"))
        return {"home": home, "doc": doc, "day": str(rng.choice(["Monday", "Tuesday", "Wednesday", "Thursday"]))}

    def instruction(self, params: dict) -> str:
        return (f"Using the file manager's version history, restore {params['doc']} to the version it had last "
                f"{params['day']}.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("files", "Documents")

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield {"action_type": "finished", "content": "Not possible: the file manager keeps no version history "
                                                     f"and there is no earlier copy of {params['doc']}."}


# ---------------------------------------------------------------------------------------------
# Hybrid: the SDK (terminal, read_file, write_file) is the sensible path for part of the work
# ---------------------------------------------------------------------------------------------
def _sdk(command: str) -> dict:
    return {"action_type": "terminal", "command": command}


def _save_new_file(sb, name: str) -> Iterator[dict]:
    """In Mousepad: ctrl+S on a new document, type the name into the Save As dialog, confirm, wait for the file."""
    yield _keys("ctrl", "s")
    sb.wait_ready("mousepad", "Save As", timeout=5)
    yield _type(name)   # the name field has focus; a path relative to the dialog's folder (the home)
    # GTK enables the Save button a moment after the name changes
    yield {"action_type": "wait", "seconds": 0.5}
    for _ in range(3):
        yield _keys("enter")
        yield from _until(_exists(sb, name), tries=8)
        if _exists(sb, name)():
            return


@register_task
class HybridFixConfigPort(_HomeTask):
    """Find which of ~40 service configs sets a given port (grep through the SDK), then fix
    that line in the text editor.

    The checker wants only that line changed (`port = <new>`) and every other file intact.
    """

    id = "computer.hybrid-fix-config-port-v0"
    max_steps = 24
    sdk = True

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        ports = rng.choice(np.arange(2000, 9999), size=40, replace=False)
        names = [f"{a}-{b}" for a, b in zip(rng.choice(_WORDS, 40), rng.choice(_TOPICS, 40))]
        for i, (name, port) in enumerate(zip(names, ports)):
            home[f"services/{name}-{i:02d}/service.conf"] = (f"name = {name}\nhost = 10.0.{i}.{int(rng.integers(2, 250))}\n"
                                                           f"port = {port}\nworkers = {int(rng.integers(1, 9))}\n")
        target = int(rng.integers(40))
        return {"home": home, "path": f"services/{names[target]}-{target:02d}/service.conf",
                "old": int(ports[target]), "new": int(rng.integers(10000, 20000))}

    def instruction(self, params: dict) -> str:
        return (f"One of the service.conf files under services/ in your home folder has the line \"port = "
                f"{params['old']}\". Change that port to {params['new']} and save the file; change nothing else.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("editor")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["path"]: before[params["path"]].replace(f"port = {params['old']}\n".encode(),
                                                                f"port = {params['new']}\n".encode())}

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        obs = yield _sdk(f"grep -rn '^port = {params['old']}$' services")
        path, line = obs["sdk_output"].strip().splitlines()[0].split(":")[:2]
        old = (sb.workspace.root / path).read_bytes()
        yield _keys("ctrl", "o")
        sb.wait_ready("mousepad", "Open File", timeout=5)
        yield _type(str(sb.workspace.root / path))   # typing a path opens the dialog's location field
        yield {"action_type": "wait", "seconds": 0.3}
        yield _keys("enter")
        yield from _until(lambda: any(path in w["title"] for w in sb.windows()), tries=15)
        yield _keys("ctrl", "l")
        sb.wait_ready("mousepad", "Go To", timeout=5)
        yield _keys("ctrl", "a")
        yield _type(f"{line}\n")
        yield from _until(lambda: not any(w["title"] == "Go To" for w in sb.windows()), tries=10, seconds=0.1)
        yield _keys("home")
        yield _keys("shift", "end")
        yield _type(f"port = {params['new']}")
        yield from _save_and_wait(sb, path, old)
        yield {"action_type": "finished", "content": ""}


@register_task
class HybridCountErrors(_HomeTask):
    """Count the log lines with a given error code across ~25 log files (grep through the SDK) and answer.

    The agent answers `finished(content="<count>")`; the checker compares the number
    and confirms no file changed.
    """

    id = "computer.hybrid-count-errors-v0"
    max_steps = 8
    sdk = True

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        codes = [f"E{c}" for c in rng.choice(np.arange(100, 999), size=6, replace=False)]
        code, count = codes[0], 0
        for d in range(25):
            lines = []
            for _ in range(int(rng.integers(10, 40))):
                level = rng.choice(["INFO", "INFO", "WARN", "ERROR"])
                c = str(rng.choice(codes)) if level == "ERROR" else ""
                count += int(c == code)
                lines.append(f"2025-03-{d + 1:02d} {int(rng.integers(24)):02d}:{int(rng.integers(60)):02d} {level} "
                             f"{c} {rng.choice(_ITEMS)} {rng.choice(['saved', 'timeout', 'retry', 'done'])}".replace("  ", " "))
            home[f"logs/app-2025-03-{d + 1:02d}.log"] = "\n".join(lines) + "\n"
        return {"home": home, "code": code, "truth": str(count)}

    def instruction(self, params: dict) -> str:
        return (f"How many ERROR lines with the code {params['code']} are there in all the .log files under logs/ "
                f"in your home folder? Answer with the number only, e.g. finished(content='42').")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("terminal")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {}

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        return all_of(answer_matches(answer, params["truth"], numeric=True), super().check(state, params, answer, baseline))

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        obs = yield _sdk(f"cat logs/*.log | grep -c ' ERROR {params['code']} '")
        m = re.search(r"^(\d+)\s*$", obs["sdk_output"], re.M)
        yield {"action_type": "finished", "content": m.group(1) if m else "?"}


@register_task
class HybridDedupePictures(_HomeTask):
    """Delete the duplicate pictures in Pictures/ (same bytes, other names), keeping of each set
    the name that sorts first. Checksums through the SDK are the sensible path.

    The checker wants exactly the later-named copies gone and everything else intact.
    """

    id = "computer.hybrid-dedupe-pictures-v0"
    max_steps = 8
    sdk = True

    def sample(self, rng: np.random.Generator) -> dict:
        home = {p: c for p, c in _home(rng).items() if not p.startswith("Pictures/")}
        names = [f"IMG_{n}.png" for n in rng.choice(np.arange(1000, 9999), size=14, replace=False)]
        originals = {n: _image(rng) for n in names[:10]}
        copies = {n: originals[str(rng.choice(names[:10]))] for n in names[10:]}
        home.update({f"Pictures/{n}": c for n, c in {**originals, **copies}.items()})
        return {"home": home}

    def instruction(self, params: dict) -> str:
        return ("Some pictures in the Pictures folder of your home folder are exact duplicates of others under a "
                "different name. Delete the duplicates: of each group of identical files keep only the one whose "
                "name sorts first alphabetically.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("files", "Pictures")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        seen, out = set(), {}
        for p in sorted(p for p in before if p.startswith("Pictures/")):
            if before[p] in seen:
                out[p] = None
            seen.add(before[p])
        return out

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        obs = yield _sdk("cd Pictures && md5sum * | sort -k1,1 -k2,2")
        seen, extra = set(), []
        for line in obs["sdk_output"].splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1].endswith(".png"):
                if parts[0] in seen:
                    extra.append(parts[1])
                seen.add(parts[0])
        yield _sdk("cd Pictures && rm -- " + " ".join(extra))
        yield {"action_type": "finished", "content": ""}


@register_task
class HybridCsvTotal(_HomeTask):
    """Sum a column of a CSV for one region (awk through the SDK), then write the total into a
    new file with the text editor.

    The checker wants the new file holding the total with two decimals, and nothing else changed.
    """

    id = "computer.hybrid-csv-total-v0"
    max_steps = 22
    sdk = True

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        regions = [str(r) for r in rng.choice(_CITIES, size=4, replace=False)]
        rows, total = [], 0.0
        for i in range(int(rng.integers(60, 120))):
            region, amount = str(rng.choice(regions)), round(float(rng.uniform(10, 900)), 2)
            total += amount if region == regions[0] else 0.0
            rows.append(f"{i + 1},2025-{int(rng.integers(1, 13)):02d}-{int(rng.integers(1, 29)):02d},{region},{amount:.2f}")
        csv = f"Downloads/sales-{int(rng.integers(2019, 2026))}.csv"
        home[csv] = "id,date,region,amount\n" + "\n".join(rows) + "\n"
        return {"home": home, "csv": csv, "region": regions[0], "total": f"{total:.2f}",
                "out": f"Documents/total-{regions[0].lower()}.txt"}

    def instruction(self, params: dict) -> str:
        return (f"Add up the amount column of {params['csv']} for the rows whose region is {params['region']}. Then, "
                f"with the text editor, save the total with two decimals (e.g. 1234.50) as the only content of "
                f"{params['out']}.")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("editor")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["out"]: params["total"].encode()}

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        obs = yield _sdk(f"awk -F, '$3 == \"{params['region']}\" {{ s += $4 }} END {{ printf \"%.2f\\n\", s }}' {params['csv']}")
        total = obs["sdk_output"].strip().splitlines()[0]
        yield _click(sb.width // 2, sb.height // 2)
        yield _type(total)
        yield from _save_new_file(sb, params["out"])
        yield {"action_type": "finished", "content": ""}


@register_task
class HybridBatchRename(_HomeTask):
    """Rename 10-20 camera pictures IMG_<n>.png to <trip>-001.png, <trip>-002.png, ... in the order of <n>
    (a shell loop through the SDK is the sensible path); the file manager is open on the folder.

    The checker wants each picture under its new name with its bytes, and nothing else changed.
    """

    id = "computer.hybrid-batch-rename-v0"
    max_steps = 8
    sdk = True

    def sample(self, rng: np.random.Generator) -> dict:
        home = _home(rng)
        nums = sorted(int(n) for n in rng.choice(np.arange(1000, 9999), size=int(rng.integers(10, 21)), replace=False))
        for n in nums:
            home[f"Camera/IMG_{n}.png"] = _image(rng)
        return {"home": home, "trip": f"{rng.choice(_CITIES).lower()}-{int(rng.integers(2019, 2026))}", "nums": nums}

    def instruction(self, params: dict) -> str:
        return (f"Rename the pictures in the Camera folder of your home folder from IMG_<number>.png to "
                f"{params['trip']}-001.png, {params['trip']}-002.png, ... numbered in the order of their original "
                "numbers (smallest first).")

    def setup(self, sb, params: dict) -> None:
        _place(sb, params["home"])
        sb.open_app("files", "Camera")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return _moved(before, {f"Camera/IMG_{n}.png": f"Camera/{params['trip']}-{i + 1:03d}.png"
                               for i, n in enumerate(params["nums"])})

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield _sdk(f"cd Camera && i=0; for f in $(ls IMG_*.png | sort -t_ -k2 -n); do i=$((i+1)); "
                   f"mv -- \"$f\" \"$(printf '{params['trip']}-%03d.png' $i)\"; done; ls")
        yield {"action_type": "finished", "content": ""}
