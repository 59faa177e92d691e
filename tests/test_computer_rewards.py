"""The computer suite's rewards against the cheats a learning agent finds (infeasible, settings, files tasks): no display.

Each test calls `task.check` on plain data (a home as path -> bytes, an `Outcome`).
"""

from __future__ import annotations

import io
import zipfile

import numpy as np

from hybridgym.tasks import TASKS, Outcome
from hybridgym.tasks.computer_settings import _DEFAULTS, GALCULATOR_CONF, GSETTINGS_KEYFILE, PCMANFM_CONF
from hybridgym.tasks.kit.desktop import file_bytes

DONE = Outcome("", finished=True)
CALLED = Outcome("", finished=True, called_user=True)
INFEASIBLE = sorted(t for t in TASKS if t.startswith("computer.infeasible-"))


def _home(task_id: str, seed: int) -> tuple[dict, dict[str, bytes]]:
    params = TASKS[task_id].draw(seed)
    return params, {p: file_bytes(c) for p, c in params["home"].items()}


def _seed(task_id: str, feasible: bool, start: int = 0) -> int:
    return next(s for s in range(start, start + 100) if TASKS[task_id].draw(s)["feasible"] == feasible)


def _zip(members: dict[str, bytes], dirs: tuple[str, ...] = ()) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for d in dirs:
            z.writestr(d, b"")
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


# -- infeasible tasks and their feasible twins -----------------------------------------------------
def test_infeasible_tasks_have_a_feasible_twin_in_about_half_the_seeds():
    for tid in INFEASIBLE:
        for seeds in (range(0, 200), range(1000, 1200)):
            share = np.mean([TASKS[tid].draw(s)["feasible"] for s in seeds])
            assert 0.35 < share < 0.65, (tid, share)


def test_always_declining_scores_about_one_half():
    for tid in INFEASIBLE:
        task, wins = TASKS[tid], 0
        for s in range(60):
            params, before = _home(tid, s)
            wins += task.check({"files": before}, params, CALLED, {"files": before}).success
        assert 15 <= wins <= 45, (tid, wins)


def test_declining_is_call_user_not_a_keyword():
    for tid in INFEASIBLE:
        task = TASKS[tid]
        params, before = _home(tid, _seed(tid, False))
        state = {"files": before}
        assert task.check(state, params, CALLED, state).success
        for text in ("I cannot do this", "There is no option for that: not possible", "cannot"):
            assert not task.check(state, params, Outcome(text, finished=True), state).success, (tid, text)
        assert not task.check(state, params, DONE, state).success


def test_declining_with_a_changed_file_fails():
    tid = "computer.infeasible-version-history-v1"
    params, before = _home(tid, _seed(tid, False))
    after = {**before, params["doc"]: b"restored?\n"}
    assert not TASKS[tid].check({"files": after}, params, CALLED, {"files": before}).success


def test_missing_file_feasible_twin_is_judged_on_the_file():
    tid = "computer.infeasible-missing-file-v1"
    task = TASKS[tid]
    params, before = _home(tid, _seed(tid, True))
    path, old, new = params["missing"], params["old"].encode(), params["new"].encode()
    good = {**before, path: before[path].replace(old, new)}
    assert task.check({"files": good}, params, DONE, {"files": before}).success
    assert not task.check({"files": good}, params, CALLED, {"files": before}).success      # declined a doable task
    assert not task.check({"files": before}, params, CALLED, {"files": before}).success
    half = {**before, path: before[path].replace(old, new, 1)}
    assert not task.check({"files": half}, params, DONE, {"files": before}).success
    other = next(p for p in before if p.startswith("Documents/") and p != path)
    assert not task.check({"files": {**good, other: b"x"}}, params, DONE, {"files": before}).success


