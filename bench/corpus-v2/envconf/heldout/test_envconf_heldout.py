from datetime import timedelta

import pytest

from envconf import ConfigError, Field, Schema, load, parse_dotenv
from envconf.dotenv import interpolate
from envconf.schema import to_size


@pytest.mark.parametrize(
    "scope, expected",
    [
        ({}, "fallback"),
        ({"NAME": ""}, "fallback"),
        ({"NAME": "set"}, "set"),
    ],
)
def test_default_used_when_unset_or_empty(scope, expected):
    assert interpolate("${NAME:-fallback}", scope) == expected


def test_empty_environ_value_takes_default():
    values = parse_dotenv("DIR=${DATA_DIR:-/var/lib/app}/cache", environ={"DATA_DIR": ""})
    assert values["DIR"] == "/var/lib/app/cache"


def test_empty_default_and_plain_reference():
    assert parse_dotenv("A=\nB=${A:-}x\nC=$A-y") == {"A": "", "B": "x", "C": "-y"}


def test_double_quote_escapes():
    values = parse_dotenv('A="line1\\nline2"\nB="say \\"hi\\""\nC="tab\\there"\nD="\\$HOME"', environ={"HOME": "/h"})
    assert values == {"A": "line1\nline2", "B": 'say "hi"', "C": "tab\there", "D": "$HOME"}


def test_single_quotes_keep_backslashes():
    assert parse_dotenv("A='a\\nb'") == {"A": "a\\nb"}


def test_into_collects_across_calls_only_when_asked():
    first = parse_dotenv("A=1")
    second = parse_dotenv("B=2")
    assert (first, second) == ({"A": "1"}, {"B": "2"})
    shared = {}
    parse_dotenv("A=1", into=shared)
    parse_dotenv("B=$A", into=shared)
    assert shared == {"A": "1", "B": "1"}


@pytest.mark.parametrize("raw", ["10 parsecs", "5XB", "3 kilo"], ids=["parsecs", "xb", "kilo"])
def test_unknown_size_unit_is_a_value_error(raw):
    with pytest.raises(ValueError, match="unknown size unit"):
        to_size(raw)


def test_bad_size_is_reported_with_the_others():
    schema = Schema.of(Field("CACHE", "size"), Field("WORKERS", "int"))
    with pytest.raises(ConfigError) as info:
        load(schema, environ={"CACHE": "1 zettabyte", "WORKERS": "many"})
    assert [p.split(":")[0] for p in info.value.problems] == ["CACHE", "WORKERS"]


def test_sources_of_defaults():
    schema = Schema.of(Field("A", default=1), Field("B", "duration", default=timedelta(0)), Field("C"))
    config = load(schema, environ={"C": "x"})
    assert config.sources == {"A": "default", "B": "default", "C": "environment"}
    assert config.as_dict() == {"A": 1, "B": timedelta(0), "C": "x"}


def test_ini_with_sections_and_defaults(tmp_path):
    path = tmp_path / "app.ini"
    path.write_text("[DEFAULT]\ntimeout = 5s\n\n[app]\nname = 100% shop\n\n[cache-redis]\nurl = redis://r\n")
    schema = Schema.of(
        Field("NAME"), Field("TIMEOUT", "duration"), Field("CACHE_REDIS_URL"), Field("CACHE_REDIS_TIMEOUT", "duration")
    )
    config = load(schema, [path], environ={})
    assert config.name == "100% shop"
    assert config.timeout == timedelta(seconds=5)
    assert config.cache_redis_url == "redis://r"
    assert config.cache_redis_timeout == timedelta(seconds=5)
