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
