"""Computer tasks: file management on the desktop, in the file manager (PCManFM) or a terminal (xterm).

## Description
Rename, move and copy files and folders in PCManFM; sort, archive and clean up folders
(the terminal is the sensible path there); find the largest file. Each episode's home is
drawn from the seed (Documents/, Pictures/ with real PNGs, Downloads/, and the task's own
folders: Archive/, Photos/, Scans/, Reports/, logs/, Projects/).

## Action Space / Observation Space
Those of `ComputerEnv` (the whole 1280×800 desktop; clicks, keys, typing, scrolls). No SDK.

## Rewards
1.0 when the home is exactly the baseline with the asked changes (`expected_tree`): moved
files only at their new place with their bytes, archives holding exactly the asked files
(`archive_holds`; for `files-zip-folder` at the top, under the folder's name or under its
path, nothing else), nothing else added, changed or deleted; for `files-largest`, the
`finished(content=...)` answer is the file's name as a whole (`match_answer`: "report.pdf" or
"Downloads/report.pdf"; a list of names fails). App state (`.config/`, `.cache/`, ...) is ignored.

## Starting State
The drawn home is written, then PCManFM opens on the task's folder, or an xterm opens.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1 (files-zip-folder, files-largest): the zip may hold the folder under its path from the home
  (`zip -r q1-2025.zip Reports/q1-2025/`), and no other prefix; the largest file's name is read with
  `match_answer` (whole answer, no substring). All tasks: split-disjoint names and years.
"""

from __future__ import annotations

import zipfile
from typing import Callable, ClassVar, Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.answers import Answer, match_answer
from hybridgym.reward.checkers import all_of
from hybridgym.reward.files import ANY, archive_holds

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import pick
from .kit.desktop import CITIES, SENTENCES, WORDS, HomeTask, exists, fm_go, fm_select, home, image, moved, year


def _gone(sb, rel: str) -> Callable[[], bool]:
    return lambda: not (sb.workspace.root / rel).exists()


@register_task(id="computer.files-rename-v0", max_steps=20)
class FilesRename(HomeTask):
    """Rename a document in the file manager (PCManFM, open on Documents/).

    The checker wants the file under its new name with the same bytes, and every
    other file of the home intact.
    """

    app = ("files", "Documents")

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        src = next(p for p in files if p.startswith("Documents/"))
        new = f"{pick(rng, WORDS)}-{pick(rng, ['final', 'draft', 'v2', 'old', 'signed'])}.txt"
        return {"home": files, "src": src, "dst": f"Documents/{new}"}

    def instruction(self, params: dict) -> str:
        return (f"In the file manager, rename the file {params['src']} (in your home folder) to "
                f"{params['dst'].split('/', 1)[1]}, keeping it in the same folder.")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return moved(before, {params["src"]: params["dst"]})

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield from fm_select(params["src"].split("/", 1)[1])
        yield act.keys("f2")
        yield act.keys("ctrl", "a")
        yield act.typed(params["dst"].split("/", 1)[1] + "\n")
        yield from act.until(exists(sb, params["dst"]))
        yield act.finish()


@register_task(id="computer.files-move-v0", max_steps=30)
class FilesMove(HomeTask):
    """Move two documents into another folder with the file manager (cut and paste).

    The file manager is open on Documents/; the target folder exists. The checker
    wants both files only in the target folder, unchanged, and all else intact.
    """

    app = ("files", "Documents")

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        picked = pick(rng, [p for p in files if p.startswith("Documents/")], 2)
        target = f"Archive/{year(rng)}"
        files[f"{target}/index.txt"] = f"archive {target}\n"
        return {"home": files, "files": picked, "target": target}

    def instruction(self, params: dict) -> str:
        names = " and ".join(p.split("/", 1)[1] for p in params["files"])
        return f"Using the file manager, move {names} from Documents to the folder {params['target']}/ in your home folder."

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return moved(before, {p: f"{params['target']}/{p.split('/', 1)[1]}" for p in params["files"]})

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        for i, path in enumerate(params["files"]):
            yield from fm_select(path.split("/", 1)[1])
            yield act.keys("ctrl", "x")
            yield from fm_go(sb, params["target"])
            yield act.keys("ctrl", "v")
            yield from act.until(exists(sb, f"{params['target']}/{path.split('/', 1)[1]}"))
            if i == 0:
                yield from fm_go(sb, "Documents")
        yield act.finish()


