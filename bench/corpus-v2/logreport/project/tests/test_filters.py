import pytest

from logreport import parse_filter


def select(entries, text):
    keep = parse_filter(text)
    return [(entry.ip, entry.path) for entry in entries if keep(entry)]


def test_status_and_prefix(entries):
    assert select(entries, "status>=500 path^=/api") == [
        ("2001:db8::1", "/api/orders?page=1"),
        ("2001:db8::1", "/api/orders"),
    ]


def test_regex_and_negation(entries):
    assert select(entries, "agent~=iPhone status!=304") == [("192.0.2.44", "/products/42")]
    assert len(select(entries, "user!=alice")) == 8


def test_quoted_values_and_duration(entries):
    assert select(entries, "'agent=Mozilla/5.0 (iPhone)' duration<10") == [("192.0.2.44", "/")]


def test_time_window(entries):
    assert select(entries, "since=2024-03-12T10:00 until=2024-03-12T11:00") == [
        ("2001:db8::1", "/api/orders?page=1"),
        ("2001:db8::1", "/api/orders"),
        ("192.0.2.44", "/products/42"),
        ("192.0.2.44", ""),
    ]


def test_open_ended_time_window(entries):
    assert select(entries, "since=2024-03-12T11:30:00+00:00") == [("203.0.113.9", "/api/orders")]


@pytest.mark.parametrize("text", ["colour=red", "status^=5", "since>2024-01-01", "status", "size=big"])
def test_bad_filters(text):
    with pytest.raises(ValueError):
        parse_filter(text)
