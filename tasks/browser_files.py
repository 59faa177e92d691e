"""Browser tasks on Driveshare, the file-sharing app (assets/web/files/, backend tasks/webapps/files.py): downloads, rename, move, share, previews.

## Description
Driveshare: a drive of eight folders (Reports, Invoices, Projects with Configs and
Backups, Team notes, an Archive of 46 files over three pages) holding CSV sales
exports, text notes, JSON configs, ZIP backups and PDFs with owners and dates; a
sortable, paginated file list, a details pane with a preview, and rename, move (folder
picker), share (email and role) and delete dialogs. Downloads land in the workspace's
`~/Downloads`; in the `-sdk` tasks the SDK terminal reads them (the browser cannot
open a ZIP or add up a column).

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls); the
`-sdk` tasks also take `terminal` actions.

## Rewards
1.0 when the checker passes on the app's records (`folders`, `files`, `shares`) and the
workspace: exactly the asked-for change and nothing else. `Downloads/` must hold exactly
the asked file (a browser-renamed second copy or any other file fails; a task that asks
for no download wants it empty), and no workspace file outside it may change. For
questions, the `finished(content=...)` answer is judged by `match_answer` (one number,
exact, or to the cent for a CSV total, no currency; a setting's text as the JSON holds it).

## Starting State
A drive seed drawn from the reset seed, and the seed's split: a test drive draws its file
names, owners, e-mail addresses and new names from the other halves of the name pools and is
dated 2027 (training: 2026); the backend loaded fresh at setup; the page opens at "My Drive";
the workspace starts empty.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1: answers judged by `match_answer`; `Downloads/` must hold exactly the asked file(s) and
  nothing else in the workspace may change; test drives have their own names and year.
"""

from __future__ import annotations

import json
import re
import time
from typing import Iterator

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of, holds, records_unchanged
from hybridgym.reward.answers import Answer, match_answer
from hybridgym.reward.research import downloaded, records_changed_exactly, records_changed_only, workspace_unchanged
from hybridgym.tasks.webapps import files as drive_app

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import MONTHS, Pool, pick
from .kit.web import WebAppTask, click, click_until, present

#: split pools (train the even-indexed, test the odd-indexed items)
_EMAILS = Pool(["lena.hart@northwind.example", "ines.roy@wingtip.example", "omar.said@contoso.example",
                "ravi.menon@proseware.example", "kim.berg@fabrikam.example", "ole.dahl@lucerne.example",
                "rui.tan@tailspin.example", "zoe.park@fourthcoffee.example", "eva.moss@litware.example",
                "max.ito@woodgrove.example", "dan.cole@adventure.example", "sara.lund@treyresearch.example"])
_NEW_STEMS = Pool(["budget_reviewed", "for_the_board", "q3_final", "signed_off", "for_legal", "to_archive",
                   "keep_2026", "keep_2027", "checked_by_finance", "audit_ready", "archive_index", "final_copy"])


def _folder_path(d: drive_app.Drive, index: int) -> str:
    names = []
    while True:
        names.append(d.folders[index][0])
        if index == 0:
            break
        index = d.folders[index][1]
    return " › ".join(reversed(names))