@register_task(id="computer.files-copy-folder-v0", max_steps=20)
class FilesCopyFolder(HomeTask):
    """Copy a folder of photos into Backup/ with the file manager, keeping the original.

    The checker wants Backup/<folder>/ with the same files (bytes), the original
    folder untouched, and nothing else changed.
    """

    app = ("files", "Photos")

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        trip = f"{pick(rng, CITIES)}-{year(rng)}"
        for i in range(int(rng.integers(3, 6))):
            files[f"Photos/{trip}/IMG_{int(rng.integers(1000, 9999))}{i}.png"] = image(rng)
        files["Backup/README.txt"] = "Backups go here.\n"
        return {"home": files, "folder": f"Photos/{trip}"}

    def instruction(self, params: dict) -> str:
        return (f"With the file manager, copy the folder {params['folder']}/ (with everything in it) into the "
                f"folder Backup/ of your home folder. Keep the original where it is.")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        name = params["folder"].split("/", 1)[1]
        return {f"Backup/{name}/{p.rsplit('/', 1)[1]}": b for p, b in before.items()
                if p.startswith(params["folder"] + "/")}

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        name = params["folder"].split("/", 1)[1]
        yield from fm_select(name)
        yield act.keys("ctrl", "c")
        yield from fm_go(sb, "Backup")
        yield act.keys("ctrl", "v")
        sources = [sb.workspace.root / p for p in params["home"] if p.startswith(params["folder"] + "/")]
        copies = [sb.workspace.root / "Backup" / name / src.name for src in sources]
        yield from act.until(lambda: all(c.exists() and c.stat().st_size == s.stat().st_size
                                         for c, s in zip(copies, sources)))
        yield act.finish()


