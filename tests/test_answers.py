"""The one answer matcher (reward/answers.py): its policy, case by case, on plain data."""

from __future__ import annotations

import pytest

from hybridgym.reward.answers import Answer, match_answer, parse_date, parse_time, stated_numbers


def ok(answer, expected: Answer) -> bool:
    return match_answer(answer, expected).success


MONEY = Answer(42.5, "number", currency="$", context="How much did I spend in March 2026?")


@pytest.mark.parametrize("answer", ["42.50", "$42.50", "$42.5", "42.50 dollars", "USD 42.50", "I spent $42.50 in March 2026",
                                    "It was $42.50.", "**$42.50**"])
def test_money_in_its_natural_forms_passes(answer):
    assert ok(answer, MONEY)


@pytest.mark.parametrize("answer", ["€42.50", "42.50 EUR", "$425.00", "$4.25", "42.50 or 43.00", "41.50, 42.50, 43.50",
                                    "", None, "forty-two fifty"])
def test_money_that_is_not_the_one_figure_fails(answer):
    assert not ok(answer, MONEY)


def test_a_list_of_every_candidate_fails():
    figures = ", ".join(f"${x}.50" for x in range(1, 169))
    assert not ok(figures, Answer(42.5, "number", currency="$"))


@pytest.mark.parametrize("answer,passes", [("3", True), ("3 photos", True), ("three", True), ("There are 3.", True),
                                           ("1,400", False), ("4", False), ("3 or 4", False), ("3.5", False)])
def test_counts(answer, passes):
    assert ok(answer, Answer(3, "number")) is passes


def test_thousands_separators_and_units():
    assert ok("1,400 km", Answer(1400, "number"))
    assert ok("1 400", Answer(1400, "number"))
    assert not ok("1,40", Answer(1400, "number"))


def test_numbers_the_instruction_states_are_not_counted():
    q = Answer(12, "number", context="How many of the 30 users logged in during 2025?")
    assert ok("12 of the 30 users", q) and ok("12 in 2025", q)
    assert not ok("30", q) and not ok("12 or 13", q)


def test_tolerance_is_declared():
    assert ok("3.1416", Answer(3.14159, "number", rel_tol=1e-4))
    assert not ok("3.15", Answer(3.14159, "number", rel_tol=1e-4))


@pytest.mark.parametrize("answer,passes", [("Morgan Blake", True), ("morgan  blake.", True), ('"Morgan Blake"', True),
                                           ("The Morgan Blake", True), ("Morgan Blake or Sam Lee", False),
                                           ("I think Morgan Blake", False), ("Morgan", False), ("Blake, Morgan", False)])
def test_text_is_one_normalized_span_never_a_substring(answer, passes):
    assert ok(answer, Answer("Morgan Blake")) is passes


def test_a_verbatim_ui_label_is_accepted_when_declared():
    room = Answer("Aurora", aliases=("Aurora (room booked)",))
    assert ok("Aurora", room) and ok("Aurora (room booked)", room)
    assert not ok("Aurora (room booked) or Borealis", room) and not ok("Borealis", room)


@pytest.mark.parametrize("answer", ["2026-03-14", "14 March 2026", "March 14, 2026", "Mar 14 2026", "Saturday, March 14th, 2026",
                                    "14th of March 2026", "Sat 14 Mar 2026"])
def test_dates_parsed_explicitly(answer):
    assert parse_date(answer).isoformat() == "2026-03-14"
    assert ok(answer, Answer("2026-03-14", "date"))


@pytest.mark.parametrize("answer", ["2026-03-15", "March 14", "14/03/2026", "March 2026", "2026-03-14 or 2026-03-15",
                                    "2026-02-30"])
def test_dates_that_are_not_the_one_date_fail(answer):
    assert not ok(answer, Answer("2026-03-14", "date"))


@pytest.mark.parametrize("answer,passes", [("7:05", True), ("07:05", True), ("7:05 am", True), ("7:05 AM.", True),
                                           ("19:05", False), ("7:05 pm", False), ("7:50", False), ("7", False)])
def test_times(answer, passes):
    assert ok(answer, Answer("07:05", "time")) is passes
    assert parse_time("7:05 pm") == (19, 5)


def test_dates_and_times_are_not_numbers():
    assert stated_numbers("I spent $42.50 in March 2026 at 7:05") == [42.5]
    assert stated_numbers("On 2026-03-14 there were 3") == [3.0]


def test_bad_input_is_refused_clearly():
    assert "no answer" in match_answer(None, Answer("x")).message
    assert not ok("x" * 5000, Answer("x" * 5000))
    with pytest.raises(ValueError):
        Answer("x", kind="colour")
    with pytest.raises(ValueError):
        Answer(1, "number", currency="₿")


def test_keys_are_canonical():
    assert Answer(3, "number").key() == Answer(3.0, "number").key() == "3"
    assert Answer("  Morgan Blake. ").key() == Answer("morgan blake").key()


def test_a_number_of_the_instruction_said_alone_is_still_a_second_number():
    q = Answer(17, "number", context="How many orders are late? Answer with a number, e.g. 42.")
    assert ok("17", q) and not ok("42 or 17", q) and not ok("17, not 42", q)
    assert ok("42, not 41", Answer(42, "number", context="Give the count (e.g. 41).")) is False


def test_a_year_is_the_answer_when_nothing_else_is():
    year = Answer(1950, "number", context="In which year was the rector of Ostrava born?")
    assert ok("1950", year) and ok("born in 1950", year) and ok("in 1950", year) and ok("March 1950", year)
    assert not ok("born in 1951", year) and not ok("1950 or 1951", year)
    assert ok("I spent $42.50 in March 2026", MONEY)
