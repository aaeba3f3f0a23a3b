from fractions import Fraction

import pytest

from recipes import format_amount, parse_amount, parse_ingredient


@pytest.mark.parametrize(
    "text, expected",
    [("2", Fraction(2)), ("1 1/2", Fraction(3, 2)), ("3/4", Fraction(3, 4)), ("0.25", Fraction(1, 4))],
    ids=["whole", "mixed", "fraction", "decimal"],
)
def test_parse_amount(text, expected):
    assert parse_amount(text) == expected


@pytest.mark.parametrize(
    "line, expected",
    [
        ("1 1/2 cups flour, sifted", (Fraction(3, 2), "cup", "flour", "sifted")),
        ("- ½ tsp salt", (Fraction(1, 2), "tsp", "salt", "")),
        ("1½ Tbsp honey", (Fraction(3, 2), "tbsp", "honey", "")),
        ("2-3 cloves garlic, crushed", (Fraction(3), "", "cloves garlic", "crushed")),
        ("200g butter", (Fraction(200), "g", "butter", "")),
        ("4 fl oz milk", (Fraction(4), "fl oz", "milk", "")),
        ("salt to taste", (None, "", "salt", "")),
        ("3 Eggs", (Fraction(3), "", "eggs", "")),
    ],
    ids=["mixed-cups", "vulgar-half", "attached-vulgar", "range", "glued-unit", "fluid-ounces", "to-taste", "count"],
)
def test_parse_ingredient(line, expected):
    assert parse_ingredient(line) == expected


@pytest.mark.parametrize(
    "amount, text",
    [(Fraction(3, 2), "1 1/2"), (Fraction(1, 3), "1/3"), (Fraction(2), "2"), (Fraction(5, 16), "1/3"), (Fraction(9, 4), "2 1/4")],
    ids=["one-and-a-half", "third", "whole", "rounded", "two-and-a-quarter"],
)
def test_format_amount(amount, text):
    assert format_amount(amount) == text
