"""Checkers report which of their conditions held; `CheckResult.partial` grades partial credit from them."""

import json

import pytest

from hybridgym.reward import CHECKERS, CheckResult, Condition
from hybridgym.reward.checkers import all_of, file_text_equals, record_added, score_at_least
from hybridgym.reward.files import expected_tree
from hybridgym.reward.mail import mailbox_changed_only


def test_partial_is_one_on_success_and_share_of_goals_otherwise():
    goals = [Condition("a", True), Condition("b", False), Condition("c", False), Condition("g", True, guard=True)]
    assert CheckResult.failed("b", conditions=goals).partial == pytest.approx(1 / 3)
    assert CheckResult.passed("ok", [Condition("a", True)]).partial == 1.0
    assert CheckResult.failed("none").partial == 0.0


def test_a_failed_guard_earns_nothing():
    conds = [Condition("a", True), Condition("kept", False, guard=True)]
    assert CheckResult.failed("damaged", conditions=conds).partial == 0.0


def test_all_of_keeps_every_condition_and_the_first_failure():
    r = all_of(file_text_equals({"a": b"x"}, "a", "x"), file_text_equals({}, "b", "y"), file_text_equals({}, "c", "z"))
    assert not r.success and r.message == "b does not exist"
    assert [(c.name, c.held) for c in r.conditions] == [
        ("file_text_equals(a)", True), ("file_text_equals(b)", False), ("file_text_equals(c)", False)]
    assert r.partial == pytest.approx(1 / 3)


def test_record_added_splits_its_conditions():
    before = [{"id": 1, "name": "Ana"}]
    r = record_added(before, before + [{"id": 2, "name": "Bo"}], {"name": "Bo"})
    assert r.success and [c.name for c in r.conditions] == [
        "one record added", "the added record has the expected values", "existing records intact"]
    assert [c.guard for c in r.conditions] == [False, False, True]
    untouched = record_added(before, before, {"name": "Bo"})
    assert untouched.partial == 0.0 and not untouched.conditions[0].held


def test_score_at_least_partial_is_its_fraction():
    r = score_at_least(2, 5)
    assert r.partial == pytest.approx(0.4) and r.reward == pytest.approx(0.4)
    assert score_at_least(5, 5).partial == 1.0


def test_expected_tree_goal_per_change_and_guard_for_the_rest():
    before = {"a.txt": b"1", "b.txt": b"2"}
    half = expected_tree(before, {"a.txt": b"1", "b.txt": b"2", "new.txt": b"n"}, {"a.txt": None, "new.txt": b"n"})
    assert not half.success and half.partial == 0.5
    damaged = expected_tree(before, {"a.txt": b"1", "new.txt": b"n"}, {"new.txt": b"n"})
    assert damaged.partial == 0.0


def test_untouched_mailbox_earns_nothing():
    box = {"messages": [{"id": 1, "subject": "s", "folder": "inbox", "starred": False}], "folders": ["inbox"]}
    r = mailbox_changed_only(box, box, {1: {"starred": True}})
    assert not r.success and r.partial == 0.0


def test_to_dict_is_json():
    r = all_of(score_at_least(1, 2), file_text_equals({}, "x", "y"))
    d = json.loads(json.dumps(r.to_dict()))
    assert set(d) == {"success", "reward", "message", "partial", "fraction", "conditions"}
    assert set(d["conditions"][0]) == {"name", "held", "message", "guard"}


def test_every_registered_checker_reports_a_condition():
    assert len(CHECKERS) >= 37
    r = CHECKERS["file_text_equals"]({"p": b"t"}, "p", "t")
    assert r.conditions and all(c.held for c in r.conditions)


def test_a_games_score_fraction_survives_a_round_trip_through_its_record():
    from hybridgym.reward import CheckResult, Condition
    r = score_at_least(3, 10)
    d = json.loads(json.dumps(r.to_dict()))
    back = CheckResult(d["success"], d["reward"], d["message"],
                       conditions=tuple(Condition(**c) for c in d["conditions"]), fraction=d["fraction"])
    assert back.partial == r.partial == 0.3