# -- in the terminal -------------------------------------------------------------------------
class _ShellTask(HomeTask):
    """A file task with an xterm open; the oracle types one `command` and waits until it is `done`."""

    app = ("terminal",)
    max_steps = 16
    #: the folder whose drawn files make the instance (its instruction names none of them): `instance_key`
    listed: ClassVar[str] = ""

    def instance_key(self, params: dict) -> tuple:
        """The instruction, plus, where it names no file, the names of the drawn files under `listed`
        (split-pool words: a test instance's files are never a training instance's)."""
        key = super().instance_key(params)
        if not self.listed:
            return key
        return key + (tuple(sorted(p for p in params["home"] if p.startswith(self.listed))),)

    def command(self, params: dict) -> str:
        raise NotImplementedError

    def done(self, sb, params: dict) -> Callable[[], bool]:
        raise NotImplementedError

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield act.click(sb.width // 2, sb.height // 2)
        yield act.typed(self.command(params) + "\n")
        yield from act.until(self.done(sb, params))
        yield act.finish()


_EXT_CONTENT = {"txt": "plain text {w}\n", "csv": "id,value\n1,{w}\n", "md": "# {w}\n", "log": "{w} started\n",
                "json": '{{"name": "{w}"}}\n'}


@register_task(id="computer.files-organize-by-extension-v0")
class FilesOrganizeByExtension(_ShellTask):
    """Sort the files of Downloads/ into subfolders named by their extension (terminal is the sensible path).

    An xterm is open. Downloads/ holds 8-14 files of 3-5 kinds (png, txt, csv, md, ...).
    The checker wants each file in Downloads/<ext>/ with its bytes, nothing left
    loose in Downloads/, and the rest of the home intact.
    """

    listed = "Downloads/"

    def sample(self, rng: np.random.Generator) -> dict:
        files = {p: c for p, c in home(rng).items() if not p.startswith("Downloads/")}
        exts = pick(rng, ["png", "txt", "csv", "md", "log", "json"], int(rng.integers(3, 6)))
        for i, w in enumerate(pick(rng, WORDS, int(rng.integers(8, 15)))):
            ext = exts[i % len(exts)]
            files[f"Downloads/{w}.{ext}"] = image(rng) if ext == "png" else _EXT_CONTENT[ext].format(w=w)
        return {"home": files}

    def instruction(self, params: dict) -> str:
        return ("Organize the Downloads folder in your home folder: move every file into a subfolder of "
                "Downloads named after its extension in lower case, without the dot (e.g. Downloads/png/ for .png files).")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        loose = [p for p in before if p.startswith("Downloads/") and p.count("/") == 1]
        return moved(before, {p: f"Downloads/{p.rsplit('.', 1)[1]}/{p.split('/', 1)[1]}" for p in loose})

    def command(self, params: dict) -> str:
        return 'cd ~/Downloads && for f in *.*; do e="${f##*.}"; mkdir -p "$e" && mv -- "$f" "$e/"; done; cd ~'

    def done(self, sb, params: dict) -> Callable[[], bool]:
        return _gone(sb, sorted(p for p in params["home"] if p.startswith("Downloads/"))[-1])


@register_task(id="computer.files-organize-by-date-v0")
class FilesOrganizeByDate(_ShellTask):
    """Move scans named scan-YYYY-MM-DD-<word>.txt into Scans/YYYY-MM/ folders (terminal is the sensible path).

    The checker wants each scan in the folder of its month, unchanged, and nothing else touched.
    """

    listed = "Scans/"

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        yr = year(rng)
        months = sorted(pick(rng, range(1, 13), 3))
        for w in pick(rng, WORDS, int(rng.integers(7, 12))):
            m, d = months[int(rng.integers(3))], int(rng.integers(1, 29))
            files[f"Scans/scan-{yr}-{m:02d}-{d:02d}-{w}.txt"] = f"scanned {w} on {yr}-{m:02d}-{d:02d}\n"
        return {"home": files}

    def instruction(self, params: dict) -> str:
        return ("The folder Scans/ in your home folder holds files named scan-YYYY-MM-DD-<name>.txt. Move each one "
                "into a subfolder of Scans named by its year and month, YYYY-MM (e.g. Scans/2024-03/).")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        scans = [p for p in before if p.startswith("Scans/scan-")]
        return moved(before, {p: f"Scans/{p[11:18]}/{p[6:]}" for p in scans})

    def command(self, params: dict) -> str:
        return 'cd ~/Scans && for f in scan-*; do d=$(echo "$f" | cut -d- -f2,3); mkdir -p "$d" && mv -- "$f" "$d/"; done; cd ~'

    def done(self, sb, params: dict) -> Callable[[], bool]:
        return _gone(sb, sorted(p for p in params["home"] if p.startswith("Scans/"))[-1])


class _ArchiveTask(_ShellTask):
    """Pack files into an archive (`params[archive]`, of `kind`): the checker opens it and wants exactly
    the `packed` files (member path -> bytes of the baseline), and the home's `changes`."""

    archive: ClassVar[str] = ""
    kind: ClassVar[str] = ""

    def packed(self, params: dict, before: dict[str, bytes]) -> dict[str, bytes]:
        raise NotImplementedError

    def prefixes(self, params: dict) -> tuple[str, ...] | None:
        """The folder prefixes the members may carry (`archive_holds`); None: any one common folder."""
        return None

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return all_of(archive_holds(state["files"], params[self.archive], self.packed(params, baseline["files"]),
                                    kind=self.kind, prefixes=self.prefixes(params)),
                      super().check(state, params, outcome, baseline))


@register_task(id="computer.files-zip-folder-v1")
class FilesZipFolder(_ArchiveTask):
    """Archive a folder into a zip file (terminal or file manager).

    The checker opens the zip and wants exactly the folder's files with their bytes, all at one
    of the places the instruction allows: at the top of the archive (`zip -r ../q1-2025.zip .`),
    under the folder's name (`cd Reports && zip -r ~/q1-2025.zip q1-2025`), or under its path from
    the home (`zip -r q1-2025.zip Reports/q1-2025/`); "./" prefixes and directory entries do not
    count. Any other file in the archive (or a member missing, or another prefix) fails. The
    folder itself is kept, and the home has no other change.
    """

    archive, kind = "zip", "zip"

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        folder = f"Reports/{pick(rng, ['q1', 'q2', 'q3', 'q4'])}-{year(rng)}"
        for w in pick(rng, WORDS, int(rng.integers(3, 6))):
            files[f"{folder}/{w}.txt"] = f"{w}: {pick(rng, SENTENCES)}\n"
        files[f"{folder}/chart.png"] = image(rng)
        return {"home": files, "folder": folder, "zip": f"{folder.split('/')[1]}.zip"}

    def instruction(self, params: dict) -> str:
        return (f"Create a zip archive named {params['zip']} in your home folder that contains the folder "
                f"{params['folder']}/ and all its files. Keep the folder itself.")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["zip"]: ANY}

    def packed(self, params: dict, before: dict[str, bytes]) -> dict[str, bytes]:
        return {p.rsplit("/", 1)[1]: b for p, b in before.items() if p.startswith(params["folder"] + "/")}

    def prefixes(self, params: dict) -> tuple[str, ...]:
        return ("", params["folder"].split("/", 1)[1] + "/", params["folder"] + "/")

    def command(self, params: dict) -> str:
        parent, name = params["folder"].split("/")
        return f"cd ~/{parent} && zip -qr ~/{params['zip']} {name}; cd ~"

    def done(self, sb, params: dict) -> Callable[[], bool]:
        path = sb.workspace.root / params["zip"]
        return lambda: path.exists() and zipfile.is_zipfile(path)   # written to the end


