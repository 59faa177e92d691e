"""The phone's tool apps and their tasks: checkers on plain data, the seeded world, and app behaviours through a real phone."""

from __future__ import annotations

import numpy as np
import pytest

from hybridgym.reward.phone_tools import (answer_amount, answer_date, phone_changed, setting_near, settings_set,
                                          text_appended)
from hybridgym.sandbox.webserver import RecordStore
from hybridgym.tasks.base import Outcome
from hybridgym.tasks import TASKS
from hybridgym.tasks.kit.phone_world import tool_world


# ---- checkers on plain data -----------------------------------------------------------------------------------

NOTE = {"id": 1, "title": "Groceries", "body": "milk", "pinned": False, "updated": "2026-03-01 10:00"}


def test_phone_changed_ignores_a_note_edit_time_but_not_its_text():
    before = {"notes": [NOTE]}
    touched = {"notes": [{**NOTE, "updated": "2026-03-14 09:31"}]}
    assert phone_changed(before, touched, {}).success
    edited = {"notes": [{**NOTE, "body": "milk, eggs", "updated": "2026-03-14 09:31"}]}
    assert not phone_changed(before, edited, {}).success
    assert phone_changed(before, edited, {"notes": {"changed": {1: {"body": "milk, eggs"}}}}).success


def test_phone_changed_fails_on_a_change_in_another_collection():
    before = {"notes": [NOTE], "files": [{"id": 2, "name": "a.pdf", "folder": "Download"}]}
    after = {"notes": [{**NOTE, "pinned": True}], "files": []}
    assert not phone_changed(before, after, {"notes": {"changed": {1: {"pinned": True}}}}).success


def test_setting_near_accepts_the_tolerance_and_refuses_other_changes():
    s = {"id": 1, "brightness": 40, "wifi": True}
    assert setting_near([s], [{**s, "brightness": 73}], "brightness", 70, 4).success
    assert not setting_near([s], [{**s, "brightness": 76}], "brightness", 70, 4).success
    assert not setting_near([s], [{**s, "brightness": 70, "wifi": False}], "brightness", 70, 4).success
    assert not setting_near([s], [{**s, "brightness": True}], "brightness", 1, 4).success


def test_text_appended_needs_the_old_text_then_the_addition():
    assert text_appended("milk, eggs", "milk, eggs buy more coffee", "buy more coffee").success
    assert text_appended("milk, eggs", "milk, eggs\nBuy more coffee.", "buy more coffee").success
    assert not text_appended("milk, eggs", "buy more coffee", "buy more coffee").success
    assert not text_appended("milk, eggs", "milk, eggs", "buy more coffee").success


def test_answer_amount_reads_money_to_the_cent():
    assert answer_amount("$137.17", 137.17).success
    assert answer_amount("I spent 137.17 dollars", 137.17).success
    assert answer_amount("1,204.50", 1204.5).success
    assert not answer_amount("$137.20", 137.17).success
    assert not answer_amount("between 100 and 137.17", 137.17).success
    assert not answer_amount(None, 1.0).success


@pytest.mark.parametrize("text", ["2026-03-07", "7 March 2026", "March 7, 2026", "Sat, Mar 7 2026"])
def test_answer_date_accepts_the_usual_forms(text):
    assert answer_date(text, "2026-03-07").success


@pytest.mark.parametrize("text", ["2026-03-08", "March 2026", "7 March", "", "07/03/2026"])
def test_answer_date_refuses_another_or_an_incomplete_date(text):
    assert not answer_date(text, "2026-03-07").success


SETTINGS_TASKS = sorted(t for t in TASKS if t.startswith("mobile.settings-"))


def test_settings_set_wants_the_values_the_target_and_nothing_else():
    s = {"id": 1, "brightness": 40, "wifi": True, "dnd": False, "ringtone": "Zen"}
    ok = {**s, "dnd": True, "ringtone": "Dawn", "brightness": 61}
    assert settings_set([s], [ok], {"dnd": True, "ringtone": "Dawn"}, {"brightness": 60}).success
    assert not settings_set([s], [{**ok, "wifi": False}], {"dnd": True, "ringtone": "Dawn"}, {"brightness": 60}).success
    assert not settings_set([s], [{**ok, "brightness": 70}], {"dnd": True, "ringtone": "Dawn"}, {"brightness": 60}).success
    assert not settings_set([s], [{**ok, "ringtone": "Zen"}], {"dnd": True, "ringtone": "Dawn"}).success


