from datetime import datetime, timedelta, timezone

import pytest

from logreport import ParseError, parse_line, read_log


def test_combined_line():
    entry = parse_line(
        '198.51.100.7 - alice [12/Mar/2024:09:01:15 +0000] "POST /api/login HTTP/1.1" 200 310 '
        '"https://shop.example/login" "curl/8.5.0" 88'
    )
    assert (entry.ip, entry.user, entry.method, entry.path, entry.status, entry.size) == (
        "198.51.100.7",
        "alice",
        "POST",
        "/api/login",
        200,
        310,
    )
    assert entry.time == datetime(2024, 3, 12, 9, 1, 15, tzinfo=timezone.utc)
    assert (entry.referrer, entry.agent, entry.duration_ms) == ("https://shop.example/login", "curl/8.5.0", 88)


def test_common_log_format_without_extras():
    entry = parse_line('10.0.0.1 - - [01/Jan/2024:00:00:00 -0500] "GET /x HTTP/1.0" 304 -')
    assert entry.user is None and entry.size == 0 and entry.agent is None and entry.duration_ms is None
    assert entry.time.utcoffset() == timedelta(hours=-5)


@pytest.mark.parametrize(
    "line, reason",
    [
        ("garbage", "not in combined log format"),
        ('1.2.3.4 - - [32/Mar/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1', "bad timestamp"),
    ],
    ids=["garbage", "day-32"],
)
def test_bad_lines(line, reason):
    with pytest.raises(ParseError, match=reason):
        parse_line(line, line_no=7)


def test_read_log_collects_bad_lines(parsed):
    entries, errors = parsed
    assert len(entries) == 10
    assert [error.line_no for error in errors] == [7]
    unreadable = entries[7]
    assert (unreadable.method, unreadable.path, unreadable.status) == ("", "", 400)


def test_read_log_strict(log_path):
    with pytest.raises(ParseError, match="line 7"):
        read_log(log_path, strict=True)
