"""Mobile tasks on the phone's Files app (assets/phone/apps/files.js): rename, move, delete a file, find the largest.

## Description
The agent renames a file (⋮ > Rename: the dialog opens with the old name selected), moves a file to another
folder (⋮ > Move to…), deletes a file (⋮ > Delete, confirm), or says which file of a folder is the largest
(sorting the folder by size helps).

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the `files` rows show exactly the asked change (one field of one file, or one file gone) and every
other collection is unchanged (`phone_changed`); the question also needs the file name as
`finished(content=...)`.

## Starting State
The home screen at 2026-03-14 09:30 with all ten apps seeded from the reset seed (`kit.phone_world`): 16-22
files in Download, Documents, Pictures and Music, no two of one size, each folder's largest file at least a
tenth larger than the next.

## Episode End
`finished(...)`, or `max_steps` (12; 20 to rename).

## Tasks
* `mobile.files-rename-v1`: rename a file (⋮ > Rename; only its `name` changes, to the new name).
* `mobile.files-move-v1`: move a file to another folder (⋮ > Move to…; only its `folder` changes).
* `mobile.files-delete-v1`: delete a file (⋮ > Delete, confirm; only it is gone).
* `mobile.files-largest-v1`: which file of a folder is the largest (its file name as the answer).

## Version History
* v0: first version.
* v1: the phone's names (contacts' first names, alarm labels, event titles, notes, files, albums, expenses) and
  numbers come from split-disjoint pools, so no test instance is a training one; a question's answer is read by
  `reward.answers.match_answer` (one number, time or date; no list, no hedge); files-largest adds the largest
  file to its folder, its name drawn ("backup_417.zip").
"""

from __future__ import annotations

from .base import add_task, register_task
from .kit import actions as act
from .kit.data import Pool, pick
from .kit.phone import FOLDER_ROW, OK, ChangeRecord, DeleteRecord, Param, ToolAppTask, files_by_size, menu_choice
from .kit.phone_world import FOLDERS, largest_file, past_date

_NEW_FILE_NAMES = Pool(["trip_itinerary", "old_invoice", "archive_2025", "keep_this", "final_version", "for_review",
                        "to_print", "signed_copy", "backup_march", "shared_with_ana", "read_later", "important"])
#: the largest file `files-largest` adds to its folder: a stem of the split's half, a number, the folder's kind
_BIG_STEMS = Pool(["export", "backup", "recording", "scan", "archive", "render", "capture", "bundle", "dump",
                   "master", "raw", "video"])
_BIG_EXT = {"Download": ("zip", "zip"), "Documents": ("pdf", "pdf"), "Pictures": ("png", "image"),
            "Music": ("flac", "audio")}
#: a file's ⋮ button in its folder's list
FILE_MORE = '.file-more[data-id="{id}"]'


@register_task(id="mobile.files-largest-v1",
               template="Which file in the {folder} folder is the largest? Answer with its file name.")
class FileLargest(ToolAppTask):
    """Which file in a folder is the largest? (sorting by size helps) The folder gets the largest file, its name
    drawn ("backup_417.zip"), 1.2-2.5 times as large as the next."""

    truth = "{answer}"

    def choose(self, rng, records):
        folder = pick(rng, list(FOLDERS))
        ext, kind = _BIG_EXT[folder]
        name = f"{pick(rng, _BIG_STEMS)}_{int(rng.integers(100, 1000))}.{ext}"
        top = max(f["size_kb"] for f in records["files"] if f["folder"] == folder)
        records["files"].append({"name": name, "folder": folder, "size_kb": int(top * rng.uniform(1.2, 2.5)) + 1,
                                 "kind": kind, "modified": past_date(rng)})
        return {"folder": folder, "answer": largest_file(records, folder)}

    def solve(self, sb, p):
        yield from files_by_size(sb, p["folder"])


def _menu(choice: str) -> tuple[tuple, ...]:
    """The oracle's steps to the drawn file's ⋮ menu (its folder, the ⋮ button) and `choice` in it."""
    return ("reach", FOLDER_ROW), ("reach", FILE_MORE), ("tap", menu_choice(choice))


def _new_name(rng, file, records) -> dict:
    return {"new_name": f"{pick(rng, _NEW_FILE_NAMES)}.{file['name'].rsplit('.', 1)[1]}"}


def _other_folder(rng, file, records) -> dict:
    return {"to": pick(rng, [f for f in FOLDERS if f != file["folder"]])}


# a file is named by its name and folder (a name is unique in its folder)
for task in (
    ChangeRecord("mobile.files-rename-v1", 20, "In Files, rename {name} in the {folder} folder to {new_name}.",
                 "files", ("name", "folder"), "files", *_menu("rename"),
                 ("type", "{new_name}"),            # the dialog opens with the old name selected
                 ("press", act.press_back()),       # hide the keyboard first: the dialog moves when it goes
                 ("tap", OK), new=_new_name, to={"name": Param("new_name")}),
    ChangeRecord("mobile.files-move-v1", 12, "Move {name} from {folder} to the {to} folder.", "files",
                 ("name", "folder"), "files", *_menu("move"), ("tap", menu_choice("{to}")),
                 new=_other_folder, to={"folder": Param("to")}),
    DeleteRecord("mobile.files-delete-v1", 12, "Delete {name} from the {folder} folder.", "files", ("name", "folder"),
                 "files", *_menu("delete"), ("tap", OK)),
):
    add_task(task)
