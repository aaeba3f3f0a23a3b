import pytest

from dates import add_days, day_of_year, days_in_month, format_date, is_leap


def test_leap_years():
    assert is_leap(2024)
    assert not is_leap(2023)


def test_century_rules():
    assert not is_leap(1900)
    assert is_leap(2000)


def test_february_length():
    assert days_in_month(2024, 2) == 29
    assert days_in_month(2023, 2) == 28


def test_bad_month():
    with pytest.raises(ValueError):
        days_in_month(2023, 13)


def test_day_of_year():
    assert day_of_year(2023, 3, 1) == 60


def test_add_days_within_month():
    assert add_days(2023, 5, 10, 5) == (2023, 5, 15)


def test_add_days_across_year():
    assert add_days(2023, 12, 30, 3) == (2024, 1, 2)


def test_format_date():
    assert format_date(987, 3, 9) == '0987-03-09'
