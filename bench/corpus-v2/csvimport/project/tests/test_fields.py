from datetime import date
from decimal import Decimal

import pytest

from csvimport import ConversionError, Field
from csvimport.fields import parse_bool, parse_date, parse_decimal, parse_int


@pytest.mark.parametrize(
    "text, value",
    [("42", 42), ("-7", -7), ("1,200", 1200), ("3 000 000", 3000000)],
    ids=["plain", "negative", "comma-thousands", "space-thousands"],
)
def test_parse_int(text, value):
    assert parse_int(text) == value


@pytest.mark.parametrize("text", ["4.5", "12a", "", "--1"], ids=["fraction", "letters", "empty", "two-signs"])
def test_parse_int_rejects(text):
    with pytest.raises(ConversionError):
        parse_int(text)


@pytest.mark.parametrize("text, value", [("yes", True), ("N", False), ("On", True), ("0", False)])
def test_parse_bool(text, value):
    assert parse_bool(text) is value


@pytest.mark.parametrize("text", ["2024-02-29", "29/02/2024", "29.02.2024"])
def test_parse_date_formats(text):
    assert parse_date(text) == date(2024, 2, 29)


def test_parse_date_rejects_impossible_day():
    with pytest.raises(ConversionError):
        parse_date("2023-02-29")


@pytest.mark.parametrize("text", ["NaN", "Infinity", "1.2.3"])
def test_parse_decimal_rejects(text):
    with pytest.raises(ConversionError):
        parse_decimal(text)


def test_parse_decimal_keeps_exact_value():
    assert parse_decimal("19.90") == Decimal("19.90")


def test_field_required_and_default():
    assert Field("note", default="-").convert("   ") == "-"
    with pytest.raises(ConversionError, match="required"):
        Field("note", required=True).convert("")


def test_field_choices_and_bounds():
    size = Field("size", "int", minimum=1, maximum=10)
    assert size.convert(" 10 ") == 10
    with pytest.raises(ConversionError, match="at most 10"):
        size.convert("11")
    with pytest.raises(ConversionError, match="one of S, M"):
        Field("fit", choices=("S", "M")).convert("XL")


def test_unknown_field_type():
    with pytest.raises(ValueError):
        Field("when", "datetime")
