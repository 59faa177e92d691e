"""Checkers are pure functions of state: unit tests on plain data, no display."""

from hybridgym.reward import CHECKERS, CheckResult, get_checker
from hybridgym.reward.checkers import (all_of, file_text_equals, files_unchanged,
                                       records_contain, records_unchanged, score_at_least)


def test_registry_is_typed_and_complete():
    for name in ["file_text_equals", "files_unchanged", "records_contain", "records_unchanged",
                 "match_answer", "score_at_least"]:
        assert callable(CHECKERS[name])
    try:
        get_checker("nope")
    except KeyError as e:
        assert "registered" in str(e)
    else:
        raise AssertionError("unknown checker must raise")


def test_file_text_equals_reads_exact_text():
    files = {"a.txt": "héllo\nworld\n".encode()}
    assert file_text_equals(files, "a.txt", "héllo\nworld").success
    assert not file_text_equals(files, "a.txt", "hello\nworld").success
    assert not file_text_equals(files, "b.txt", "x").success
    assert not file_text_equals({"a.txt": b"\xff\xfe"}, "a.txt", "x").success
    assert not file_text_equals({"a.txt": b"x\n\n"}, "a.txt", "x").success


def test_files_unchanged_spots_damage_and_ignores_app_state():
    before = {"d/a": b"1", "d/b": b"2", ".config/x": b"c"}
    assert files_unchanged(before, {**before, "new": b"n"}).success
    assert not files_unchanged(before, {"d/a": b"1", ".config/x": b"c"}).success
    assert not files_unchanged(before, {**before, "d/b": b"3"}).success
    assert files_unchanged(before, {"d/a": b"1", "d/b": b"2"}, ignore_prefixes=(".config/",)).success


def test_records_contain_needs_exactly_one_match():
    rows = [{"id": 1, "title": "Buy milk ", "priority": "high"}, {"id": 2, "title": "x", "priority": "low"}]
    assert records_contain(rows, {"title": "buy milk", "priority": "high"}).success
    assert not records_contain(rows, {"title": "buy milk", "priority": "high"}, normalize=False).success
    assert not records_contain(rows + [dict(rows[0], id=3)], {"title": "Buy milk", "priority": "high"}).success
    assert not records_contain(rows, {"title": "Buy bread"}).success


def test_records_unchanged():
    before = [{"id": 1, "a": 1}, {"id": 2, "a": 2}]
    assert records_unchanged(before, before + [{"id": 3, "a": 3}]).success
    assert not records_unchanged(before, [{"id": 1, "a": 1}]).success
    assert not records_unchanged(before, [{"id": 1, "a": 1}, {"id": 2, "a": 5}]).success


def test_score_at_least_grades_partial_progress():
    assert score_at_least(5, 5).success
    r = score_at_least(2, 5)
    assert not r.success and abs(r.reward - 0.4) < 1e-9


def test_all_of_reports_first_failure():
    r = all_of(CheckResult.passed("a"), CheckResult.failed("b broke"), CheckResult.failed("c"))
    assert not r.success and r.message == "b broke"
    assert all_of(CheckResult.passed("a"), CheckResult.passed("b")).success


def test_record_added_needs_one_new_matching_record_and_no_damage():
    from hybridgym.reward.checkers import record_added
    before = [{"id": 1, "name": "Ana", "phone": "1"}]
    good = before + [{"id": 2, "name": "Bo", "phone": "2"}]
    assert record_added(before, good, {"name": "bo", "phone": "2"}).success
    assert not record_added(before, good, {"name": "bo", "phone": "2"}, normalize=False).success
    assert not record_added(before, before, {"name": "Bo"}).success
    assert not record_added(before, good + [{"id": 3, "name": "Bo", "phone": "2"}], {"name": "Bo"}).success
    damaged = [{"id": 1, "name": "Ana", "phone": "9"}, {"id": 2, "name": "Bo", "phone": "2"}]
    assert not record_added(before, damaged, {"name": "Bo", "phone": "2"}).success