@register_task(id="computer.files-archive-logs-v0")
class FilesArchiveLogs(_ArchiveTask):
    """Pack the .log files of logs/ into a tar.gz and then delete them (terminal is the sensible path).

    The checker opens the tar.gz and wants exactly the .log files (same bytes), the
    .log files gone from logs/, the other files there kept, and no other change.
    """

    archive, kind = "archive", "tar.gz"

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        for w in pick(rng, WORDS, int(rng.integers(4, 8))):
            files[f"logs/{w}.log"] = "".join(f"{int(rng.integers(0, 24)):02d}:00 {w} {pick(rng, ['ok', 'warn', 'retry'])}\n"
                                             for _ in range(int(rng.integers(2, 6))))
        files["logs/README.md"] = "Service logs. Keep this file.\n"
        files["logs/rotate.conf"] = f"keep = {int(rng.integers(3, 30))}\n"
        return {"home": files, "archive": f"logs-{year(rng)}-{int(rng.integers(1, 13)):02d}.tar.gz"}

    def instruction(self, params: dict) -> str:
        return (f"Put all the .log files from the folder logs/ in your home folder into a gzip-compressed tar "
                f"archive named {params['archive']} in the home folder, then delete those .log files from logs/. "
                "Leave the other files in logs/ alone.")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {**{p: None for p in self.packed_paths(before)}, params["archive"]: ANY}

    @staticmethod
    def packed_paths(before) -> list[str]:
        return [p for p in before if p.startswith("logs/") and p.endswith(".log")]

    def packed(self, params: dict, before: dict[str, bytes]) -> dict[str, bytes]:
        return {p.split("/", 1)[1]: before[p] for p in self.packed_paths(before)}

    def command(self, params: dict) -> str:
        return f"cd ~/logs && tar czf ~/{params['archive']} *.log && rm -- *.log; cd ~"

    def done(self, sb, params: dict) -> Callable[[], bool]:
        return _gone(sb, sorted(self.packed_paths(params["home"]))[0])