def test_app_not_installed_feasible_twin_wants_exactly_that_slide_gone():
    tid = "computer.infeasible-app-not-installed-v1"
    task = TASKS[tid]
    params, before = _home(tid, _seed(tid, True))
    slides, k = params["slides"], params["slide"] - 1
    keep = [s for i, s in enumerate(slides) if i != k]
    good = {**before, params["deck"]: ("\n\n---\n\n".join("\n".join(s) for s in keep) + "\n").encode()}
    assert task.check({"files": good}, params, DONE, {"files": before}).success
    wrong = [s for i, s in enumerate(slides) if i != k + 1]
    bad = {**before, params["deck"]: ("\n---\n".join("\n".join(s) for s in wrong) + "\n").encode()}
    assert not task.check({"files": bad}, params, DONE, {"files": before}).success


def test_calculator_feasible_twin_wants_the_one_value():
    tid = "computer.infeasible-calculator-plot-v1"
    task = TASKS[tid]
    params, before = _home(tid, _seed(tid, True))
    v = params["a"] * params["x"] ** 2 + params["b"]
    for text in (f"{v}", f"{v}\n"):
        assert task.check({"files": {**before, params["out"]: text.encode()}}, params, DONE, {"files": before}).success
    for text in (f"{v * 10}", f"{v} {v + 1}", ""):
        assert not task.check({"files": {**before, params["out"]: text.encode()}}, params, DONE,
                              {"files": before}).success


def test_version_history_feasible_twin_restores_and_keeps_the_copy():
    tid = "computer.infeasible-version-history-v1"
    task = TASKS[tid]
    params, before = _home(tid, _seed(tid, True))
    copy = f"{params['backup']}/{params['doc'].split('/', 1)[1]}"
    good = {**before, params["doc"]: before[copy]}
    assert task.check({"files": good}, params, DONE, {"files": before}).success
    moved = {p: b for p, b in good.items() if p != copy}
    assert not task.check({"files": moved}, params, DONE, {"files": before}).success


# -- settings: collateral ----------------------------------------------------------------------------
def _keyfile(**keys: str) -> bytes:
    sections = {"show-line-numbers": "view", "word-wrap": "view", "auto-indent": "view",
                "toolbar-visible": "window", "statusbar-visible": "window"}
    out = "[org/xfce/mousepad/state/application]\nsession=['1;;+file:///x']\n"
    for key, value in keys.items():
        out += f"[org/xfce/mousepad/preferences/{sections[key]}]\n{key}={value}\n"
    return out.encode()


def test_editor_settings_fail_when_every_option_is_turned_on():
    for tid in ("computer.settings-editor-view-v1", "computer.settings-editor-document-v1"):
        task = TASKS[tid]
        for seed in (0, 1, 1000):
            params, before = _home(tid, seed)
            asked = {params["key"]: "true"}
            state = {"files": {**before, GSETTINGS_KEYFILE: _keyfile(**asked)}}
            assert task.check(state, params, DONE, {"files": before}).success
            every = {k: "true" for k in ("show-line-numbers", "word-wrap", "auto-indent", "toolbar-visible",
                                         "statusbar-visible")}
            state = {"files": {**before, GSETTINGS_KEYFILE: _keyfile(**every)}}
            assert not task.check(state, params, DONE, {"files": before}).success
            toggled_back = {**{k: "false" for k in every}, **asked}     # others switched on and off again: kept
            state = {"files": {**before, GSETTINGS_KEYFILE: _keyfile(**toggled_back)}}
            assert task.check(state, params, DONE, {"files": before}).success
            hidden = {**before, GSETTINGS_KEYFILE: _keyfile(**asked),
                      PCMANFM_CONF: _DEFAULTS[PCMANFM_CONF].replace(b"show_hidden=0", b"show_hidden=1")}
            assert not task.check({"files": hidden}, params, DONE, {"files": before}).success


