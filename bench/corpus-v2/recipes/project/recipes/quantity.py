"""Parsing and printing ingredient lines: '1 1/2 cups flour, sifted', '½ tsp salt', '2-3 cloves'."""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Optional, Tuple

from .units import lookup

VULGAR = {"½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅛": "1/8"}

_NUMBER = r"\d+ \d+/\d+|\d+/\d+|\d+(?:\.\d+)?"  # longest form first
_AMOUNT = re.compile(rf"^(?P<low>{_NUMBER})(?:\s*(?:-|to)\s*(?P<high>{_NUMBER}))?\s*")


def parse_amount(text: str) -> Fraction:
    """'1 1/2' -> 3/2, '0.25' -> 1/4, '3/4' -> 3/4."""
    text = text.strip()
    if " " in text:
        whole, fraction = text.split(" ", 1)
        return Fraction(whole) + Fraction(fraction)
    return Fraction(text)


def _replace_vulgar(text: str) -> str:
    for char, plain in VULGAR.items():
        # '1½' is one and a half
        text = re.sub(rf"(\d){char}", rf"\1 {plain}", text)
        text = text.replace(char, plain)
    return text


def parse_ingredient(line: str) -> Tuple[Optional[Fraction], str, str, str]:
    """(amount, unit, name, note). A range like '2-3' takes its upper end; lines without a
    number ('salt to taste') have no amount. The note is what follows the first comma."""
    text = _replace_vulgar(line.strip().lstrip("-*").strip())
    text, _, note = text.partition(",")
    amount: Optional[Fraction] = None
    match = _AMOUNT.match(text)
    if match:
        amount = parse_amount(match.group("high") or match.group("low"))
        text = text[match.end() :]
    unit = ""
    words = text.split()
    for size in (2, 1):  # 'fl oz' before 'oz'
        found = lookup(" ".join(words[:size])) if len(words) >= size else None
        if found is not None and found.name:
            unit = found.name
            words = words[size:]
            break
    if words[:1] == ["of"]:
        words = words[1:]
    name = " ".join(words).lower()
    if name.endswith(" to taste"):
        name = name[: -len(" to taste")]
    return amount, unit, name, note.strip()


def format_amount(amount: Fraction, max_denominator: int = 8) -> str:
    """3/2 -> '1 1/2', 1/3 -> '1/3', 2 -> '2'; other fractions are rounded to eighths."""
    value = Fraction(amount).limit_denominator(max_denominator)
    whole, rest = divmod(value.numerator, value.denominator)
    if rest == 0:
        return str(whole)
    fraction = f"{rest}/{value.denominator}"
    return f"{whole} {fraction}" if whole else fraction
