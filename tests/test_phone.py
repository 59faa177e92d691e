"""The phone shell (home, back, open_app, recents, shade, keyboard), its touch input, the phone checkers,
and the phone tasks' checks on plain data."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from hybridgym.mobile import ChromiumPhone, PhoneBackend
from hybridgym.reward.phone import answer_in, answer_time, collections_changed, row_diff, same_value
from hybridgym.sandbox.webserver import RecordStore
from hybridgym.tasks import TASKS, Outcome
from hybridgym.tasks.kit.phone import PhoneTask


# ---- checkers (plain data) ----------------------------------------------------------------------
BEFORE = {
    "contacts": [{"id": 1, "name": "Ana Costa", "phone": "+1 555 100 2000", "favorite": False},
                 {"id": 2, "name": "Bo Li", "phone": "+1 555 300 4000", "favorite": True}],
    "messages": [{"id": 3, "phone": "+1 555 100 2000", "body": "hi", "read": False}],
}


def _after(changes: dict | None = None):
    after = {k: [dict(r) for r in v] for k, v in BEFORE.items()}
    for (col, rid), fields in (changes or {}).items():
        row = next(r for r in after[col] if r["id"] == rid)
        row.update(fields)
    return after


def test_collections_changed_accepts_exactly_the_asked_addition():
    after = _after()
    after["contacts"].append({"id": 9, "name": "cara  diaz", "phone": "+1 (555) 777-8888", "favorite": False})
    assert collections_changed(BEFORE, after, {"contacts": {"added": [{"name": "Cara Diaz", "phone": "+15557778888"}]}}).success


def test_collections_changed_rejects_an_extra_row_a_touched_distractor_and_a_missing_change():
    after = _after()
    after["contacts"] += [{"id": 9, "name": "Cara", "phone": "1"}, {"id": 10, "name": "Cara", "phone": "1"}]
    assert not collections_changed(BEFORE, after, {"contacts": {"added": [{"name": "Cara"}]}}).success
    touched = _after({("contacts", 2): {"favorite": False}})
    assert not collections_changed(BEFORE, touched, {"contacts": {"changed": {1: {"favorite": True}}}}).success
    assert not collections_changed(BEFORE, _after(), {"contacts": {"removed": [1]}}).success
    also = _after({("contacts", 1): {"favorite": True, "name": "Ana C"}})
    assert not collections_changed(BEFORE, also, {"contacts": {"changed": {1: {"favorite": True}}}}).success


def test_collections_changed_accepts_a_change_and_a_removal_and_ignores_listed_fields():
    after = _after({("contacts", 1): {"favorite": True}, ("messages", 3): {"read": True}})
    after["contacts"] = [r for r in after["contacts"] if r["id"] != 2]
    want = {"contacts": {"changed": {1: {"favorite": True}}, "removed": [2]}}
    assert collections_changed(BEFORE, after, want, ignore={"messages": ("read",)}).success
    assert not collections_changed(BEFORE, after, want).success   # read counts unless ignored


def test_same_value_reads_text_phone_numbers_and_flags_like_a_person():
    assert same_value("Main St 4", "main st  4")
    assert same_value("+1 555 100 2000", "+1-555-100-2000")
    assert not same_value("+1 555 100 2000", "+1 555 100 2001")
    assert not same_value(True, 1) and same_value(3, 3.0) and not same_value("3", 3)
    assert row_diff(BEFORE["contacts"], BEFORE["contacts"][:1]).removed == [BEFORE["contacts"][1]]


def test_answer_in_needs_one_accepted_form():
    assert answer_in(" 09:30 ", ["09:30", "9:30"]).success
    assert not answer_in("09:30 or 10:30", ["09:30"]).success
    assert not answer_in(None, ["09:30"]).success


def test_answer_time_takes_the_hour_with_or_without_its_zero():
    assert answer_time("07:05", "07:05").success and answer_time("7:05", "07:05").success
    assert answer_time("12:30", "12:30").success
    assert not answer_time("07:50", "07:05").success and not answer_time("", "07:05").success


# ---- the phone tasks on plain data ------------------------------------------------------------------
PHONE_TASKS = sorted(t for t in TASKS if t.startswith("mobile."))
DONE = Outcome("", finished=True)


def _seeded(task, seed: int) -> tuple[dict, dict]:
    """A task's parameters for a seed and the store's snapshot of its seeded phone (ids as the store gives them)."""
    params = task.sample(np.random.default_rng(seed))
    return params, RecordStore().load(params["records"], task.fields).snapshot()


def _made(state: dict, expected: dict) -> dict:
    """`state` with the changes `expected` names made to it."""
    after, new_id = copy.deepcopy(state), 10_000
    for name, want in expected.items():
        rows = after[name]
        for rid, values in want.get("changed", {}).items():
            next(r for r in rows if r["id"] == rid).update(values)
        rows[:] = [r for r in rows if r["id"] not in set(want.get("removed", ()))]
        for row in want.get("added", ()):
            rows.append({"id": new_id, **row})
            new_id += 1
    return after


@pytest.mark.parametrize("task_id", PHONE_TASKS)
def test_a_phone_task_passes_its_asked_change_and_its_truth_but_not_the_untouched_phone(task_id):
    task = TASKS[task_id]
    if type(task).expected is PhoneTask.expected and task.truth is None:
        pytest.skip("its check has a rule of its own (text_appended, setting_near)")
    for seed in range(30):
        params, state = _seeded(task, seed)
        answer = Outcome(task.truth.format(**params), finished=True) if task.truth else DONE
        assert not task.check(state, params, DONE, state).success, seed
        assert task.check(_made(state, task.expected(params)), params, answer, state).success, seed


# ---- the questions cannot be gamed (plain data) -------------------------------------------------------
QUESTIONS = [t for t in PHONE_TASKS if TASKS[t].truth is not None]


def _question(task_id: str, seed: int = 3):
    task = TASKS[task_id]
    params, state = _seeded(task, seed)
    expected = task.expected_answer(params)
    return task, params, state, expected, lambda text: task.check(state, params, Outcome(text, finished=True), state)


def test_every_question_declares_its_answer_from_its_parameters():
    assert len(QUESTIONS) >= 10
    for task_id in QUESTIONS:
        task, params, _, expected, _ = _question(task_id)
        assert expected is not None and expected.key() == task.expected_answer(params).key(), task_id
        assert expected.context == task.instruction(params), task_id


@pytest.mark.parametrize("task_id", QUESTIONS)
def test_a_question_takes_its_truth_and_refuses_a_list_a_hedge_and_ten_times_the_truth(task_id):
    task, params, state, expected, judge = _question(task_id)
    truth = str(expected.truth)
    assert judge(truth).success
    assert not judge("").success
    if expected.kind == "number":
        n = float(truth)
        assert judge(f"{truth} in total").success
        assert not judge(f"{n * 10:g}").success
        assert not judge(f"{n + 1:g}").success
        assert not judge(", ".join(str(i) for i in range(0, 40))).success     # every candidate
        assert not judge(f"{n:g} or {n + 1:g}").success
    elif expected.kind == "time":
        h, m = truth.split(":")
        assert judge(f"{int(h)}:{m}").success
        assert not judge(f"{truth} or 23:59").success
    elif expected.kind == "date":
        from datetime import date
        d = date.fromisoformat(truth)
        assert judge(d.strftime("%B %d, %Y").replace(" 0", " ")).success
        assert not judge(f"{truth} or 2026-01-01").success
    else:
        assert judge(f'"{truth}"').success
        assert not judge(f"{truth} or something else").success
        assert not judge(f"It is probably {truth}, maybe not").success


@pytest.mark.parametrize("task_id", QUESTIONS)
def test_the_most_common_answer_fails_where_it_is_wrong(task_id):
    task = TASKS[task_id]
    keys = {s: task.expected_answer(task.draw(s)).key() for s in range(1000, 1200)}
    top = max(set(keys.values()), key=list(keys.values()).count)
    assert list(keys.values()).count(top) <= 40, (task_id, top)
    seed = next(s for s, k in keys.items() if k != top)
    params = task.draw(seed)
    state = RecordStore().load(params["records"], task.fields).snapshot()
    assert not task.check(state, params, Outcome(top, finished=True), state).success


def test_counts_read_the_number_in_words_around_it():
    for task_id, unit in (("mobile.gallery-count-v1", "photos"), ("mobile.missed-calls-question-v1", "missed calls"),
                          ("mobile.events-count-question-v1", "events")):
        task, params, state, expected, judge = _question(task_id)
        n = int(expected.truth)
        assert judge(f"{n} {unit}").success and judge(f"There are {n} {unit}.").success, task_id
        assert not judge(f"{n + 1} {unit}").success, task_id


def test_expenses_total_wants_dollars_to_the_cent():
    task, params, state, expected, judge = _question("mobile.expenses-total-v1")
    total = params["total"]
    assert judge(f"${total:.2f}").success and judge(f"I spent {total:.2f} dollars").success
    assert not judge(f"€{total:.2f}").success and not judge(f"${total + 0.5:.2f}").success


def test_test_seeds_name_no_training_contact_or_number():
    from hybridgym.tasks.kit.phone_world import phone_world
    from hybridgym.tasks.base import SplitRng
    train = [phone_world(SplitRng(s, "train")) for s in range(20)]
    test = [phone_world(SplitRng(s, "test")) for s in range(1000, 1020)]
    first = lambda worlds: {c["name"].split()[0] for w in worlds for c in w["contacts"]}
    numbers = lambda worlds: {c["phone"] for w in worlds for c in w["contacts"]}
    assert not first(train) & first(test) and not numbers(train) & numbers(test)


# ---- the live phone ---------------------------------------------------------------------------------
@pytest.fixture
def phone_env(suite_env):
    env = suite_env("mobile").unwrapped
    env.reset(seed=0, options={"task": "mobile.message-reply-v1"})
    return env


def state(env) -> dict:
    return env.sandbox.browser.page.evaluate("phone.state()")


def step(env, **action) -> dict:
    obs, _, _, _, info = env.step(action)
    assert not info["action_error"], info["action_error"]
    return obs


def tap(env, sel: str) -> None:
    x, y = env.sandbox.browser.screen_point(f"{sel} >> visible=true")
    step(env, action_type="tap", x=x, y=y)


def test_chromium_phone_is_a_phone_backend(phone_env):
    assert isinstance(phone_env.sandbox.phone, ChromiumPhone)
    assert isinstance(phone_env.sandbox.phone, PhoneBackend)


def test_open_app_by_id_or_name_recents_switch_back_and_home(phone_env):
    env = phone_env
    step(env, action_type="open_app", app_name="contacts")
    tap(env, "#add-contact")
    assert state(env)["depth"] == 2
    step(env, action_type="open_app", app_name="PHONE")          # display name of the dialer, any case
    assert state(env)["app"] == "dialer"
    tap(env, "#nav-recents")
    assert state(env)["recents"] and state(env)["running"] == ["dialer", "contacts"]
    tap(env, '.recent-card[data-app="contacts"] .peek')            # switching resumes the app where it was
    assert state(env)["app"] == "contacts" and state(env)["depth"] == 2
    step(env, action_type="press_back")                               # in-app screen first
    assert state(env)["app"] == "contacts" and state(env)["depth"] == 1
    step(env, action_type="press_back")                               # then the app closes to home
    assert state(env)["app"] is None
    step(env, action_type="open_app", app_name="calendar")
    step(env, action_type="press_home")
    assert state(env)["app"] is None
    _, _, _, _, info = env.step({"action_type": "open_app", "app_name": "Weather"})
    assert "no app named 'Weather'" in info["action_error"]


def test_swipe_down_from_status_bar_opens_the_shade_and_a_notification_opens_its_app(phone_env):
    env = phone_env
    assert state(env)["notifications"] >= 1       # the unread message
    step(env, action_type="swipe", x1=360, y1=20, x2=360, y2=900)
    assert state(env)["shade"]
    tap(env, ".notif")
    s = state(env)
    assert not s["shade"] and s["app"] == "messages" and s["depth"] == 2   # straight into the conversation


def test_keyboard_shows_for_a_text_field_its_keys_type_and_x_typing_still_works(phone_env):
    env = phone_env
    page = env.sandbox.browser.page
    step(env, action_type="open_app", app_name="Contacts")
    tap(env, "#add-contact")
    assert not state(env)["keyboard"]
    tap(env, "#name")
    assert state(env)["keyboard"]
    tap(env, '#keyboard [data-key="⇧"]')
    for k in "hi":
        tap(env, f'#keyboard [data-key="{k}"]')
    step(env, action_type="type", text=" there")
    assert page.evaluate("document.querySelector('#name').value") == "Hi there"
    step(env, action_type="press_back")            # back hides the keyboard first
    assert not state(env)["keyboard"] and state(env)["depth"] == 2


_RECORD_TOUCH = """() => { window.__t = []; for (const t of ['pointerdown', 'pointermove', 'pointerup', 'touchmove', 'longpress'])
  document.addEventListener(t, e => window.__t.push([t, Date.now(), e.pointerType || '']), true); }"""


def test_long_press_is_held_a_second_of_page_time_and_the_next_tap_still_counts(phone_env):
    env = phone_env
    page = env.sandbox.browser.page
    step(env, action_type="open_app", app_name="Phone")
    tap(env, "#tab-keypad")
    page.evaluate(_RECORD_TOUCH)
    x, y = env.sandbox.browser.screen_point("#dial-0")
    step(env, action_type="long_press", x=x, y=y)
    events = page.evaluate("window.__t")
    down = next(e for e in events if e[0] == "pointerdown")
    up = next(e for e in events if e[0] == "pointerup")
    assert down[2] == "touch" and up[1] - down[1] >= 1000
    assert any(e[0] == "longpress" for e in events)
    tap(env, "#dial-1")
    assert page.evaluate("document.querySelector('#dial-number').value") == "+1"


def test_swipe_is_a_touch_with_intermediate_moves_that_scrolls_a_list(phone_env):
    env = phone_env
    page = env.sandbox.browser.page
    step(env, action_type="open_app", app_name="Contacts")
    page.evaluate("document.querySelector('#contact-list').insertAdjacentHTML('beforeend', '<div style=\"height:2000px\"></div>')")
    page.evaluate(_RECORD_TOUCH)
    step(env, action_type="swipe", x1=360, y1=1200, x2=360, y2=500)
    moves = [e for e in page.evaluate("window.__t") if e[0] == "touchmove"]
    assert len(moves) >= 3      # intermediate moves (Chromium may coalesce some)
    top = page.evaluate("document.querySelector('#contact-list').scrollTop")
    assert 250 <= top <= 450          # the finger's 350 CSS px, no fling
    step(env, action_type="scroll", direction="up", x=360, y=800)    # a wheel scroll is a finger swipe too
    assert page.evaluate("document.querySelector('#contact-list').scrollTop") < top


def test_a_missing_app_script_leaves_the_shell_working(phone_env):
    page = phone_env.sandbox.browser.page
    page.route("**/apps/notes.js", lambda route: route.abort())
    try:
        page.reload()
        page.wait_for_selector("body[data-ready]")
        ids = page.evaluate("[...document.querySelectorAll('#launcher .icon')].map(e => e.dataset.app)")
        assert "notes" not in ids and "contacts" in ids
        assert page.evaluate("phone.open('contacts')")
    finally:
        page.unroute("**/apps/notes.js")
