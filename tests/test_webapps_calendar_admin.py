"""The Calendar and Admin console backends (validation, conflicts, bulk actions, settings) and their checkers, on plain data."""

from __future__ import annotations

import copy
import datetime as dt
import json

import pytest

from hybridgym.reward.admin import admin_state_changed
from hybridgym.reward.calendar import (calendar_event_changed, calendar_event_created, calendar_events_deleted,
                                       calendar_series_created)
from hybridgym.sandbox import Request
from hybridgym.tasks.webapps import admin as adm
from hybridgym.tasks.webapps import calendar as cal


def call(backend, method: str, path: str, body=None, **query):
    req = Request(method, path, {k: [str(v)] for k, v in query.items()}, {},
                  json.dumps(body).encode() if body is not None else b"")
    resp = backend(req)
    return resp.status, resp.body


# -- calendar backend ----------------------------------------------------------------

CAL_SEED, ADM_SEED = 5, 11


@pytest.fixture(scope="module")
def cal_data():
    return cal.generate(CAL_SEED)


def free_slot(backend, date):
    """A 30-minute slot on `date` with none of my events."""
    for t in range(8 * 60, 18 * 60, 30):
        slot = {"date": date, "start": cal.hhmm(t), "end": cal.hhmm(t + 30)}
        if not any(cal.overlaps(e, slot) for e in backend.events):
            return slot
    raise AssertionError("no free slot")


def test_calendar_generation_is_seeded_and_my_events_never_overlap(cal_data):
    assert cal.generate(5) == cal_data and cal.generate(6) != cal_data
    mine = [e for e in cal_data["events"] if e["owner"] == cal.ME]
    assert len(mine) > 100
    for i, a in enumerate(mine):
        assert not any(cal.overlaps(a, b) for b in mine[i + 1:])
    for room in cal_data["rooms"]:
        booked = [e for e in cal_data["events"] if e["room"] == room["id"]]
        for i, a in enumerate(booked):
            assert not any(cal.overlaps(a, b) for b in booked[i + 1:])


def test_calendar_refuses_missing_title_and_end_before_start(cal_data):
    b = cal.CalendarBackend().load(CAL_SEED)
    status, body = call(b, "POST", "events", {"title": " ", "date": b.today, "start": "10:00", "end": "09:00"})
    assert status == 422
    assert body["errors"]["title"] == "Title is required."
    assert "after the start" in body["errors"]["end"]
    status, body = call(b, "POST", "events", {"title": "X", "date": "03/04/2026", "start": "10:00", "end": "11:00"})
    assert status == 422 and "YYYY-MM-DD" in body["errors"]["date"]
    assert b.state()["events"] == cal_data["events"]


def test_calendar_overlap_with_my_event_needs_confirmation():
    b = cal.CalendarBackend().load(CAL_SEED)
    ev = next(e for e in b.mine() if not e["room"])
    body = {"title": "Clash", "date": ev["date"], "start": ev["start"], "end": ev["end"], "attendees": []}
    status, out = call(b, "POST", "events", body)
    assert status == 409 and [c["id"] for c in out["conflicts"]] == [ev["id"]]
    status, out = call(b, "POST", "events", {**body, "confirm_conflicts": True})
    assert status == 201 and out["owner"] == cal.ME and out["title"] == "Clash"


def test_calendar_refuses_a_room_booked_by_someone_else_and_a_room_too_small():
    b = cal.CalendarBackend().load(CAL_SEED)
    busy = next(e for e in b.events if e["owner"] != cal.ME and not any(
        cal.overlaps(e, m) for m in b.mine()))
    body = {"title": "Grab room", "date": busy["date"], "start": busy["start"], "end": busy["end"],
            "room": busy["room"], "attendees": [], "confirm_conflicts": True}
    status, out = call(b, "POST", "events", body)
    assert status == 422 and "already booked" in out["errors"]["room"] and busy["owner"] in out["errors"]["room"]
    slot = free_slot(b, busy["date"])
    status, out = call(b, "POST", "events", {**slot, "title": "Crowd", "room": "fjord", "attendees": cal.PEOPLE[:5]})
    assert status == 422 and "seats 3" in out["errors"]["room"]


