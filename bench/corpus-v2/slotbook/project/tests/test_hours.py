from datetime import date, datetime, time

import pytest

from slotbook import HoursError, OpeningHours
from slotbook.hours import parse_ranges


def test_parse_ranges_sorts_intervals():
    assert parse_ranges("13:00-17:30, 9:00-12:00") == [(time(9), time(12)), (time(13), time(17, 30))]


@pytest.mark.parametrize(
    "text",
    ["9-12", "12:00-09:00", "09:00-12:00, 11:00-13:00", "09:00-25:00"],
    ids=["no-minutes", "reversed", "overlapping", "hour-25"],
)
def test_bad_ranges(text):
    with pytest.raises((HoursError, ValueError)):
        parse_ranges(text)


def test_weekly_hours(hours):
    assert hours.intervals_on(date(2024, 5, 4)) == [(datetime(2024, 5, 4, 10), datetime(2024, 5, 4, 14))]
    assert hours.intervals_on(date(2024, 5, 5)) == []


def test_closed_day_and_special_hours(hours):
    assert hours.intervals_on(date(2024, 5, 1)) == []
    assert hours.intervals_on(date(2024, 5, 9)) == [(datetime(2024, 5, 9, 10), datetime(2024, 5, 9, 12))]


def test_is_open_needs_one_interval(hours, when):
    assert hours.is_open(when(30, 9), when(30, 11))
    assert not hours.is_open(when(30, 11), when(30, 13))
    assert not hours.is_open(when(30, 8, 30), when(30, 9, 30))


def test_unknown_day_name():
    with pytest.raises(HoursError):
        OpeningHours.from_config({"weekly": {"funday": "09:00-10:00"}})
