import datetime

from dates import add_days, day_of_year, days_in_month


def test_day_of_year_matches_datetime():
    for year in (1900, 2000, 2023, 2024):
        for month in range(1, 13):
            for day in (1, days_in_month(year, month)):
                expected = datetime.date(year, month, day).timetuple().tm_yday
                assert day_of_year(year, month, day) == expected


def test_add_days_matches_datetime():
    start = datetime.date(2023, 1, 31)
    for count in (0, 1, 28, 29, 365, 400, 1000):
        got = add_days(start.year, start.month, start.day, count)
        expected = start + datetime.timedelta(days=count)
        assert got == (expected.year, expected.month, expected.day)


def test_leap_day():
    assert add_days(2024, 2, 28, 1) == (2024, 2, 29)