def test_calendar_rooms_show_other_peoples_meetings_only_as_busy():
    b = cal.CalendarBackend().load(CAL_SEED)
    date = next(e["date"] for e in b.events if e["owner"] != cal.ME)
    _, out = call(b, "GET", "rooms", date=date)
    others = [x for x in out["bookings"] if x["owner"] != cal.ME]
    assert others and all(x["title"] == "Busy" and "attendees" not in x for x in others)


def test_calendar_update_delete_and_range_listing():
    b = cal.CalendarBackend().load(CAL_SEED)
    ev = next(e for e in b.mine() if not e["room"])
    status, out = call(b, "PUT", f"events/{ev['id']}", {**ev, "title": "Renamed"})
    assert status == 200 and out["title"] == "Renamed" and out["id"] == ev["id"]
    _, listed = call(b, "GET", "events", **{"from": ev["date"], "to": ev["date"]})
    assert ev["id"] in [e["id"] for e in listed] and all(e["date"] == ev["date"] for e in listed)
    assert call(b, "DELETE", f"events/{ev['id']}")[0] == 200
    assert call(b, "GET", f"events/{ev['id']}")[0] == 404


def test_calendar_weekly_series_creates_and_deletes_together():
    b = cal.CalendarBackend().load(CAL_SEED)
    date = b.today
    body = {"date": date, "start": "20:00", "end": "20:30", "title": "Weekly sync", "attendees": [], "repeat_weeks": 13}
    status, out = call(b, "POST", "events", body)
    assert status == 422 and "2 to 12" in out["errors"]["repeat"]
    n = len(b.events)
    status, out = call(b, "POST", "events", {**body, "repeat_weeks": 3})   # generated events end by 19:00
    assert status == 201
    series = [e for e in b.events if e["series"] == out["id"]]
    assert len(b.events) == n + 3 and len(series) == 3
    assert [e["date"] for e in series] == [(dt.date.fromisoformat(date) + dt.timedelta(weeks=k)).isoformat()
                                           for k in range(3)]
    status, out = call(b, "DELETE", f"events/{series[1]['id']}", series="1")
    assert status == 200 and sorted(out["deleted"]) == sorted(e["id"] for e in series) and len(b.events) == n


# -- calendar checkers ------------------------------------------------------------------

EVENTS = [{"id": 1, "title": "Standup", "date": "2026-03-02", "start": "09:00", "end": "09:30", "room": None,
           "location": "Zoom", "attendees": ["Ben Carter"], "owner": "me", "notes": ""},
          {"id": 2, "title": "Standup", "date": "2026-03-03", "start": "09:00", "end": "09:30", "room": None,
           "location": "Zoom", "attendees": [], "owner": "me", "notes": ""}]
NEW = {"id": 3, "title": "Demo", "date": "2026-03-04", "start": "10:00", "end": "11:00", "room": "cedar",
       "location": "Cedar", "attendees": ["Eva Novak", "Ben Carter"], "owner": "me", "notes": ""}


def test_calendar_event_created_wants_the_fields_and_untouched_distractors():
    want = {"title": "demo", "date": "2026-03-04", "start": "10:00", "attendees": ["Ben Carter", "Eva Novak"]}
    assert calendar_event_created(EVENTS, EVENTS + [NEW], want).success
    assert not calendar_event_created(EVENTS, EVENTS, want).success
    assert not calendar_event_created(EVENTS, EVENTS + [{**NEW, "start": "10:30"}], want).success
    assert not calendar_event_created(EVENTS, EVENTS + [NEW, {**NEW, "id": 4}], want).success
    damaged = [EVENTS[0], {**EVENTS[1], "location": "Cafe"}, NEW]
    assert not calendar_event_created(EVENTS, damaged, want).success


