"""The computer suite's checkers (hybridgym.reward.files) on fixture homes, archives and config files: no display."""

from __future__ import annotations

import io
import tarfile
import zipfile

import numpy as np
import pytest

from hybridgym.reward.files import (ANY, archive_holds, config_is, config_value, declined_and_unchanged,
                                    expected_tree, user_files)
from hybridgym.tasks import NOT_ENDED, TASKS, Outcome
from hybridgym.tasks.kit.desktop import file_bytes

#: the agent ended with an empty finished()
DONE = Outcome("", finished=True)

HOME = {
    "Documents/a.txt": b"alpha\n",
    "Documents/b.txt": b"bravo\n",
    "Pictures/p.png": b"\x89PNG fake",
    ".config/app/app.conf": b"[ui]\nx=1\n",
}


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def _targz(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


# -- expected_tree ------------------------------------------------------------------------------
def test_expected_tree_passes_a_move_and_ignores_app_state():
    after = {**HOME, "Archive/a.txt": b"alpha\n", ".config/app/app.conf": b"[ui]\nx=2\n", ".cache/x": b"1"}
    del after["Documents/a.txt"]
    assert expected_tree(HOME, after, {"Documents/a.txt": None, "Archive/a.txt": b"alpha\n"}).success


def test_expected_tree_fails_when_the_source_is_left_behind():
    after = {**HOME, "Archive/a.txt": b"alpha\n"}
    r = expected_tree(HOME, after, {"Documents/a.txt": None, "Archive/a.txt": b"alpha\n"})
    assert not r.success and r.details["unexpected"] == ["Documents/a.txt"]


def test_expected_tree_fails_when_another_file_is_damaged_or_deleted():
    damaged = {**HOME, "Documents/b.txt": b"oops\n"}
    assert expected_tree(HOME, damaged, {}).details["wrong"] == ["Documents/b.txt"]
    deleted = {k: v for k, v in HOME.items() if k != "Pictures/p.png"}
    assert expected_tree(HOME, deleted, {}).details["missing"] == ["Pictures/p.png"]


def test_expected_tree_fails_on_an_extra_file():
    assert not expected_tree(HOME, {**HOME, "stray.txt": b"x"}, {}).success


def test_expected_tree_allows_a_final_newline_only_in_changed_files():
    after = {**HOME, "Documents/a.txt": b"ALPHA"}
    assert expected_tree(HOME, after, {"Documents/a.txt": b"ALPHA\n"}).success
    untouched_but_trimmed = {**HOME, "Documents/b.txt": b"bravo"}
    assert not expected_tree(HOME, untouched_but_trimmed, {}).success


def test_expected_tree_any_requires_existence_only():
    assert expected_tree(HOME, {**HOME, "out.zip": b"whatever"}, {"out.zip": ANY}).success
    assert not expected_tree(HOME, HOME, {"out.zip": ANY}).success


def test_user_files_drops_app_state():
    assert sorted(user_files(HOME)) == ["Documents/a.txt", "Documents/b.txt", "Pictures/p.png"]


# -- archives -----------------------------------------------------------------------------------
def test_archive_holds_accepts_a_zip_with_the_folder_as_top_level():
    files = {"r.zip": _zip({"q1/a.txt": b"1", "q1/b.txt": b"2"})}
    assert archive_holds(files, "r.zip", {"a.txt": b"1", "b.txt": b"2"}, kind="zip").success


def test_archive_holds_rejects_missing_or_extra_or_changed_members():
    want = {"a.txt": b"1", "b.txt": b"2"}
    assert not archive_holds({"r.zip": _zip({"a.txt": b"1"})}, "r.zip", want).success
    assert not archive_holds({"r.zip": _zip({**want, "c.txt": b"3"})}, "r.zip", want).success
    assert not archive_holds({"r.zip": _zip({"a.txt": b"1", "b.txt": b"X"})}, "r.zip", want).success


def test_archive_holds_checks_the_format():
    want = {"a.log": b"x"}
    assert archive_holds({"l.tar.gz": _targz({"./a.log": b"x"})}, "l.tar.gz", want, kind="tar.gz").success
    assert not archive_holds({"l.tar.gz": _zip(want)}, "l.tar.gz", want, kind="tar.gz").success
    assert not archive_holds({"l.zip": _targz(want)}, "l.zip", want, kind="zip").success
    assert not archive_holds({"l.zip": b"not an archive"}, "l.zip", want).success
    assert not archive_holds({}, "l.zip", want).success


# -- config files -------------------------------------------------------------------------------
KEYFILE = b"""[org/xfce/mousepad/state/window]
maximized=true

[org/xfce/mousepad/preferences/view]
show-line-numbers=true
font-name='Monospace 12'
"""
GALCULATOR = b"""
[general]

display_result_font="Sans Bold 26"
mode=1

[constants]

Pi:pi=3.14159265359
"""


def test_config_value_reads_gsettings_keyfiles_and_galculator_conf():
    assert config_value(KEYFILE, "org/xfce/mousepad/preferences/view", "show-line-numbers") == "true"
    assert config_value(KEYFILE, "org/xfce/mousepad/preferences/view", "font-name") == "Monospace 12"
    assert config_value(KEYFILE, "org/xfce/mousepad/state/window", "show-line-numbers") is None
    assert config_value(GALCULATOR, "general", "mode") == "1"
    assert config_value(GALCULATOR, "general", "display_result_font") == "Sans Bold 26"
    assert config_value(None, "general", "mode") is None


def test_config_is_wants_the_value_in_the_right_section():
    files = {"k": KEYFILE}
    assert config_is(files, "k", "org/xfce/mousepad/preferences/view", "show-line-numbers", "true").success
    assert not config_is(files, "k", "org/xfce/mousepad/preferences/view", "word-wrap", "true").success
    assert not config_is({"g": GALCULATOR}, "g", "general", "mode", "2").success
    assert not config_is({}, "g", "general", "mode", "1").success


# -- infeasible ---------------------------------------------------------------------------------
def test_declined_and_unchanged_wants_call_user_and_nothing_touched():
    assert declined_and_unchanged(True, HOME, HOME).success
    assert not declined_and_unchanged(False, HOME, HOME).success          # a finished("I cannot ...") is no decline
    assert not declined_and_unchanged(True, HOME, {**HOME, "Documents/a.txt": b"changed"}).success
    assert not declined_and_unchanged(True, HOME, {**HOME, ".config/app/app.conf": b"x"},
                                      watch=(".config/app/app.conf",)).success


# -- the tasks' own checks, on a hand-made home ---------------------------------------------------
def _task_home(task_id: str, seed: int = 0) -> tuple[dict, dict[str, bytes]]:
    task = TASKS[task_id]
    params = task.sample(np.random.default_rng(seed))
    return params, {p: file_bytes(c) for p, c in params["home"].items()}


def test_organize_by_extension_check_passes_the_sorted_home_only():
    task = TASKS["computer.files-organize-by-extension-v0"]
    params, before = _task_home(task.id)
    after = {(f"Downloads/{p.rsplit('.', 1)[1]}/{p.split('/', 1)[1]}" if p.startswith("Downloads/") else p): b
             for p, b in before.items()}
    assert task.check({"files": after}, params, DONE, {"files": before}).success
    assert not task.check({"files": before}, params, DONE, {"files": before}).success


def test_delete_matching_check_fails_when_a_lookalike_is_deleted():
    task = TASKS["computer.files-delete-matching-v0"]
    params, before = _task_home(task.id)
    cleaned = {p: b for p, b in before.items() if not (p.endswith("~") or p.endswith(".tmp"))}
    assert task.check({"files": cleaned}, params, DONE, {"files": before}).success
    too_much = {p: b for p, b in cleaned.items() if "tmp-notes" not in p}
    assert not task.check({"files": too_much}, params, DONE, {"files": before}).success


def test_append_section_check_wants_the_lines_at_the_end_and_the_text_kept():
    task = TASKS["computer.editor-append-section-v0"]
    params, before = _task_home(task.id)
    path, old = params["path"], before[params["path"]].decode()
    good = {**before, path: (old + f"\n{params['heading']}\n{params['item']}\n").encode()}
    assert task.check({"files": good}, params, DONE, {"files": before}).success
    reordered = {**before, path: (old + f"{params['item']}\n{params['heading']}\n").encode()}
    assert not task.check({"files": reordered}, params, DONE, {"files": before}).success
    damaged = {**before, path: (old.replace("#", "") + f"{params['heading']}\n{params['item']}\n").encode()}
    assert not task.check({"files": damaged}, params, DONE, {"files": before}).success


def _dedupe(files: dict[str, bytes], reverse: bool) -> dict[str, bytes]:
    """Keep one picture of each set of identical pictures: the first name in the given order."""
    seen, out = set(), {}
    for p in sorted(files, reverse=reverse):
        if p.startswith("Pictures/"):
            if files[p] in seen:
                continue
            seen.add(files[p])
        out[p] = files[p]
    return out


def test_dedupe_check_keeps_the_first_name_of_each_group():
    task = TASKS["computer.hybrid-dedupe-pictures-v1"]
    params, before = _task_home(task.id)
    assert len(_dedupe(before, reverse=False)) < len(before)
    assert task.check({"files": _dedupe(before, reverse=False)}, params, DONE, {"files": before}).success
    assert not task.check({"files": _dedupe(before, reverse=True)}, params, DONE, {"files": before}).success
    # "delete every picture" is collateral
    bare = {p: c for p, c in before.items() if not p.startswith("Pictures/")}
    assert not task.check({"files": bare}, params, DONE, {"files": before}).success


# -- the hybrid answer tasks (issue 15): one number, the truth; no lists, no guesses -----------------------------
def _finished(text: str) -> Outcome:
    return Outcome(text, finished=True)


def test_order_total_answer_wants_the_one_total():
    task = TASKS["computer.find-order-total-v1"]
    for seed in (0, 1000):
        p = task.draw(seed)
        truth = p["truth"]
        assert task.check({}, p, _finished(truth), {}).success
        assert task.check({}, p, _finished(f"The total of order {p['order']} is {truth}."), {}).success
        everything = ", ".join(body.rsplit("Total: ", 1)[1].strip() for body in p["files"].values())
        assert not task.check({}, p, _finished(everything), {}).success          # every candidate
        assert not task.check({}, p, _finished(f"{float(truth) * 10:.2f}"), {}).success
        assert not task.check({}, p, _finished(f"{float(truth) + 0.01:.2f}"), {}).success
        assert not task.check({}, p, _finished(f"{truth} or 12.00"), {}).success
        assert not task.check({}, p, _finished(f"€{truth}"), {}).success          # another currency
        assert not task.check({}, p, _finished(""), {}).success


def test_count_errors_answer_and_the_common_guess():
    from collections import Counter
    task = TASKS["computer.hybrid-count-errors-v1"]
    seeds = range(1000, 1100)
    common = Counter(task.draw(s)["truth"] for s in seeds).most_common(1)[0][0]
    seed = next(s for s in seeds if task.draw(s)["truth"] != common)
    p = task.draw(seed)
    files = {path: file_bytes(c) for path, c in p["home"].items()}
    home = {"files": files}
    truth = p["truth"]
    assert task.check(home, p, _finished(truth), home).success
    assert task.check(home, p, _finished(f"{truth} lines"), home).success
    assert task.check(home, p, _finished(f"There are {truth} ERROR lines with {p['code']}."), home).success
    assert not task.check(home, p, _finished(common), home).success              # the most common answer
    assert not task.check(home, p, _finished(str(int(truth) * 10)), home).success
    assert not task.check(home, p, _finished(" ".join(str(n) for n in range(200))), home).success
    log = next(path for path in files if path.startswith("logs/"))
    touched = {"files": {**files, log: b""}}                                       # the right count, a log emptied
    assert not task.check(touched, p, _finished(truth), home).success


def test_hybrid_instructions_name_no_tool_the_checker_cannot_tell_apart():
    for task_id in ("computer.hybrid-csv-total-v0", "computer.hybrid-fix-config-port-v0"):
        task = TASKS[task_id]
        for seed in (0, 1000):
            text = task.instruction(task.draw(seed)).lower()
            assert "text editor" not in text and "mousepad" not in text and "terminal" not in text


def test_settings_check_reads_the_config_and_refuses_user_file_damage():
    task = TASKS["computer.settings-calculator-mode-v1"]
    params, before = _task_home(task.id)
    conf = f"[general]\nmode={params['value']}\n".encode()
    after = {**before, params["config"]: conf}
    assert task.check({"files": after}, params, DONE, {"files": before}).success
    wrong = {**before, params["config"]: b"[general]\nmode=0\n"}
    assert not task.check({"files": wrong}, params, DONE, {"files": before}).success
    doc = next(p for p in before if p.startswith("Documents/"))
    assert not task.check({"files": {**after, doc: b"x"}}, params, DONE, {"files": before}).success


def test_infeasible_task_passes_call_user_but_not_an_empty_finished():
    task = TASKS["computer.infeasible-app-not-installed-v1"]
    seed = next(s for s in range(50) if not task.sample(np.random.default_rng(s))["feasible"])
    params, before = _task_home(task.id, seed)
    state, baseline = {"files": before}, {"files": before}
    assert task.check(state, params, Outcome("", finished=True, called_user=True), baseline).success
    assert not task.check(state, params, Outcome("LibreOffice is not installed", finished=True), baseline).success
    assert not task.check(state, params, DONE, baseline).success
    assert not task.check(state, params, NOT_ENDED, baseline).success
