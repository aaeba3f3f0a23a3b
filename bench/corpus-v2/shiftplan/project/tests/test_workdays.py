from datetime import date

import pytest

from shiftplan import HolidayCalendar, easter_sunday, parse_holidays

HOLIDAYS = """
# public holidays 2024
2024-01-01 New Year
2024-05-01 Labour Day
2024-10-03 German Unity Day   # national
2024-12-25 Christmas Day
2024-12-26 St Stephen's Day
"""


@pytest.fixture
def calendar():
    return HolidayCalendar(parse_holidays(HOLIDAYS)).with_easter(2024)


def test_parse_holidays():
    holidays = parse_holidays(
        "2024-01-01 New Year\n01.05.2024 Labour Day\n"
        "2024-10-03 German Unity Day   # national\n25.12.2024 Christmas Day\n26.12.2024\n"
    )
    assert holidays == {
        date(2024, 1, 1): "New Year",
        date(2024, 5, 1): "Labour Day",
        date(2024, 10, 3): "German Unity Day",
        date(2024, 12, 25): "Christmas Day",
        date(2024, 12, 26): "holiday",
    }


def test_parse_holidays_names_the_bad_line():
    with pytest.raises(ValueError, match="line 2: not a date"):
        parse_holidays("2024-01-01 New Year\n2024/05/01 Labour Day")


@pytest.mark.parametrize("year, expected", [(2024, date(2024, 3, 31)), (2025, date(2025, 4, 20)), (2038, date(2038, 4, 25))])
def test_easter(year, expected):
    assert easter_sunday(year) == expected


def test_is_workday(calendar):
    assert calendar.is_workday(date(2024, 3, 28))  # Maundy Thursday
    assert not calendar.is_workday(date(2024, 3, 29))  # Good Friday
    assert not calendar.is_workday(date(2024, 4, 1))  # Easter Monday
    assert not calendar.is_workday(date(2024, 3, 30))  # Saturday


def test_next_workday(calendar):
    assert calendar.next_workday(date(2024, 12, 24)) == date(2024, 12, 24)
    assert calendar.next_workday(date(2024, 12, 25)) == date(2024, 12, 27)


def test_add_workdays_skips_weekends(calendar):
    assert calendar.add_workdays(date(2024, 6, 7), 1) == date(2024, 6, 10)
    assert calendar.add_workdays(date(2024, 6, 10), -1) == date(2024, 6, 7)
    assert calendar.add_workdays(date(2024, 6, 12), 0) == date(2024, 6, 12)


def test_add_workdays_over_christmas(calendar):
    assert calendar.add_workdays(date(2024, 12, 23), 3) == date(2024, 12, 30)


def test_workdays_in_a_month(calendar):
    assert calendar.workdays_between(date(2024, 10, 1), date(2024, 10, 31)) == 22
    assert calendar.workdays_between(date(2024, 10, 31), date(2024, 10, 1)) == 0


def test_other_weekends():
    gulf = HolidayCalendar(weekend=[4, 5])  # Friday and Saturday
    assert gulf.is_workday(date(2024, 6, 9))  # Sunday
    assert not gulf.is_workday(date(2024, 6, 7))
    with pytest.raises(ValueError):
        HolidayCalendar(weekend=range(7))
