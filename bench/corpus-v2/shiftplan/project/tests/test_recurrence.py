from datetime import date, datetime

import pytest

from shiftplan import Rule, occurrences, parse_rule


def test_parse_rule():
    assert parse_rule("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR;COUNT=6") == Rule("WEEKLY", 2, (0, 2, 4), 6, None)
    assert parse_rule("freq=daily;until=20240331;") == Rule("DAILY", 1, (), None, date(2024, 3, 31))


@pytest.mark.parametrize(
    "text, message",
    [
        ("FREQ=YEARLY", "FREQ must be one of"),
        ("FREQ=WEEKLY;BYDAY=MO,XX", "unknown weekday XX"),
        ("FREQ=DAILY;COUNT=3;UNTIL=20240101", "cannot be combined"),
        ("FREQ=DAILY;BYHOUR=9", "unsupported rule parts: BYHOUR"),
        ("FREQ=DAILY;INTERVAL", "expected KEY=VALUE"),
    ],
    ids=["yearly", "bad-weekday", "count-and-until", "byhour", "no-value"],
)
def test_parse_rule_errors(text, message):
    with pytest.raises(ValueError, match=message):
        parse_rule(text)


def test_daily_with_interval_and_count():
    rule = parse_rule("FREQ=DAILY;INTERVAL=3;COUNT=3")
    start = datetime(2024, 2, 27, 7, 0)
    assert [d.date() for d in occurrences(rule, start)] == [date(2024, 2, 27), date(2024, 3, 1), date(2024, 3, 4)]


def test_weekly_byday_starts_mid_week():
    rule = parse_rule("FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20240314")
    start = datetime(2024, 3, 7, 8, 30)  # a Thursday
    assert [d.strftime("%a %d") for d in occurrences(rule, start)] == ["Thu 07", "Tue 12", "Thu 14"]


def test_biweekly_on_mondays_and_fridays():
    rule = parse_rule("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR,MO")
    found = list(occurrences(rule, datetime(2024, 4, 1, 22, 0), end=datetime(2024, 5, 1)))
    assert [d.day for d in found] == [1, 5, 15, 19, 29]
    assert all(d.hour == 22 for d in found)


def test_end_is_required_for_open_rules():
    with pytest.raises(ValueError, match="unbounded"):
        list(occurrences(Rule("DAILY"), datetime(2024, 1, 1)))


def test_monthly_on_the_31st_is_clamped():
    rule = parse_rule("FREQ=MONTHLY;COUNT=4")
    found = list(occurrences(rule, datetime(2024, 1, 31, 9, 0)))
    assert [d.date() for d in found] == [date(2024, 1, 31), date(2024, 2, 29), date(2024, 3, 31), date(2024, 4, 30)]
