from datetime import date, datetime

import pytest

from shiftplan import HolidayCalendar, Roster, RosterError, Rule, Shift, occurrences, parse_holidays, parse_rule
from shiftplan.roster import iso_week


@pytest.mark.parametrize(
    "start, count, interval, expected",
    [
        (datetime(2023, 1, 30), 3, 1, [date(2023, 1, 30), date(2023, 2, 28), date(2023, 3, 30)]),
        (datetime(2024, 8, 31), 3, 2, [date(2024, 8, 31), date(2024, 10, 31), date(2024, 12, 31)]),
        (datetime(2024, 11, 15), 3, 1, [date(2024, 11, 15), date(2024, 12, 15), date(2025, 1, 15)]),
        (datetime(2024, 12, 31), 2, 2, [date(2024, 12, 31), date(2025, 2, 28)]),
    ],
    ids=["february-2023", "every-other-month", "mid-month", "over-new-year"],
)
def test_monthly(start, count, interval, expected):
    rule = Rule("MONTHLY", interval=interval, count=count)
    assert [d.date() for d in occurrences(rule, start)] == expected


@pytest.mark.parametrize(
    "byday, expected",
    [("SA,SU", (5, 6)), ("MO,TU,WE,TH,FR", (0, 1, 2, 3, 4)), ("fr,mo,fr", (0, 4)), ("TH", (3,))],
    ids=["weekend", "weekdays", "lower-duplicates", "single"],
)
def test_byday_lists(byday, expected):
    assert parse_rule(f"FREQ=WEEKLY;BYDAY={byday}").byday == expected


def test_weekly_weekend_shifts():
    rule = parse_rule("FREQ=WEEKLY;BYDAY=SA,SU;COUNT=4")
    found = list(occurrences(rule, datetime(2024, 6, 3, 10, 0)))
    assert [d.date() for d in found] == [date(2024, 6, 8), date(2024, 6, 9), date(2024, 6, 15), date(2024, 6, 16)]


@pytest.mark.parametrize(
    "line, expected",
    [("1.5.2024 May Day", date(2024, 5, 1)), ("3.10.2024 Unity", date(2024, 10, 3)), ("31.12.2024 NYE", date(2024, 12, 31))],
    ids=["may-day", "unity", "new-years-eve"],
)
def test_european_dates(line, expected):
    assert list(parse_holidays(line)) == [expected]


@pytest.mark.parametrize(
    "moment, week",
    [
        (datetime(2024, 12, 30, 8), (2025, 1)),
        (datetime(2021, 1, 3, 8), (2020, 53)),
        (datetime(2024, 6, 12, 8), (2024, 24)),
    ],
    ids=["monday-before-new-year", "sunday-after-new-year", "june"],
)
def test_iso_week(moment, week):
    assert iso_week(moment) == week


def test_weekly_limit_across_new_year():
    roster = Roster(max_week_hours=24)
    for day in [date(2024, 12, 30), date(2024, 12, 31), date(2025, 1, 2)]:
        roster.assign(Shift.on(day, "08:00", "16:00", "ana"))
    with pytest.raises(RosterError, match="week 1 of 2025"):
        roster.assign(Shift.on(date(2025, 1, 3), "08:00", "16:00", "ana"))
    assert roster.hours_by_person((2025, 1)) == {"ana": 24.0}


def test_holidays_in_workday_arithmetic():
    calendar = HolidayCalendar({date(2024, 5, 1): "Labour Day", date(2024, 5, 9): "Ascension"})
    assert calendar.add_workdays(date(2024, 4, 30), 1) == date(2024, 5, 2)
    assert calendar.add_workdays(date(2024, 5, 10), -1) == date(2024, 5, 8)
    assert calendar.workdays_between(date(2024, 5, 1), date(2024, 5, 10)) == 6


def test_plan_rolls_back_and_reraises():
    roster = Roster()
    roster.assign(Shift.on(date(2024, 6, 12), "20:00", "23:00", "cy"))
    with pytest.raises(RosterError, match="rest"):
        roster.plan(parse_rule("FREQ=DAILY;UNTIL=20240614"), Shift.on(date(2024, 6, 10), "06:00", "14:00", "cy"))
    assert [s.start.day for s in roster.shifts] == [12]


def test_until_day_is_included():
    rule = parse_rule("FREQ=DAILY;INTERVAL=2;UNTIL=20240109")
    found = list(occurrences(rule, datetime(2024, 1, 1, 23, 30)))
    assert [d.day for d in found] == [1, 3, 5, 7, 9]


def test_plan_until_includes_the_last_day():
    roster = Roster()
    first = Shift.on(date(2024, 7, 1), "09:00", "17:00", "dee")
    added = roster.plan(parse_rule("FREQ=WEEKLY;BYDAY=MO,FR"), first, until=date(2024, 7, 12))
    assert [s.start.day for s in added] == [1, 5, 8, 12]
