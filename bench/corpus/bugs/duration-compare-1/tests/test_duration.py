import pytest

from duration import add, clock, format_seconds, parse


def test_parse_hours_minutes():
    assert parse('1h30m') == 5400


def test_parse_days_seconds():
    assert parse('2d5s') == 172805


def test_parse_errors():
    with pytest.raises(ValueError):
        parse('10')
    with pytest.raises(ValueError):
        parse('5x')


def test_format():
    assert format_seconds(3725) == '1h2m5s'


def test_format_zero():
    assert format_seconds(0) == '0s'


def test_add():
    assert add('45m', '30m') == '1h15m'


def test_clock():
    assert clock(3725) == '1:02:05'
