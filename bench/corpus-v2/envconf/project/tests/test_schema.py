from datetime import timedelta

import pytest

from envconf import Field, Schema
from envconf.schema import to_bool, to_duration, to_list, to_size


@pytest.mark.parametrize(
    "raw, expected",
    [("1", True), ("Yes", True), (" on ", True), ("off", False), ("", False)],
    ids=["one", "yes", "padded-on", "off", "empty"],
)
def test_to_bool(raw, expected):
    assert to_bool(raw) is expected


def test_to_bool_rejects_other_words():
    with pytest.raises(ValueError):
        to_bool("maybe")


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("90", timedelta(seconds=90)),
        ("1h30m", timedelta(minutes=90)),
        ("250ms", timedelta(milliseconds=250)),
        ("2d", timedelta(days=2)),
        ("1.5s", timedelta(seconds=1.5)),
    ],
)
def test_to_duration(raw, expected):
    assert to_duration(raw) == expected


@pytest.mark.parametrize("raw", ["", "h", "1x", "1h 30m", "-5s"], ids=["empty", "unit-only", "bad-unit", "space", "negative"])
def test_to_duration_rejects(raw):
    with pytest.raises(ValueError):
        to_duration(raw)


@pytest.mark.parametrize(
    "raw, expected",
    [("512", 512), ("10MB", 10_000_000), ("4 KiB", 4096), ("1.5gb", 1_500_000_000)],
    ids=["bytes", "megabytes", "kibibytes", "fraction"],
)
def test_to_size(raw, expected):
    assert to_size(raw) == expected


def test_to_list():
    assert to_list(" a, b ,,c ") == ["a", "b", "c"]
    assert to_list("") == []


def test_choices():
    level = Field("LEVEL", choices=["info", "debug"])
    assert level.convert("debug") == "debug"
    with pytest.raises(ValueError, match="not one of info, debug"):
        level.convert("trace")


def test_schema_refuses_duplicates_and_unknown_types():
    with pytest.raises(ValueError, match="duplicate fields: A"):
        Schema.of(Field("A"), Field("B"), Field("A"))
    with pytest.raises(ValueError, match="unknown type"):
        Field("A", "uuid")
