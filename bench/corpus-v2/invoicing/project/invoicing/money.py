"""Decimal money helpers: rounding to cents, parsing and formatting amounts."""
from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0")

SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}

_AMOUNT = re.compile(r"^\s*(-)?\s*([$€£])?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\s*$")


class MoneyError(ValueError):
    """Raised for text that is not an amount of money."""


def to_decimal(value) -> Decimal:
    if isinstance(value, Decimal):
        return value
    if isinstance(value, float):
        # str() first, so 0.1 stays 0.1 and does not become 0.1000000000000000055...
        return Decimal(str(value))
    return Decimal(value)


def round_money(value) -> Decimal:
    """Rounds to whole cents, halves away from zero (what customers expect on a bill)."""
    return to_decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def parse_amount(text: str) -> Decimal:
    """'$1,234.5' -> Decimal('1234.50'); a leading '-' makes a credit."""
    match = _AMOUNT.match(text)
    if match is None:
        raise MoneyError(f"not an amount: {text!r}")
    sign, _symbol, whole, cents = match.groups()
    value = Decimal(whole.replace(",", "") + "." + (cents or "0"))
    return round_money(-value if sign else value)


def format_money(amount, currency: str = "USD") -> str:
    """Decimal('-1234.5') -> '-$1,234.50'; unknown currencies get their code as prefix."""
    value = round_money(amount)
    symbol = SYMBOLS.get(currency, currency + " ")
    sign = "-" if value < 0 else ""
    return f"{sign}{symbol}{abs(value):,.2f}"
