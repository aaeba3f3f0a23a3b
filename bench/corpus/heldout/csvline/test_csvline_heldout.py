import csv
import io

from csvline import parse_line


def test_matches_csv_module():
    lines = ['a,b', '"a,b",c', '"",x', 'one', ',', '"q""q",r', 'sp ace, lead']
    for line in lines:
        assert parse_line(line) == next(csv.reader(io.StringIO(line)))


def test_other_separator():
    assert parse_line('a;"b;c";d', ';') == ['a', 'b;c', 'd']


def test_empty_line():
    assert parse_line('') == ['']
