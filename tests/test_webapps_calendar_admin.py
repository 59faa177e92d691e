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
