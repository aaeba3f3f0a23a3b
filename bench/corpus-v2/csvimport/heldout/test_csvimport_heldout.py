from decimal import Decimal

import pytest

from csvimport import Field, Schema, import_csv, import_json
from csvimport.fields import parse_decimal, parse_int
from csvimport.report import write_rejects
from csvimport.schema import normalize_header


@pytest.mark.parametrize(
    "header, key",
    [
        ("Unit Price (EUR) / Piece", "unit_price_eur_piece"),
        ("A-B-C-D", "a_b_c_d"),
        ("date of first sale", "date_of_first_sale"),
    ],
    ids=["many-separators", "dashes", "words"],
)
def test_normalize_long_headers(header, key):
    assert normalize_header(header) == key


@pytest.mark.parametrize(
    "text, value",
    [("1,234.50", Decimal("1234.50")), ("12,000", Decimal("12000")), ("-1 000.5", Decimal("-1000.5"))],
    ids=["comma-fraction", "comma-whole", "space-negative"],
)
def test_parse_decimal_with_separators(text, value):
    assert parse_decimal(text) == value


def test_parse_int_with_several_separators():
    assert parse_int("1,000,000") == 1000000


def test_duplicates_on_two_fields(schema, write):
    path = write("d.csv", "sku,name,qty\nA,x,1\nA,y,1\nA,x,2\nA,x,3\n")
    result = import_csv(path, schema, unique=["sku", "name"])
    assert [row["qty"] for row in result.rows] == [1, 1]
    assert result.rejected_lines == [4, 5]


def test_duplicates_in_json(schema, write):
    path = write("d.json", '[{"sku": "A", "name": "a", "qty": 1}, {"sku": "A", "name": "b", "qty": 2}]')
    result = import_json(path, schema, unique=["sku"])
    assert len(result.rows) == 1
    assert [str(e) for e in result.errors] == ["line 2: sku duplicates line 1"]


def test_line_numbers_after_blank_lines(schema, write):
    path = write("gaps.csv", "sku,name,qty\n\nA,first,1\n\nB,,2\n")
    result = import_csv(path, schema)
    assert [str(e) for e in result.errors] == ["line 5: name is required"]
    assert len(result.rows) == 1


def test_write_rejects_copies_the_right_lines(schema, write, tmp_path):
    source = write("s.csv", "sku,name,qty\nA,a,1\n\nB,b,x\nC,c,3\n")
    result = import_csv(source, schema)
    target = tmp_path / "r.csv"
    assert write_rejects(source, result, target) == 1
    assert target.read_text().splitlines() == ["sku,name,qty", "B,b,x"]


def test_whitespace_only_line_is_blank(schema, write):
    path = write("ws.csv", "sku,name,qty\n  ,  ,  \nA,a,1\n")
    result = import_csv(path, schema)
    assert result.ok and len(result.rows) == 1


def test_alias_with_punctuation_in_import(write):
    schema = Schema([Field("weight", "decimal", required=True, aliases=("Net weight (kg) / unit",))])
    result = import_csv(write("w.csv", '"Net Weight (kg) / Unit"\n"1,250.5"\n'), schema)
    assert result.rows == [{"weight": Decimal("1250.5")}]