def test_calculator_mode_fails_when_other_settings_change():
    tid = "computer.settings-calculator-mode-v1"
    task = TASKS[tid]
    params, before = _home(tid, 0)
    conf = _DEFAULTS[GALCULATOR_CONF].replace(b"\nmode=0\n", f"\nmode={params['value']}\n".encode())
    conf = conf.replace(b'remembered_valuex="0"', b'remembered_valuex="42"')      # the app's own state: free
    assert task.check({"files": {**before, GALCULATOR_CONF: conf}}, params, DONE, {"files": before}).success
    for old, new in ((b"stack_size=3", b"stack_size=5"), (b"show_menu_bar=true", b"show_menu_bar=false"),
                     (b"button_width=40", b"button_width=90")):
        bad = conf.replace(old, new)
        assert not task.check({"files": {**before, GALCULATOR_CONF: bad}}, params, DONE, {"files": before}).success


def test_files_hidden_fails_when_the_view_mode_also_changes():
    tid = "computer.settings-files-hidden-v1"
    task = TASKS[tid]
    params, before = _home(tid, 0)
    conf = _DEFAULTS[PCMANFM_CONF].replace(b"show_hidden=0", b"show_hidden=1").replace(b"win_width=640",
                                                                                       b"win_width=1280")
    assert task.check({"files": {**before, PCMANFM_CONF: conf}}, params, DONE, {"files": before}).success
    bad = conf.replace(b"view_mode=icon", b"view_mode=list")
    assert not task.check({"files": {**before, PCMANFM_CONF: bad}}, params, DONE, {"files": before}).success


# -- files ---------------------------------------------------------------------------------------------
def test_zip_folder_accepts_the_folder_however_it_is_zipped():
    tid = "computer.files-zip-folder-v1"
    task = TASKS[tid]
    params, before = _home(tid, 0)
    folder = params["folder"]
    name = folder.split("/", 1)[1]
    members = {p.rsplit("/", 1)[1]: b for p, b in before.items() if p.startswith(folder + "/")}
    for prefix, dirs in (("", ()), (f"{name}/", (f"{name}/",)), (f"{folder}/", ("Reports/", f"{folder}/")),
                         (f"./{folder}/", ())):
        data = _zip({prefix + m: b for m, b in members.items()}, dirs)
        state = {"files": {**before, params["zip"]: data}}
        assert task.check(state, params, DONE, {"files": before}).success, prefix
    extra = _zip({**{f"{folder}/{m}": b for m, b in members.items()}, "Documents/x.txt": b"x"})
    assert not task.check({"files": {**before, params["zip"]: extra}}, params, DONE, {"files": before}).success
    other = _zip({f"elsewhere/{m}": b for m, b in members.items()})
    assert not task.check({"files": {**before, params["zip"]: other}}, params, DONE, {"files": before}).success
    missing = _zip({f"{name}/{m}": b for m, b in list(members.items())[1:]})
    assert not task.check({"files": {**before, params["zip"]: missing}}, params, DONE, {"files": before}).success
    whole_home = _zip({p: b for p, b in before.items()})
    assert not task.check({"files": {**before, params["zip"]: whole_home}}, params, DONE,
                          {"files": before}).success


def test_largest_file_answer_is_the_one_name():
    tid = "computer.files-largest-v1"
    task = TASKS[tid]
    params, before = _home(tid, 0)
    state, truth = {"files": before}, params["truth"]
    names = [p.split("/", 1)[1] for p in before if p.startswith("Downloads/")]
    for answer in (truth, f"Downloads/{truth}", f"'{truth}'"):
        assert task.check(state, params, Outcome(answer, finished=True), state).success, answer
    wrong = next(n for n in names if n != truth)
    for answer in (", ".join(names), wrong, f"{truth} or {wrong}"):
        assert not task.check(state, params, Outcome(answer, finished=True), state).success, answer


def test_test_split_names_differ():
    """Every task of the family draws its names from split pools: a training home shares no drawn file
    name with a test home."""
    tid = "computer.files-rename-v0"
    train = {p for s in range(50) for p in TASKS[tid].draw(s)["home"]}
    test = {p for s in range(1000, 1050) for p in TASKS[tid].draw(s)["home"]}
    assert not train & test