def _asked(task, params, state) -> dict:
    """`state` with the settings record changed as the task asks (the brightness exactly on target)."""
    after = {k: [dict(r) for r in v] for k, v in state.items()}
    rec = after["settings"][0]
    rec.update(task.values(params))
    if task.target(params) is not None:
        rec["brightness"] = task.target(params) + 3
    return after


@pytest.mark.parametrize("task_id", SETTINGS_TASKS)
def test_a_settings_task_fails_when_every_option_is_turned_on(task_id):
    task = TASKS[task_id]
    for seed in (0, 1, 1000, 1001):
        params = task.draw(seed)
        state = RecordStore().load(params["records"], task.fields).snapshot()
        done = Outcome("", finished=True)
        assert not task.check(state, params, done, state).success
        asked = _asked(task, params, state)
        assert task.check(asked, params, done, state).success, seed
        everything = {k: [dict(r) for r in v] for k, v in asked.items()}
        everything["settings"][0].update(wifi=True, bluetooth=True, airplane=True, dnd=True, dark_mode=True)
        if everything["settings"][0] != asked["settings"][0]:
            assert not task.check(everything, params, done, state).success, seed
        other = {k: [dict(r) for r in v] for k, v in asked.items()}
        other["settings"][0]["font_size"] = "Largest" if other["settings"][0]["font_size"] != "Largest" else "Small"
        assert not task.check(other, params, done, state).success, seed
        touched = {k: [dict(r) for r in v] for k, v in asked.items()}
        touched["photos"] = touched["photos"][1:]
        assert not task.check(touched, params, done, state).success, seed


def test_settings_test_seeds_ask_for_other_ringtones_and_brightness_than_training_ones():
    for task_id in SETTINGS_TASKS:
        task = TASKS[task_id]
        train = {task.instruction(task.draw(s)) for s in range(100)}
        test = {task.instruction(task.draw(s)) for s in range(1000, 1100)}
        assert not train & test, task_id


# ---- the seeded world -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_world_has_no_ambiguous_targets(seed):
    w = tool_world(np.random.default_rng(seed))
    files = [(f["folder"], f["name"]) for f in w["files"]]
    assert len(files) == len(set(files))
    for folder in {f["folder"] for f in w["files"]}:   # "the largest" is one file, larger by a tenth
        top, second = sorted((f["size_kb"] for f in w["files"] if f["folder"] == folder), reverse=True)[:2]
        assert top >= second * 1.1
    assert len({p["name"] for p in w["photos"]}) == len(w["photos"])
    months = [(e["date"][:7], e["title"]) for e in w["expenses"]]
    assert len(months) == len(set(months))
    assert all(e["date"] <= "2026-03-14" for e in w["expenses"])   # nothing after the phone's today
    assert len(w["settings"]) == 1 and len({n["title"] for n in w["notes"]}) == len(w["notes"])


def test_questions_answer_from_the_seeded_records():
    params = TASKS["mobile.expenses-total-v1"].sample(np.random.default_rng(5))
    rows = [e for e in params["records"]["expenses"]
            if e["category"] == params["category"] and int(e["date"][5:7]) == params["month"]]
    assert rows and params["total"] == round(sum(e["amount"] for e in rows), 2)
    params = TASKS["mobile.files-largest-v1"].sample(np.random.default_rng(5))
    sizes = {f["name"]: f["size_kb"] for f in params["records"]["files"] if f["folder"] == params["folder"]}
    assert sizes[params["answer"]] == max(sizes.values())


# ---- app behaviours on a real phone -------------------------------------------------------------------------------

@pytest.fixture
def phone(suite_env):
    """The shared mobile env, reset on a tool task (seed 0), as (env, sandbox, store)."""
    def start(task_id: str):
        env = suite_env("mobile").unwrapped
        env.reset(seed=0, options={"task": task_id})
        return env, env.sandbox, env.sandbox.server.store
    return start


def tap(env, selector: str):
    x, y = env.sandbox.browser.screen_point(selector)
    return env.step({"action_type": "tap", "x": x, "y": y})


