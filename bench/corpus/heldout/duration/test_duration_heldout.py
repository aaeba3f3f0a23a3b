from duration import clock, format_seconds, parse


def test_round_trip():
    for seconds in (1, 59, 60, 61, 3599, 3600, 86399, 86400, 90061, 1000000):
        assert parse(format_seconds(seconds)) == seconds


def test_format_skips_zero_units():
    assert format_seconds(86405) == '1d5s'


def test_parse_multi_digit():
    assert parse('120m') == 7200


def test_clock_long():
    assert clock(100000) == '27:46:40'