class FilesTask(WebAppTask):
    """Base of the Driveshare tasks: the drive comes from the reset seed; the page opens at "My Drive"."""

    app, seed_param, app_params = drive_app.Driveshare, "drive", ("split",)
    start_page = "/files/index.html"

    def data(self, seed: int, split: str = "train") -> drive_app.Drive:
        return drive_app.drive(seed, split)

    def drive(self, params: dict) -> drive_app.Drive:
        return drive_app.drive(params["drive"], params.get("split", "train"))

    def target(self, params: dict) -> drive_app.DriveFile:
        return self.drive(params).files[params["file"]]

    def read_state(self, sb, params: dict) -> dict:
        ws = sb.workspace.snapshot()
        return {"records": self.backend(sb).state(),
                "downloads": {p: b for p, b in ws.items() if p.startswith("Downloads/")},
                "workspace": {p: b for p, b in ws.items() if not p.startswith("Downloads/")}}

    def _unchanged(self, state: dict, baseline: dict, *names: str, downloads: bool = True) -> CheckResult:
        """The named record collections are unchanged, nothing in the workspace outside Downloads/
        changed, and (`downloads`, for a task that asks for none) nothing was downloaded."""
        def intact(n: str) -> CheckResult:
            r = records_unchanged(baseline["records"][n], state["records"][n])
            return holds(f"{n} records intact", r.success, r.message, guard=True)
        return all_of(*(intact(n) for n in names),
                      *(holds(f"no {n} records added or removed", len(baseline["records"][n]) == len(state["records"][n]),
                              f"{n} records were added or removed", guard=True) for n in names),
                      workspace_unchanged(baseline.get("workspace", {}), state.get("workspace", {})),
                      *([holds("nothing downloaded", state.get("downloads", {}) == baseline.get("downloads", {}),
                               f"files were downloaded: {sorted(state['downloads'])[:5]}", guard=True)]
                        if downloads else []))

    # -- oracle steps ---------------------------------------------------------------
    def _open_file(self, sb, params: dict) -> Iterator[dict]:
        """Click the file's folder in the tree, the right page of the list (sorted by name), then its row."""
        d = self.drive(params)
        f = self.target(params)
        yield from _open_folder(sb, f.folder)
        names = sorted(g.name for g in d.files if g.folder == f.folder)
        yield from _select(sb, drive_app.file_id(d, f), f.name, names.index(f.name) // drive_app.PAGE + 1)

    def _confirm(self, sb) -> Iterator[dict]:
        """Press the dialog's OK button, wait for the dialog to close, and finish."""
        yield from _ok(sb)
        yield act.finish()

    def _download(self, sb, params: dict) -> Iterator[dict]:
        yield from self._open_file(sb, params)
        yield click(sb, "#download")
        _wait_for_file(sb.workspace.root / "Downloads" / self.target(params).name)


def _open_folder(sb, folder: int) -> Iterator[dict]:
    """Oracle steps: open the drive's folder `folder` (an index of `Drive.folders`) in the tree."""
    yield from click_until(sb, f'#tree a[data-folder="{folder + 1}"]', present(f'#tree a.on[data-folder="{folder + 1}"]'))


def _select(sb, fid: int, name: str, page: int) -> Iterator[dict]:
    """Oracle steps in the open folder: go to the list's `page` (if not shown) and select file `fid`."""
    shown = sb.browser.page.locator("#pager .pnum.on")
    if (int(shown.inner_text()) if shown.count() else 1) != page:
        yield click(sb, f'#pager .pnum[data-page="{page}"]')
    yield from click_until(sb, f'tr.file[data-id="{fid}"]',
                           f"document.getElementById('d-name').textContent === {json.dumps(name)}")


def _ok(sb) -> Iterator[dict]:
    """Oracle steps: press the dialog's OK, and wait until it has closed."""
    yield click(sb, "#m-ok")
    sb.browser.page.wait_for_selector("#modal", state="hidden")


def _wait_for_file(path, timeout: float = 5.0) -> None:
    """Oracle-side: wait until Chromium has finished saving a download (the file exists, no .crdownload left)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.is_file() and not list(path.parent.glob("*.crdownload")):
            return
        time.sleep(0.02)


@register_task(id="browser.files-download-v1", max_steps=10)
class FilesDownload(FilesTask):
    """Download a named file from a given folder of Driveshare.

    Success: the workspace's `Downloads/` holds exactly that file (no other, no second copy)
    with the server's exact bytes, nothing else in the workspace changed, and no file,
    folder or share record changed.
    """

    def sample_for(self, rng, d):
        i = int(rng.choice([k for k, f in enumerate(d.files) if f.folder != 5]))
        return {"file": i}

    def instruction(self, params: dict) -> str:
        f = self.target(params)
        return f"In Driveshare, download the file \"{f.name}\" from the folder {_folder_path(self.drive(params), f.folder)}."

    def check(self, state, params, outcome: Outcome, baseline):
        f = self.target(params)
        return all_of(downloaded(state["downloads"], f.name, f.data),
                      self._unchanged(state, baseline, "files", "folders", "shares", downloads=False))

    def oracle(self, sb, params):
        yield from self._download(sb, params)
        yield act.finish()


@register_task(id="browser.files-csv-total-sdk-v1", sdk=True, max_steps=12)
class FilesCsvTotalSdk(FilesTask):
    """Download a sales CSV (60-140 rows; the preview shows only 20) and report the sum of its
    `amount` column, using the SDK terminal on the downloaded file.

    Success: the answer is the total to the cent, the file is alone in `Downloads/`, and no
    record changed.
    """

    def sample_for(self, rng, d):
        return {"file": int(rng.choice([k for k, f in enumerate(d.files) if f.folder == 1 and f.kind == "csv"]))}

    def instruction(self, params: dict) -> str:
        f = self.target(params)
        return (f"Download \"{f.name}\" from the Reports folder in Driveshare, then use the terminal to add up "
                "its amount column (the file lands in ~/Downloads). Answer with the total, e.g. 1234.56.")

    def check(self, state, params, outcome: Outcome, baseline):
        f = self.target(params)
        return all_of(match_answer(outcome.answer, self.expected_answer(params)),
                      downloaded(state["downloads"], f.name, f.data),
                      self._unchanged(state, baseline, "files", "folders", "shares", downloads=False))

    def expected_answer(self, params: dict) -> Answer:
        """The total to the cent (within 0.4 cents), a plain number: the CSV has no currency."""
        total = self.target(params).facts["total"]
        return Answer(total, kind="number", rel_tol=0.004 / max(abs(total), 0.01), currency=None,
                      context=self.instruction(params))

    def oracle(self, sb, params):
        yield from self._download(sb, params)
        obs = yield act.terminal(
            f"awk -F, 'NR>1 {{s += $7}} END {{printf \"%.2f\\n\", s}}' ~/Downloads/{self.target(params).name}")
        yield act.finish(obs["sdk_output"].strip())


@register_task(id="browser.files-zip-config-sdk-v1", sdk=True, max_steps=12)
class FilesZipConfigSdk(FilesTask):
    """Download a ZIP backup and report one setting from `config/settings.json` inside it,
    using the SDK terminal (the browser only lists the archive's entries).

    Success: the answer equals the setting, the archive is alone in `Downloads/`, and no record changed.
    """

    _KEYS = ["port", "replicas", "region", "owner_team", "timeout_s"]

    def sample_for(self, rng, d):
        return {"file": int(rng.choice([k for k, f in enumerate(d.files) if f.kind == "zip"])),
                "key": str(rng.choice(self._KEYS))}

    def instruction(self, params: dict) -> str:
        f = self.target(params)
        return (f"In Driveshare, the folder Projects › Backups holds \"{f.name}\". Download it and, with the "
                f"terminal, find the value of \"{params['key']}\" in config/settings.json inside the archive. "
                "Answer with that value.")

    def check(self, state, params, outcome: Outcome, baseline):
        f = self.target(params)
        return all_of(match_answer(outcome.answer, self.expected_answer(params)),
                      downloaded(state["downloads"], f.name, f.data),
                      self._unchanged(state, baseline, "files", "folders", "shares", downloads=False))

    def expected_answer(self, params: dict) -> Answer:
        """The setting as the JSON holds it: a number exactly (port, replicas, timeout_s), or the text (region, owner_team)."""
        value = self.target(params).facts["config"][params["key"]]
        if isinstance(value, int):
            return Answer(value, kind="number", rel_tol=0.0, currency=None, context=self.instruction(params))
        return Answer(str(value), kind="text")

    def oracle(self, sb, params):
        yield from self._download(sb, params)
        obs = yield act.terminal(f"unzip -p ~/Downloads/{self.target(params).name} config/settings.json")
        value = json.loads(obs["sdk_output"])[params["key"]]
        yield act.finish(str(value))


@register_task(id="browser.files-rename-by-owner-date-v1", max_steps=14)
class FilesRenameByOwnerDate(FilesTask):
    """In the Archive folder (46 files over three pages), find the file that a given person
    modified at a given date and time, and rename it.

    Success: that file record has the new name and nothing else of it changed; every other
    file, folder and share record is unchanged.
    """

    def sample_for(self, rng, d):
        arch = [k for k, f in enumerate(d.files) if f.folder == 5]
        keys = [(d.files[k].owner, d.files[k].modified) for k in arch]
        unique = [k for k in arch if keys.count((d.files[k].owner, d.files[k].modified)) == 1]
        k = int(rng.choice(unique))
        ext = d.files[k].name.rsplit(".", 1)[1]
        return {"file": k, "new": f"{pick(rng, _NEW_STEMS)}.{ext}"}

    def instruction(self, params: dict) -> str:
        f = self.target(params)
        who = "you" if f.owner == "me" else f.owner
        return (f"In Driveshare's Archive folder, find the file owned by {who} (owner \"{f.owner}\") that was "
                f"last modified on {f.modified}, and rename it to \"{params['new']}\".")

    def check(self, state, params, outcome: Outcome, baseline):
        fid = drive_app.file_id(self.drive(params), self.target(params))
        return all_of(records_changed_only(baseline["records"]["files"], state["records"]["files"], fid,
                                           {"name": params["new"]}),
                      self._unchanged(state, baseline, "folders", "shares"))

    def oracle(self, sb, params):
        yield from self._open_file(sb, params)
        yield click(sb, "#rename")
        sb.browser.page.wait_for_selector("#rename-input")
        yield act.keys("ctrl", "a")
        yield act.typed(params["new"] + "\n")
        sb.browser.page.wait_for_selector("#modal", state="hidden")
        yield act.finish()


@register_task(id="browser.files-move-v1", max_steps=12)
class FilesMove(FilesTask):
    """Move a named file from one folder to another with the Move dialog's folder picker.

    Success: only the file's folder changed; every other record is unchanged.
    """

    def sample_for(self, rng, d):
        k = int(rng.choice([k for k, f in enumerate(d.files) if f.folder in (1, 3, 4, 6)]))
        dest = [i for i in range(len(d.folders)) if i != d.files[k].folder and i != 5
                and not any(f.name == d.files[k].name and f.folder == i for f in d.files)]
        return {"file": k, "dest": int(rng.choice(dest))}

    def instruction(self, params: dict) -> str:
        d, f = self.drive(params), self.target(params)
        return (f"In Driveshare, move \"{f.name}\" from {_folder_path(d, f.folder)} to the folder "
                f"{_folder_path(d, params['dest'])}.")

    def check(self, state, params, outcome: Outcome, baseline):
        fid = drive_app.file_id(self.drive(params), self.target(params))
        return all_of(records_changed_only(baseline["records"]["files"], state["records"]["files"], fid,
                                           {"folder": params["dest"] + 1}),
                      self._unchanged(state, baseline, "folders", "shares"))

    def oracle(self, sb, params):
        yield from self._open_file(sb, params)
        yield click(sb, "#move")
        yield click(sb, f'#picker .pick[data-folder="{params["dest"] + 1}"]')
        yield from self._confirm(sb)


@register_task(id="browser.files-move-by-owner-month-v1", max_steps=30)
class FilesMoveByOwnerMonth(FilesTask):
    """In the Archive folder (46 files over three pages), find every file of a given owner last
    modified in a given month (two or three files) and move them all to another folder.

    Success: exactly those files are now in the destination, nothing else of them changed,
    and every other file, folder and share record is unchanged.
    """

    def sample_for(self, rng, d):
        groups: dict[tuple[str, str], list[int]] = {}
        for k, f in enumerate(d.files):
            if f.folder == 5:
                groups.setdefault((f.owner, f.modified[:7]), []).append(k)
        good = sorted(key for key, ks in groups.items() if 2 <= len(ks) <= 3)
        if not good:
            return None   # a drive where some owner has 2-3 archive files in one month
        owner, month = good[int(rng.integers(len(good)))]
        files = groups[(owner, month)]
        dests = [i for i in (1, 3, 4) if not any(g.folder == i and g.name in {d.files[k].name for k in files}
                                                 for g in d.files)]
        if not dests:
            return None
        return {"owner": owner, "month": month, "files": files, "dest": int(rng.choice(dests))}

    def instruction(self, params: dict) -> str:
        d = self.drive(params)
        month = MONTHS[int(params["month"][5:7]) - 1] + " " + params["month"][:4]
        return (f"In Driveshare's Archive folder, move every file owned by \"{params['owner']}\" that was last "
                f"modified in {month} to the folder {_folder_path(d, params['dest'])}.")

    def check(self, state, params, outcome: Outcome, baseline):
        d = self.drive(params)
        changes = {drive_app.file_id(d, d.files[k]): {"folder": params["dest"] + 1} for k in params["files"]}
        return all_of(records_changed_exactly(baseline["records"]["files"], state["records"]["files"], changes),
                      self._unchanged(state, baseline, "folders", "shares"))

    def oracle(self, sb, params):
        d = self.drive(params)
        yield from _open_folder(sb, 5)
        for k in params["files"]:
            fid = drive_app.file_id(d, d.files[k])
            here = sorted(r["name"] for r in self.backend(sb).state()["files"] if r["folder"] == 6 and not r["trashed"])
            yield from _select(sb, fid, d.files[k].name, here.index(d.files[k].name) // drive_app.PAGE + 1)
            yield click(sb, "#move")
            yield click(sb, f'#picker .pick[data-folder="{params["dest"] + 1}"]')
            yield from _ok(sb)
            sb.browser.page.wait_for_selector(f'tr.file[data-id="{fid}"]', state="detached")
        yield act.finish()


@register_task(id="browser.files-share-v1", max_steps=14)
class FilesShare(FilesTask):
    """Share a file from the Team notes folder with an email address, as editor or viewer.

    Success: exactly one share record was added, for that file, address and role; no file
    or folder record changed.
    """

    def sample_for(self, rng, d):
        return {"file": int(rng.choice([k for k, f in enumerate(d.files) if f.folder in (4, 6)])),
                "email": str(pick(rng, _EMAILS)), "role": str(rng.choice(["viewer", "editor"]))}

    def instruction(self, params: dict) -> str:
        d, f = self.drive(params), self.target(params)
        can = "can edit (Editor)" if params["role"] == "editor" else "can only view (Viewer)"
        return (f"In Driveshare, share \"{f.name}\" (in {_folder_path(d, f.folder)}) with {params['email']} "
                f"so that they {can}.")

    def check(self, state, params, outcome: Outcome, baseline):
        fid = drive_app.file_id(self.drive(params), self.target(params))
        before, after = baseline["records"]["shares"], state["records"]["shares"]
        new = [s for s in after if s["id"] not in {b["id"] for b in before}]
        one = holds("one share added", len(new) == 1, f"{len(new)} shares were added, expected 1")
        s = new[0] if one.success else None
        right = holds("the share is the one asked for", s is not None and
                      (s["file"], s["email"].strip().lower(), s["role"]) == (fid, params["email"], params["role"]),
                      f"not judged: {one.message}" if s is None else
                      f"the new share is {s['email']} as {s['role']} on file {s['file']}, expected "
                      f"{params['email']} as {params['role']} on file {fid}")
        old = records_unchanged(before, after)
        return all_of(one, right, holds("earlier shares intact", old.success, old.message, guard=True),
                      self._unchanged(state, baseline, "files", "folders"))

    def oracle(self, sb, params):
        yield from self._open_file(sb, params)
        yield click(sb, "#share")
        yield click(sb, "#share-email")
        yield act.typed(params["email"])
        yield act.keys("tab")
        yield act.typed(params["role"][0])  # a closed <select> picks by first letter
        yield from self._confirm(sb)


@register_task(id="browser.files-notes-code-v1", max_steps=10)
class FilesNotesCode(FilesTask):
    """Read a meeting-notes file in the preview pane and report the door code written in it.

    Success: the answer is the code; no record changed (reading needs no download).
    """

    def sample_for(self, rng, d):
        return {"file": int(rng.choice([k for k, f in enumerate(d.files) if f.folder == 4 and "code" in f.facts]))}

    def instruction(self, params: dict) -> str:
        topic = self.target(params).name[:-4].replace("_", " ")
        return (f"In Driveshare's Team notes folder, open the meeting notes about the {topic}. "
                "What is the storage room door code written there? Answer with the code.")

    def check(self, state, params, outcome: Outcome, baseline):
        return all_of(match_answer(outcome.answer, self.expected_answer(params)),
                      self._unchanged(state, baseline, "files", "folders", "shares"))

    def expected_answer(self, params: dict) -> Answer:
        """The four-digit code, exactly."""
        return Answer(self.target(params).facts["code"], kind="number", rel_tol=0.0, currency=None,
                      context=self.instruction(params))

    def oracle(self, sb, params):
        yield from self._open_file(sb, params)
        text = sb.browser.page.locator("#preview pre").inner_text()
        yield act.finish(re.search(r"door code is (\d+)", text).group(1))