def test_expenses_refuses_an_invalid_amount_and_saves_nothing(phone):
    env, sb, store = phone("mobile.expenses-add-v1")
    before = store.snapshot()["expenses"]
    env.step({"action_type": "open_app", "app_name": "expenses"})
    tap(env, "#exp-add")
    tap(env, "#exp-title")
    env.step({"action_type": "type", "text": "Snacks"})
    tap(env, "#exp-amount")
    env.step({"action_type": "type", "text": "12.345"})
    tap(env, '.cat-opt[data-cat="Food"]')
    tap(env, "#exp-save")
    assert "amount" in sb.browser.page.text_content("#exp-error").lower()
    assert store.snapshot()["expenses"] == before


def test_files_rename_refuses_a_name_taken_in_the_same_folder(phone):
    env, sb, store = phone("mobile.files-rename-v1")
    files = store.snapshot()["files"]
    f = next(x for x in files if x["folder"] == "Download")
    other = next(x for x in files if x["folder"] == "Download" and x["id"] != f["id"])
    env.step({"action_type": "open_app", "app_name": "files"})
    tap(env, '.folder-row[data-folder="Download"]')
    tap(env, f'.file-more[data-id="{f["id"]}"] >> visible=true')
    tap(env, '.scrim .menu button[data-value="rename"]')
    env.step({"action_type": "type", "text": other["name"]})
    env.step({"action_type": "press_back"})
    tap(env, '.scrim .dialog button[data-value="ok"]')
    assert sb.browser.page.input_value("#rename-input") == other["name"]   # the dialog is back, with the name
    assert store.snapshot()["files"] == files


def test_settings_switch_saves_and_updates_the_status_bar(phone):
    env, sb, store = phone("mobile.settings-toggle-v1")
    page = sb.browser.page
    env.step({"action_type": "open_app", "app_name": "settings"})
    tap(env, "#set-devices")
    was = store.snapshot()["settings"][0]["bluetooth"]
    assert page.is_hidden("#sb-bt") == (not was)
    tap(env, "#sw-bluetooth")
    assert store.snapshot()["settings"][0]["bluetooth"] is (not was)
    assert page.is_hidden("#sb-bt") == was


def test_gallery_keeps_trashed_photos_out_of_the_grid_and_in_the_trash(phone):
    env, sb, store = phone("mobile.gallery-restore-v1")
    page = sb.browser.page
    trashed = [p["id"] for p in store.snapshot()["photos"] if p["trashed"]]
    env.step({"action_type": "open_app", "app_name": "gallery"})
    shown = {int(i) for i in page.eval_on_selector_all(".app-frame.active .thumb", "els => els.map(e => e.dataset.id)")}
    assert shown and not shown & set(trashed)
    tap(env, "#tab-albums")
    tap(env, '.album-card[data-album="__trash"]')
    in_trash = page.eval_on_selector_all(".app-frame.active > .screen:not(.hidden) .thumb", "els => els.map(e => +e.dataset.id)")
    assert sorted(in_trash) == sorted(trashed)


def test_every_tool_app_opens_without_a_script_error(phone):
    env, sb, store = phone("mobile.gallery-count-v1")
    page, errors = sb.browser.page, []
    def on_error(e):
        errors.append(e)
    page.on("pageerror", on_error)
    try:
        for app, title in (("notes", "Notes"), ("settings", "Settings"), ("files", "Files"), ("gallery", "Gallery"),
                           ("expenses", "Expenses")):
            env.step({"action_type": "open_app", "app_name": app})
            assert page.text_content(".app-frame.active > .screen:not(.hidden) .appbar .title") == title
    finally:
        page.remove_listener("pageerror", on_error)
    assert not errors


def test_expense_date_can_be_picked_from_a_calendar(phone):
    env, sb, store = phone("mobile.expenses-add-v1")
    env.step({"action_type": "open_app", "app_name": "expenses"})
    tap(env, "#exp-add")
    tap(env, "#exp-date-pick")
    tap(env, "#pick-prev")
    tap(env, '#pick-grid [data-date="2026-02-10"]')
    tap(env, '.scrim .dialog button[data-value="ok"]')
    assert sb.browser.page.input_value("#exp-date") == "2026-02-10"