@register_task(id="computer.files-delete-matching-v0")
class FilesDeleteMatching(_ShellTask):
    """Delete every editor backup (*~) and temporary file (*.tmp) under Projects/, in all subfolders.

    The checker wants exactly those files gone and every other file (source files,
    notes, files merely containing "tmp" in the name) intact.
    """

    listed = "Projects/"

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        for proj in pick(rng, WORDS, 3):
            for w in pick(rng, WORDS, int(rng.integers(2, 4))):
                src = f"Projects/{proj}/src/{w}.py"
                files[src] = f"def {w}():\n    return {int(rng.integers(100))}\n"
                if rng.random() < 0.6:
                    files[src + "~"] = f"def {w}():\n    pass\n"
            files[f"Projects/{proj}/build-{int(rng.integers(100))}.tmp"] = "partial build\n"
            files[f"Projects/{proj}/tmp-notes.txt"] = f"{proj}: keep me, I am not a temporary file\n"
        return {"home": files}

    def instruction(self, params: dict) -> str:
        return ("Clean up the Projects folder in your home folder: delete every file whose name ends in ~ (editor "
                "backups) or in .tmp, in all its subfolders. Do not delete anything else.")

    @staticmethod
    def _victims(files) -> list[str]:
        return [p for p in files if p.startswith("Projects/") and (p.endswith("~") or p.endswith(".tmp"))]

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {p: None for p in self._victims(before)}

    def command(self, params: dict) -> str:
        return r"find ~/Projects -type f \( -name '*~' -o -name '*.tmp' \) -delete"

    def done(self, sb, params: dict) -> Callable[[], bool]:
        victims = self._victims(params["home"])
        return lambda: all(_gone(sb, p)() for p in victims)


@register_task(id="computer.files-largest-v1", max_steps=8)
class FilesLargest(HomeTask):
    """Report the largest file in Downloads/ (by size in bytes), changing nothing.

    The agent answers with `finished(content="<file name>")`; the checker compares
    the name and confirms no file changed.
    """

    app = ("terminal",)

    def sample(self, rng: np.random.Generator) -> dict:
        files = {p: c for p, c in home(rng).items() if not p.startswith("Downloads/")}
        sizes = pick(rng, range(200, 40000), int(rng.integers(6, 10)))
        names = pick(rng, WORDS, len(sizes))
        exts = ["bin", "dat", "txt", "csv"]
        for n, (w, size) in enumerate(zip(names, sizes)):
            files[f"Downloads/{w}.{exts[n % 4]}"] = ("x" * 63 + "\n") * (size // 64) + "y" * (size % 64)
        big = max(zip(sizes, names, range(len(sizes))))
        return {"home": files, "truth": f"{big[1]}.{exts[big[2] % 4]}"}

    def instruction(self, params: dict) -> str:
        return ("Which file in the Downloads folder of your home folder is the largest? Answer with its file name "
                "only, e.g. finished(content='report.pdf').")

    def expected_answer(self, params: dict) -> Answer:
        return Answer(params["truth"], aliases=(f"Downloads/{params['truth']}", f"~/Downloads/{params['truth']}"),
                      context=self.instruction(params))

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return all_of(match_answer(outcome.answer, self.expected_answer(params)),
                      super().check(state, params, outcome, baseline))

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield act.click(sb.width // 2, sb.height // 2)
        yield act.typed("ls -lS ~/Downloads | head -4\n")
        yield act.finish(params["truth"])   # read off the first line of the listing
