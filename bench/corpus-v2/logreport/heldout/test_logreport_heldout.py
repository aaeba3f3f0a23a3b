from datetime import datetime, timezone

import pytest

from logreport import Report, build_report, parse_filter, parse_line, percentile, summarize
from logreport.parsing import ParseError, parse_lines


def line(ip="10.0.0.1", when="12/Mar/2024:10:00:00 +0000", request="GET / HTTP/1.1", status=200, size=100, duration=10):
    return f'{ip} - - [{when}] "{request}" {status} {size} "-" "agent" {duration}'


@pytest.mark.parametrize(
    "values, q, expected",
    [
        ([50, 10, 40, 20, 30], 10, 10),
        ([50, 10, 40, 20, 30], 25, 20),
        ([50, 10, 40, 20, 30], 90, 50),
        (list(range(1, 101)), 95, 95),
        (list(range(1, 21)), 95, 19),
        ([7], 1, 7),
        ([3, 1, 2], 50, 2),
    ],
    ids=["p10", "p25", "p90", "p95-of-100", "p95-of-20", "single", "odd-median"],
)
def test_percentile_cases(values, q, expected):
    assert percentile(values, q) == expected


def test_reports_are_independent():
    first = Report("one")
    first.add("A", ["x"], [["1"]])
    second = Report("two")
    assert second.sections == []
    second.add("B", ["y"], [["2"]])
    assert [s.title for s in first.sections] == ["A"]
    assert Report("three", [first.sections[0]]).sections is not first.sections


def test_build_report_twice_has_four_sections_each():
    entries = [parse_line(line(duration=d)) for d in (5, 50, 500)]
    assert len(build_report(entries).sections) == 4
    assert len(build_report(entries).sections) == 4


def test_report_latency_line():
    entries = [parse_line(line(duration=d)) for d in range(1, 21)]
    text = build_report(entries).to_text()
    assert "p50 / p95        10 ms / 19 ms" in text
    assert summarize(entries)["p95_ms"] == 19


def test_report_without_durations():
    entries = [parse_line('10.0.0.1 - - [12/Mar/2024:10:00:00 +0000] "GET / HTTP/1.1" 200 1')]
    assert "p50 / p95        n/a" in build_report(entries).to_text()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("since=2024-03-12T10:30", ["b", "c"]),
        ("until=2024-03-12T10:30", ["a"]),
        ("since=2024-03-12T11:00:00+01:00", ["a", "b", "c"]),
        ("since=2024-03-12T10:00 until=2024-03-12T11:00", ["a", "b"]),
    ],
    ids=["since-only", "until-only", "offset", "both"],
)
def test_time_bounds(text, expected):
    entries = {
        "a": parse_line(line(ip="a", when="12/Mar/2024:10:00:00 +0000")),
        "b": parse_line(line(ip="b", when="12/Mar/2024:11:30:00 +0100")),
        "c": parse_line(line(ip="c", when="12/Mar/2024:11:00:00 +0000")),
    }
    keep = parse_filter(text)
    assert [name for name, entry in entries.items() if keep(entry)] == expected


@pytest.mark.parametrize(
    "when",
    ["30/Feb/2024:10:00:00 +0000", "12/Foo/2024:10:00:00 +0000", "12/Mar/2024:25:00:00 +0000"],
    ids=["february-30", "bad-month", "hour-25"],
)
def test_bad_timestamps_are_parse_errors(when):
    with pytest.raises(ParseError, match="bad timestamp"):
        parse_line(line(when=when))


def test_bad_timestamp_is_collected_not_raised():
    entries, errors = parse_lines([line(), line(when="31/Apr/2024:00:00:00 +0000"), line()])
    assert len(entries) == 2
    assert [error.line_no for error in errors] == [2]


def test_ipv6_and_unreadable_requests():
    entry = parse_line(line(ip="::1", request="-", status=400))
    assert (entry.ip, entry.method, entry.path) == ("::1", "", "")
    assert entry.time == datetime(2024, 3, 12, 10, tzinfo=timezone.utc)