def test_calendar_event_changed_refuses_other_field_changes():
    moved = [{**EVENTS[0], "start": "16:00", "end": "16:30"}, EVENTS[1]]
    assert calendar_event_changed(EVENTS, moved, 1, {"start": "16:00", "end": "16:30"}).success
    also = [{**moved[0], "title": "Other"}, EVENTS[1]]
    assert not calendar_event_changed(EVENTS, also, 1, {"start": "16:00", "end": "16:30"}).success
    assert not calendar_event_changed(EVENTS, [EVENTS[1]], 1, {"start": "16:00"}).success


def test_calendar_series_created_wants_one_event_per_date():
    want = {"title": "Demo", "start": "10:00"}
    week2 = {**NEW, "id": 4, "date": "2026-03-11"}
    assert calendar_series_created(EVENTS, EVENTS + [NEW, week2], want, ["2026-03-04", "2026-03-11"]).success
    assert not calendar_series_created(EVENTS, EVENTS + [NEW], want, ["2026-03-04", "2026-03-11"]).success
    assert not calendar_series_created(EVENTS, EVENTS + [NEW, {**week2, "start": "11:00"}], want,
                                       ["2026-03-04", "2026-03-11"]).success


def test_calendar_events_deleted_only_those():
    assert calendar_events_deleted(EVENTS, [EVENTS[1]], [1]).success
    assert not calendar_events_deleted(EVENTS, [], [1]).success
    assert not calendar_events_deleted(EVENTS, EVENTS, [1]).success


# -- admin backend ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def adm_data():
    return adm.generate(ADM_SEED)


def test_admin_generation_has_sixty_plus_unique_users_and_is_seeded(adm_data):
    assert adm.generate(11) == adm_data and adm.generate(12) != adm_data
    emails = [u["email"] for u in adm_data["users"]]
    assert len(emails) >= 60 and len(set(emails)) == len(emails)
    assert {u["department"] for u in adm_data["users"]} == set(adm.DEPARTMENTS)


def test_admin_user_edit_is_validated_and_audited():
    b = adm.AdminBackend().load(ADM_SEED)
    u1, u2 = b.users[0], b.users[1]
    status, out = call(b, "PUT", f"users/{u1['id']}", {"email": "not-an-email"})
    assert status == 422 and "valid email" in out["errors"]["email"]
    status, out = call(b, "PUT", f"users/{u1['id']}", {"email": u2["email"]})
    assert status == 422 and "already" in out["errors"]["email"]
    n = len(b.audit)
    role = next(r for r in adm.ROLES if r != u1["role"])
    status, out = call(b, "PUT", f"users/{u1['id']}", {"role": role})
    assert status == 200 and out["role"] == role
    assert b.audit[-1]["action"] == "user.role" and b.audit[-1]["actor"] == adm.ACTOR and len(b.audit) == n + 1


def test_admin_invite_needs_an_allowed_domain():
    b = adm.AdminBackend().load(ADM_SEED)
    invite = {"name": "Ines Duarte", "email": "ines@agency.example", "department": "Sales", "role": "Viewer",
              "groups": ["support"]}
    status, out = call(b, "POST", "users", invite)
    assert status == 422 and "Settings → Security" in out["errors"]["email"]
    sec = dict(b.settings["security"], allowed_domains=b.settings["security"]["allowed_domains"] + "\nagency.example")
    assert call(b, "PUT", "settings/security", sec)[0] == 200
    status, out = call(b, "POST", "users", invite)
    assert status == 201 and out["active"] and out["last_login"] is None


def test_admin_security_settings_refuse_out_of_range_values():
    b = adm.AdminBackend().load(ADM_SEED)
    before = copy.deepcopy(b.settings)
    status, out = call(b, "PUT", "settings/security", {"session_timeout": 2880, "ip_allowlist": "10.0.0.0/8\nnope"})
    assert status == 422
    assert out["errors"]["session_timeout"] == "Must be between 5 and 1440 minutes."
    assert "nope" in out["errors"]["ip_allowlist"]
    assert b.settings == before
    status, out = call(b, "PUT", "settings/security", {"session_timeout": "1440"})
    assert status == 200 and b.settings["security"]["session_timeout"] == 1440


