from decimal import Decimal

import pytest

from invoicing import MoneyError, format_money, parse_amount, round_money


@pytest.mark.parametrize(
    "text, expected",
    [
        ("12", Decimal("12.00")),
        ("$1,234.5", Decimal("1234.50")),
        ("  €0.99 ", Decimal("0.99")),
        ("-$20.00", Decimal("-20.00")),
        ("1000000", Decimal("1000000.00")),
    ],
    ids=["plain", "thousands", "euro-padded", "credit", "million"],
)
def test_parse_amount(text, expected):
    assert parse_amount(text) == expected


@pytest.mark.parametrize("text", ["", "abc", "1,23", "12.345", "$"])
def test_parse_amount_rejects(text):
    with pytest.raises(MoneyError):
        parse_amount(text)


def test_round_money_keeps_floats_readable():
    assert round_money(0.1 + 0.2) == Decimal("0.30")
    assert round_money(19.999) == Decimal("20.00")


@pytest.mark.parametrize(
    "amount, currency, expected",
    [
        (Decimal("1234.5"), "USD", "$1,234.50"),
        (Decimal("0"), "EUR", "€0.00"),
        (Decimal("-5"), "USD", "-$5.00"),
        (Decimal("7.1"), "CHF", "CHF 7.10"),
    ],
    ids=["usd", "eur", "negative", "unknown-currency"],
)
def test_format_money(amount, currency, expected):
    assert format_money(amount, currency) == expected
