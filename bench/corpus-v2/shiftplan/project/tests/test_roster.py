from datetime import date, datetime, timedelta

import pytest

from shiftplan import HolidayCalendar, Roster, RosterError, Shift, parse_rule


@pytest.fixture
def roster():
    holidays = {date(2024, 5, 1): "Labour Day", date(2024, 12, 25): "Christmas", date(2024, 12, 26): "Boxing Day"}
    return Roster(HolidayCalendar(holidays), max_week_hours=40)


def test_night_shift_ends_next_morning():
    night = Shift.on(date(2024, 3, 1), "22:00", "06:00", "ana", "nurse")
    assert night.end == datetime(2024, 3, 2, 6, 0)
    assert night.hours == 8


def test_overlap_is_refused(roster):
    roster.assign(Shift.on(date(2024, 3, 4), "08:00", "16:00", "ana"))
    with pytest.raises(RosterError, match="already works 2024-03-04 08:00-16:00"):
        roster.assign(Shift.on(date(2024, 3, 4), "15:00", "20:00", "ana"))
    roster.assign(Shift.on(date(2024, 3, 4), "15:00", "20:00", "ben"))


def test_rest_time_between_shifts(roster):
    roster.assign(Shift.on(date(2024, 3, 4), "14:00", "22:00", "ana"))
    with pytest.raises(RosterError, match="rest"):
        roster.assign(Shift.on(date(2024, 3, 5), "06:00", "14:00", "ana"))
    roster.assign(Shift.on(date(2024, 3, 5), "09:00", "17:00", "ana"))
    with pytest.raises(RosterError, match="rest"):
        roster.assign(Shift.on(date(2024, 3, 4), "00:00", "06:00", "ana"))


def test_weekly_hours(roster):
    for day in range(4, 9):  # Monday to Friday
        roster.assign(Shift.on(date(2024, 3, day), "08:00", "16:00", "ana"))
    with pytest.raises(RosterError, match="48h in week 10 of 2024"):
        roster.assign(Shift.on(date(2024, 3, 9), "08:00", "16:00", "ana"))
    roster.assign(Shift.on(date(2024, 3, 11), "08:00", "16:00", "ana"))
    assert roster.hours_by_person((2024, 10)) == {"ana": 40.0}



def test_hours_by_week_at_new_year(roster):
    roster.assign(Shift.on(date(2024, 12, 30), "08:00", "16:00", "ana"))
    roster.assign(Shift.on(date(2025, 1, 2), "22:00", "06:00", "ana"))
    roster.assign(Shift.on(date(2025, 1, 6), "08:00", "12:00", "ana"))
    assert roster.hours_by_person((2025, 1)) == {"ana": 16.0}
    assert roster.hours_by_person((2025, 2)) == {"ana": 4.0}


def test_plan_skips_holidays(roster):
    first = Shift.on(date(2024, 4, 29), "07:00", "15:00", "ben", "cook")
    added = roster.plan(parse_rule("FREQ=DAILY"), first, until=date(2024, 5, 3))
    assert [s.start.day for s in added] == [29, 30, 2, 3]


def test_plan_is_all_or_nothing(roster):
    roster.assign(Shift.on(date(2024, 6, 6), "13:00", "21:00", "ben"))
    first = Shift.on(date(2024, 6, 3), "07:00", "15:00", "ben")
    with pytest.raises(RosterError):
        roster.plan(parse_rule("FREQ=DAILY;COUNT=5"), first)
    assert len(roster.shifts) == 1


def test_coverage_gaps(roster):
    day = date(2024, 3, 4)
    roster.assign(Shift.on(day, "08:00", "12:00", "ana", "nurse"))
    roster.assign(Shift.on(day, "11:00", "14:00", "ben", "nurse"))
    roster.assign(Shift.on(day, "16:00", "23:00", "eve", "nurse"))
    roster.assign(Shift.on(day, "12:00", "18:00", "dan", "doctor"))
    gaps = roster.coverage_gaps(day, "07:00", "20:00", "nurse")
    assert [(a.strftime("%H:%M"), b.strftime("%H:%M")) for a, b in gaps] == [("07:00", "08:00"), ("14:00", "16:00")]