def test_admin_bulk_actions_and_permission_rules():
    b = adm.AdminBackend().load(ADM_SEED)
    ids = [u["id"] for u in b.users[:4]]
    assert call(b, "POST", "users/bulk", {"ids": ids, "action": "set_role", "role": "Boss"})[0] == 422
    assert call(b, "POST", "users/bulk", {"ids": ids, "action": "deactivate"}) == (200, {"updated": 4})
    assert not any(u["active"] for u in b.users[:4])
    matrix = copy.deepcopy(b.permissions)
    matrix["admins"].remove("settings.edit")
    assert call(b, "PUT", "permissions", {"matrix": matrix})[0] == 422
    matrix = copy.deepcopy(b.permissions)
    matrix["auditors"] = sorted(set(matrix["auditors"]) | {"audit.view"})
    assert call(b, "PUT", "permissions", {"matrix": matrix})[0] == 200
    assert "audit.view" in b.permissions["auditors"]


# -- admin checker ----------------------------------------------------------------------

def test_admin_state_changed_accepts_exactly_the_asked_change(adm_data):
    before = {k: copy.deepcopy(adm_data[k]) for k in ("users", "permissions", "settings")}
    after = copy.deepcopy(before)
    uid = after["users"][3]["id"]
    after["users"][3]["role"] = "Admin"
    after["settings"]["security"]["allowed_domains"] += "\nagency.example"
    assert admin_state_changed(before, after, users={uid: {"role": "Admin"}}, settings={"security": {
        "allowed_domains": "agency.example\n" + before["settings"]["security"]["allowed_domains"]}}).success
    assert not admin_state_changed(before, after, users={uid: {"role": "Admin"}}).success   # setting not asked
    after["users"][5]["active"] = not after["users"][5]["active"]
    assert not admin_state_changed(before, after, users={uid: {"role": "Admin"}}, settings={"security": {
        "allowed_domains": after["settings"]["security"]["allowed_domains"]}}).success      # a distractor changed


def test_admin_state_changed_checks_invites_and_permissions(adm_data):
    before = {k: copy.deepcopy(adm_data[k]) for k in ("users", "permissions", "settings")}
    after = copy.deepcopy(before)
    after["users"].append({"id": 999, "name": "Noah Brandt", "email": "noah@x.example", "department": "Legal",
                           "role": "Editor", "active": True, "mfa": False, "last_login": None, "created": "",
                           "groups": []})
    want = {"name": "Noah Brandt", "email": "noah@x.example", "role": "Editor"}
    assert admin_state_changed(before, after, invited=want).success
    assert not admin_state_changed(before, after).success
    assert not admin_state_changed(before, after, invited={**want, "role": "Viewer"}).success
    after = copy.deepcopy(before)
    after["permissions"]["support"] = sorted(set(after["permissions"]["support"]) ^ {"api.keys"})
    assert admin_state_changed(before, after, permissions={"support": after["permissions"]["support"]}).success
    assert not admin_state_changed(before, after).success


# -- the attacks on the rewards (issue 15): answers, collateral, the test split ---------------------

from hybridgym.tasks import TASKS  # noqa: E402
from hybridgym.tasks.base import Outcome  # noqa: E402


def _admin_state(task, params):
    d = task.data(params["data_seed"])
    return {k: copy.deepcopy(d[k]) for k in ("users", "permissions", "settings", "audit")}


def _cal_state(task, params):
    return {"events": copy.deepcopy(task.data(params["data_seed"])["events"])}


def _answer_cases(task_id, seed):
    task = TASKS[task_id]
    p = task.draw(seed)
    base = _admin_state(task, p) if "admin" in task_id else _cal_state(task, p)
    check = lambda ans: task.check(copy.deepcopy(base), p, Outcome(answer=ans), base).success  # noqa: E731
    return task, p, check


