import pytest

from csvline import parse_line, parse_records


def test_plain_fields():
    assert parse_line('a,b,c') == ['a', 'b', 'c']


def test_empty_fields():
    assert parse_line('a,,c,') == ['a', '', 'c', '']


def test_quoted_separator():
    assert parse_line('"x,y",z') == ['x,y', 'z']


def test_escaped_quote():
    assert parse_line('"say ""hi""",ok') == ['say "hi"', 'ok']


def test_unterminated_quote():
    with pytest.raises(ValueError):
        parse_line('"open,field')


def test_records():
    assert parse_records('name,age\nann,31\n\nbob,4\n') == [
        {'name': 'ann', 'age': '31'},
        {'name': 'bob', 'age': '4'},
    ]


def test_records_wrong_count():
    with pytest.raises(ValueError):
        parse_records('a,b\n1,2,3\n')