# ---- the multi-condition checkers, each on a done, an untouched, a half-done and a damaged state --------------
def _table():
    from hybridgym.reward.calendar import (calendar_event_changed, calendar_event_created, calendar_events_deleted,
                                           calendar_series_created)
    from hybridgym.reward.files import archive_holds
    from hybridgym.reward.phone_tools import setting_near, settings_set
    from hybridgym.reward.research import downloads_exactly, records_changed_exactly
    from hybridgym.reward.sheets import Cell, Workbook, sheet_equals
    from hybridgym.reward.shop import order_placed
    import io
    import zipfile

    ev = [{"id": 1, "title": "Standup", "date": "2026-03-02", "start": "09:00"},
          {"id": 2, "title": "Review", "date": "2026-03-03", "start": "14:00"}]
    new = {"id": 3, "title": "Lunch", "date": "2026-03-04", "start": "12:00"}
    want = {"title": "Lunch", "date": "2026-03-04", "start": "12:00"}
    moved = [ev[0], {**ev[1], "start": "15:00"}]
    series = [{"id": 10 + k, "title": "Gym", "date": d, "start": "07:00"} for k, d in enumerate(["2026-03-05", "2026-03-06"])]
    shop = {"orders": [{"id": 1, "number": 1, "items": [], "address": {}, "shipping_method": "std", "coupon": ""}],
            "stock": {5: 10, 6: 4}}
    order = {"id": 2, "number": 2, "items": [{"product_id": 5, "qty": 2, "size": "", "colour": ""}],
             "address": {"name": "Ana Lopez", "city": "Porto"}, "shipping_method": "express", "coupon": ""}
    placed = {"orders": shop["orders"] + [order], "stock": {5: 8, 6: 4}}
    wrong_city = {"orders": shop["orders"] + [{**order, "address": {"name": "Ana Lopez", "city": "Lisbon"}}],
                  "stock": {5: 8, 6: 4}}
    order_args = ([{"product_id": 5, "qty": 2}], {"name": "Ana Lopez", "city": "Porto"}, "express")
    recs = [{"id": 1, "folder": 1, "name": "a"}, {"id": 2, "folder": 1, "name": "b"}, {"id": 3, "folder": 2, "name": "c"}]
    moves = {1: {"folder": 3}, 2: {"folder": 3}}
    s0 = [{"id": 1, "wifi": False, "dark": False, "volume": 20}]

    def zipped(members):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            for n, b in members.items():
                z.writestr(n, b)
        return buf.getvalue()
    members = {"a.txt": b"A", "b.txt": b"B"}
    book = lambda cells: Workbook({"Sheet1": {r: Cell(v, f) for r, (v, f) in cells.items()}})  # noqa: E731
    data = {"A1": (2.0, None), "A2": (3.0, None)}
    sheet_want = {"A1": 2.0, "A2": 3.0, "A3": 5.0}
    return {
        "calendar_event_created": dict(
            done=calendar_event_created(ev, ev + [new], want),
            untouched=calendar_event_created(ev, ev, want),
            half=calendar_event_created(ev, ev + [{**new, "start": "13:00"}], want),
            damaged=calendar_event_created(ev, ev[1:] + [new], want)),
        "calendar_event_changed": dict(
            done=calendar_event_changed(ev, moved, 2, {"start": "15:00"}),
            untouched=calendar_event_changed(ev, ev, 2, {"start": "15:00"}),
            half=calendar_event_changed(ev, [ev[0], {**ev[1], "start": "15:00", "date": "2026-03-09"}], 2,
                                        {"start": "15:00", "date": "2026-03-10"}),
            damaged=calendar_event_changed(ev, [{**ev[0], "title": "x"}, moved[1]], 2, {"start": "15:00"})),
        "calendar_events_deleted": dict(
            done=calendar_events_deleted(ev, [], [1, 2]),
            untouched=calendar_events_deleted(ev, ev, [1, 2]),
            half=calendar_events_deleted(ev, ev[1:], [1, 2]),
            damaged=calendar_events_deleted(ev + [new], [new | {"title": "y"}], [1, 2])),
        "calendar_series_created": dict(
            done=calendar_series_created(ev, ev + series, {"title": "Gym"}, ["2026-03-05", "2026-03-06"]),
            untouched=calendar_series_created(ev, ev, {"title": "Gym"}, ["2026-03-05", "2026-03-06"]),
            half=calendar_series_created(ev, ev + series[:1], {"title": "Gym"}, ["2026-03-05", "2026-03-06"]),
            damaged=calendar_series_created(ev, ev[1:] + series, {"title": "Gym"}, ["2026-03-05", "2026-03-06"])),
        "order_placed": dict(
            done=order_placed(shop, placed, *order_args),
            untouched=order_placed(shop, shop, *order_args),
            half=order_placed(shop, wrong_city, *order_args),
            damaged=order_placed(shop, {**placed, "orders": placed["orders"][1:]}, *order_args)),
        "records_changed_exactly": dict(
            done=records_changed_exactly(recs, [{**recs[0], "folder": 3}, {**recs[1], "folder": 3}, recs[2]], moves),
            untouched=records_changed_exactly(recs, recs, moves),
            half=records_changed_exactly(recs, [{**recs[0], "folder": 3}, recs[1], recs[2]], moves),
            damaged=records_changed_exactly(recs, [{**recs[0], "folder": 3}, {**recs[1], "folder": 3},
                                                   {**recs[2], "name": "z"}], moves)),
        "settings_set": dict(
            done=settings_set(s0, [{**s0[0], "wifi": True, "volume": 61}], {"wifi": True, "dark": False}, {"volume": 60}),
            untouched=settings_set(s0, s0, {"wifi": True, "dark": False}, {"volume": 60}),   # dark was already off
            half=settings_set(s0, [{**s0[0], "wifi": True}], {"wifi": True, "dark": False}, {"volume": 60}),
            damaged=settings_set(s0, [{**s0[0], "wifi": True, "volume": 60, "extra": 1}], {"wifi": True}, {"volume": 60})),
        "setting_near": dict(
            done=setting_near(s0, [{**s0[0], "volume": 58}], "volume", 60, 4),
            untouched=setting_near(s0, s0, "volume", 60, 4),
            damaged=setting_near(s0, [{**s0[0], "volume": 60, "wifi": True}], "volume", 60, 4)),
        "downloads_exactly": dict(
            done=downloads_exactly({"Downloads/a": b"1", "Downloads/b": b"2"}, {"a": b"1", "b": b"2"}),
            untouched=downloads_exactly({}, {"a": b"1", "b": b"2"}),
            half=downloads_exactly({"Downloads/a": b"1"}, {"a": b"1", "b": b"2"}),
            damaged=downloads_exactly({"Downloads/a": b"1", "Downloads/b": b"2", "Downloads/c": b"3"},
                                      {"a": b"1", "b": b"2"})),
        "archive_holds": dict(
            done=archive_holds({"r.zip": zipped(members)}, "r.zip", members, kind="zip"),
            untouched=archive_holds({}, "r.zip", members, kind="zip"),
            half=archive_holds({"r.zip": zipped({"a.txt": b"A"})}, "r.zip", members, kind="zip"),
            damaged=archive_holds({"r.zip": b"not an archive"}, "r.zip", members, kind="zip")),
        "sheet_equals": dict(
            done=sheet_equals(book({**data, "A3": (5.0, "=SUM(A1:A2)")}), sheet_want, formulas={"A3": "SUM"},
                              reads={"A3": "A1:A2"}),
            untouched=sheet_equals(book(data), sheet_want, formulas={"A3": "SUM"}, reads={"A3": "A1:A2"}),
            half=sheet_equals(book({**data, "A3": (5.0, None)}), sheet_want, formulas={"A3": "SUM"},
                              reads={"A3": "A1:A2"}),
            damaged=sheet_equals(None, sheet_want, formulas={"A3": "SUM"})),
    }