@pytest.mark.parametrize("seed", [0, 1000])
def test_count_answers_take_one_number_not_a_list_or_ten_times(seed):
    for tid, key in (("browser.admin-count-users-v1", "count"), ("browser.calendar-count-day-v1", "count")):
        task, p, check = _answer_cases(tid, seed)
        n = p[key]
        assert check(str(n)) and check(f"{n} events") and check(f"There are {n}.")
        assert not check(", ".join(str(k) for k in range(0, 30)))
        assert not check(f"{n} or {n + 1}")
        assert not check(str(10 * n))
        assert not check(str(n + 1))
        assert not check(None)


def test_the_most_common_count_fails_where_it_is_wrong():
    task = TASKS["browser.calendar-count-day-v1"]
    seed = next(s for s in range(1000, 1100) if task.draw(s)["count"] != 1)
    _, p, check = _answer_cases("browser.calendar-count-day-v1", seed)
    assert not check("1") and check(str(p["count"]))


def test_audit_answer_rejects_the_signed_in_admin_where_wrong_and_lists_of_names():
    task = TASKS["browser.admin-audit-answer-v1"]
    seed = next(s for s in range(1000, 1100) if task.draw(s)["actor"] != adm.ACTOR)
    _, p, check = _answer_cases("browser.admin-audit-answer-v1", seed)
    assert check(p["actor"]) and check(p["actor"].upper()) and check(f"{p['actor']}.")
    assert not check(adm.ACTOR)
    assert not check(f"{p['actor']} or {adm.ACTOR}")
    everyone = ", ".join(u["name"] for u in task.data(p["data_seed"])["users"])
    assert not check(everyone)


def test_where_answer_takes_the_room_label_as_printed():
    task = TASKS["browser.calendar-where-answer-v1"]
    seed = next(s for s in range(0, 200) if task.draw(s)["event"]["room"])
    _, p, check = _answer_cases("browser.calendar-where-answer-v1", seed)
    loc = p["event"]["location"]
    assert check(loc) and check(f"{loc} (room booked)") and check(loc.lower())
    assert not check(f"{loc} or Zoom") and not check("Zoom, Birch, Aurora, Cedar, Delta, Everest, Fjord")
    seed = next(s for s in range(0, 200) if not task.draw(s)["event"]["room"])
    _, p, check = _answer_cases("browser.calendar-where-answer-v1", seed)
    assert check(p["event"]["location"]) and not check(f"{p['event']['location']} (room booked)")


def test_stalest_user_wants_the_email_alone():
    _, p, check = _answer_cases("browser.admin-stalest-user-v1", 1000)
    assert check(p["email"]) and check(p["email"].upper())
    assert not check(f"{p['email']}, someone.else@{p['email'].split('@')[1]}")


def test_answer_tasks_fail_when_the_state_changed_too():
    task, p, _ = _answer_cases("browser.admin-count-users-v1", 0)
    base = _admin_state(task, p)
    after = copy.deepcopy(base)
    after["users"][0]["role"] = "Admin" if after["users"][0]["role"] != "Admin" else "Viewer"
    assert not task.check(after, p, Outcome(answer=str(p["count"])), base).success


@pytest.mark.parametrize("task_id", ["browser.admin-notifications-v1", "browser.admin-security-settings-v1",
                                     "browser.admin-general-settings-v1"])
