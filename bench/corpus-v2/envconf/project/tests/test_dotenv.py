import pytest

from envconf import DotenvError, parse_dotenv, read_dotenv

SAMPLE = """
# database
DATABASE_URL=postgres://app:secret@db:5432/app
export DEBUG = yes
EMPTY=
GREETING="Hello,\\tWorld\\n"
PATTERN='^[a-z]+$  # not a comment'
COLOR=#ff0000
NOTE=ships today # after the comment sign
"""


def test_sample():
    assert parse_dotenv(SAMPLE) == {
        "DATABASE_URL": "postgres://app:secret@db:5432/app",
        "DEBUG": "yes",
        "EMPTY": "",
        "GREETING": "Hello,\tWorld\n",
        "PATTERN": "^[a-z]+$  # not a comment",
        "COLOR": "#ff0000",
        "NOTE": "ships today",
    }


@pytest.mark.parametrize(
    "text, expected",
    [
        ("HOST=db\nURL=http://$HOST:80", "http://db:80"),
        ("HOST=db\nURL=http://${HOST}:80", "http://db:80"),
        ("URL=http://${HOST:-localhost}:80", "http://localhost:80"),
        ("HOST=\nURL=http://${HOST:-localhost}:80", "http://localhost:80"),
        ("URL='http://${HOST}'", "http://${HOST}"),
        ('URL="cost: \\$5 ${HOST}"', "cost: $5 "),
    ],
    ids=["bare", "braced", "default-unset", "default-empty", "single-quoted", "escaped-dollar"],
)
def test_interpolation(text, expected):
    assert parse_dotenv(text)["URL"] == expected


def test_interpolation_falls_back_to_environ():
    values = parse_dotenv("HOME_DIR=${HOME}/app\nUSER=me\nWHO=$USER", environ={"HOME": "/home/x", "USER": "root"})
    assert values == {"HOME_DIR": "/home/x/app", "USER": "me", "WHO": "me"}


@pytest.mark.parametrize(
    "text, line",
    [("A=1\nnot a pair", 2), ('A="open', 1), ("\n\nB='x' y", 3), ("1ABC=2", 1)],
    ids=["no-equals", "open-quote", "text-after-quote", "bad-name"],
)
def test_errors_name_the_line(text, line):
    with pytest.raises(DotenvError) as info:
        parse_dotenv(text)
    assert info.value.line_no == line
    assert str(info.value).startswith(f"line {line}:")


def test_read_dotenv(write):
    path = write(".env", "A=1\nB=${A}2\n")
    assert read_dotenv(path) == {"A": "1", "B": "12"}