TABLE = _table()


@pytest.mark.parametrize("name", sorted(TABLE))
def test_multi_condition_checkers_grade_done_untouched_half_and_damaged_states(name):
    rows = TABLE[name]
    done, untouched = rows["done"], rows["untouched"]
    assert done.success and len(done.conditions) >= 2 and all(c.held for c in done.conditions), done
    assert not untouched.success and untouched.partial == 0.0, untouched.conditions
    if "half" in rows:
        assert not rows["half"].success and 0.0 < rows["half"].partial < 1.0, rows["half"].conditions
    assert not rows["damaged"].success and rows["damaged"].partial == 0.0, rows["damaged"].conditions
    assert any(c.guard and not c.held for c in rows["damaged"].conditions)
    names = [c.name for c in done.conditions]
    assert len(names) == len(set(names)), "a condition is reported twice"


def test_a_goal_already_met_at_the_start_is_a_guard():
    from hybridgym.reward.phone_tools import settings_set
    s0 = [{"id": 1, "wifi": False, "dark": False}]
    r = settings_set(s0, s0, {"wifi": True, "dark": False})
    assert [(c.name, c.guard) for c in r.conditions] == [
        ("setting wifi", False), ("setting dark", True), ("other settings unchanged", True)]
    assert r.partial == 0.0


def test_all_of_reports_a_shared_condition_once():
    a = CheckResult.failed("x", conditions=[Condition("intact", True, guard=True), Condition("g", False)])
    b = CheckResult.failed("y", conditions=[Condition("intact", False, "broken", guard=True)])
    r = all_of(a, b)
    assert [(c.name, c.held, c.message) for c in r.conditions] == [("intact", False, "broken"), ("g", False, "")]
    assert r.partial == 0.0


def test_settled_turns_the_goals_met_at_the_start_into_guards():
    from hybridgym.reward.checkers import settled
    start = CheckResult.failed("x", conditions=[Condition("exists", True), Condition("appended", False)])
    end = CheckResult.failed("y", conditions=[Condition("exists", True), Condition("appended", False)])
    assert end.partial == 0.5 and settled(end, start).partial == 0.0
    assert [c.guard for c in settled(end, start).conditions] == [True, False]
    broke = CheckResult.failed("z", conditions=[Condition("exists", False), Condition("appended", True)])
    assert settled(broke, start).partial == 0.0          # undoing what was there is damage
    done = CheckResult.passed("ok", [Condition("exists", True), Condition("appended", True)])
    assert settled(done, start).success and settled(done, start).partial == 1.0
    assert settled(end, None) is end