def test_settings_tasks_fail_every_option_on_and_unasked_case_changes(task_id):
    task = TASKS[task_id]
    p = task.draw(3)
    base = _admin_state(task, p)
    # the right change passes
    ok = copy.deepcopy(base)
    sec = {"browser.admin-notifications-v1": "notifications", "browser.admin-security-settings-v1": "security",
           "browser.admin-general-settings-v1": "general"}[task_id]
    s = ok["settings"][sec]
    if sec == "notifications":
        s.update(digest=p["digest"], notify_failed_login=p["failed"], notify_billing=p["billing"],
                 slack_webhook=p["webhook"])
    elif sec == "security":
        s.update(min_password_length=p["min_password_length"], password_expiry_days=p["password_expiry_days"],
                 require_2fa=True, ip_allowlist=p["ip_before"] + "\n" + p["ip_range"])
    else:
        s.update({k: p[k] for k in task._KEYS})
    assert task.check(ok, p, Outcome(answer=None), base).success
    # every switch of every section on (with the asked values kept): fails
    allon = copy.deepcopy(ok)
    for section in allon["settings"].values():
        for k, v in section.items():
            if isinstance(v, bool):
                section[k] = True
    for section, values in allon["settings"].items():
        if any(values[k] != ok["settings"][section][k] for k in values):
            break
    else:
        pytest.skip("every switch already on")
    assert not task.check(allon, p, Outcome(answer=None), base).success
    # an unasked text setting in another case: fails
    cased = copy.deepcopy(ok)
    cased["settings"]["notifications" if sec != "notifications" else "general"]["description" if sec == "notifications"
                                                                               else "alert_email"] = "X@EXAMPLE.COM"
    assert not task.check(cased, p, Outcome(answer=None), base).success


def test_bulk_deactivate_fails_select_all_and_apply():
    task = TASKS["browser.admin-bulk-deactivate-v1"]
    p = task.draw(0)
    base = _admin_state(task, p)
    after = copy.deepcopy(base)
    for u in after["users"]:
        if u["department"] == p["department"]:
            u["active"], u["role"] = False, "Viewer"
    assert not task.check(after, p, Outcome(answer=None), base).success
    exact = copy.deepcopy(base)
    for u in exact["users"]:
        if u["id"] in p["ids"]:
            u["active"], u["role"] = False, "Viewer"
    assert task.check(exact, p, Outcome(answer=None), base).success


def test_calendar_edits_keep_the_other_fields_exactly():
    task = TASKS["browser.calendar-reschedule-v1"]
    p = task.draw(0)
    base = _cal_state(task, p)
    after = copy.deepcopy(base)
    ev = next(e for e in after["events"] if e["id"] == p["event"]["id"])
    ev.update(date=p["date"], start=p["start"], end=p["end"])
    assert task.check(after, p, Outcome(answer=None), base).success
    ev["title"] = ev["title"].upper()
    assert not task.check(after, p, Outcome(answer=None), base).success


def test_clear_week_fails_deleting_every_event_of_that_title():
    task = TASKS["browser.calendar-clear-week-v0"]
    p = task.draw(0)
    base = _cal_state(task, p)
    after = {"events": [e for e in base["events"] if e["title"] != p["title"]]}
    assert not task.check(after, p, Outcome(answer=None), base).success
    after = {"events": [e for e in base["events"] if e["id"] not in p["ids"]]}
    assert task.check(after, p, Outcome(answer=None), base).success


def test_every_calendar_and_admin_task_samples_all_seeds_without_crashing():
    """The clear-week crash (an empty list of weeks to pick from) and its kind: every seed draws."""
    ids = [t for t in TASKS if t.startswith(("browser.calendar-", "browser.admin-"))]
    for tid in ids:
        for seed in list(range(0, 40)) + list(range(1000, 1040)):
            TASKS[tid].draw(seed)


def test_data_seeds_follow_the_split():
    for tid in ("browser.calendar-create-event-v0", "browser.admin-change-role-v1"):
        task = TASKS[tid]
        assert task.draw(5)["data_seed"] % 2 == 0 and task.draw(1005)["data_seed"] % 2 == 1
    assert cal.generate(cal.data_seed(3, "train"))["today"].startswith("2026")
    assert cal.generate(cal.data_seed(3, "test"))["today"].startswith("2027")
    train = {u["name"].split()[0] for k in range(20) for u in adm.generate(adm.data_seed(k, "train"))["users"]}
    test = {u["name"].split()[0] for k in range(20) for u in adm.generate(adm.data_seed(k, "test"))["users"]}
    assert not train & test
