from datetime import timedelta

import pytest

from envconf import ConfigError, load


def test_defaults_and_environment(schema):
    config = load(schema, environ={"DATABASE_URL": "sqlite://", "PORT": "9000", "UNRELATED": "x"})
    assert config.port == 9000
    assert config.host == "127.0.0.1"
    assert config.debug is False
    assert config.sources["PORT"] == "environment"
    assert config.sources["HOST"] == "default"


def test_files_in_order_then_environment(schema, write):
    base = write("base.env", "PORT=1\nHOST=base\nDATABASE_URL=sqlite://\nDEBUG=true\n")
    local = write("local.env", "PORT=2\nHOST=local\n")
    config = load(schema, [base, local, "missing.env"], environ={"APP_PORT": "3", "PORT": "4"}, prefix="APP_")
    assert (config.port, config.host, config.debug) == (3, "local", True)
    assert config.sources == {
        "HOST": str(local),
        "PORT": "environment",
        "DEBUG": str(base),
        "DATABASE_URL": str(base),
        "LOG_LEVEL": "default",
        "ALLOWED_HOSTS": "default",
        "REQUEST_TIMEOUT": "default",
        "MAX_UPLOAD": "default",
    }


def test_ini_file(schema, write):
    ini = write(
        "app.ini",
        "[app]\nport = 8080\nrequest_timeout = 1m\n\n[database]\nurl = postgres://app:p%40ss@db/app\n",
    )
    config = load(schema, [ini], environ={})
    assert config.port == 8080
    assert config.request_timeout == timedelta(minutes=1)
    assert config.database_url == "postgres://app:p%40ss@db/app"


def test_all_problems_are_reported_together(schema):
    with pytest.raises(ConfigError) as info:
        load(schema, environ={"PORT": "eighty", "LOG_LEVEL": "loud", "MAX_UPLOAD": "10 parsecs"})
    problems = info.value.problems
    assert problems[0] == "PORT: invalid literal for int() with base 10: 'eighty'"
    assert problems[1] == "DATABASE_URL: required but not set"
    assert problems[2].startswith("LOG_LEVEL: 'loud' is not one of")
    assert problems[3] == "MAX_UPLOAD: unknown size unit 'parsecs' in '10 parsecs'"


def test_secrets_are_redacted(schema):
    config = load(schema, environ={"DATABASE_URL": "postgres://u:pw@db/app"})
    assert config.as_dict()["DATABASE_URL"] == "********"
    assert "pw@" not in repr(config)
    assert config.as_dict(redact=False)["DATABASE_URL"] == "postgres://u:pw@db/app"


def test_unknown_attribute(schema):
    config = load(schema, environ={"DATABASE_URL": "x"})
    with pytest.raises(AttributeError):
        config.colour
