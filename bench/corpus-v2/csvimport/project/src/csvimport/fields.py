"""Field definitions and the converters from text to typed values."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Dict, Optional, Tuple

TRUE_WORDS = {"true", "yes", "y", "1", "on"}
FALSE_WORDS = {"false", "no", "n", "0", "off"}
DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y")


class ConversionError(ValueError):
    pass


def parse_int(text: str) -> int:
    """Whole numbers, with optional thousands separators: "1,200" or "1 200"."""
    digits = text.replace(",", "").replace(" ", "")
    if not re.fullmatch(r"[+-]?\d+", digits):
        raise ConversionError(f"not a whole number: {text!r}")
    return int(digits)


def parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in TRUE_WORDS:
        return True
    if lowered in FALSE_WORDS:
        return False
    raise ConversionError(f"not a yes/no value: {text!r}")


def parse_date(text: str) -> date:
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ConversionError(f"not a date (YYYY-MM-DD or DD/MM/YYYY): {text!r}")


def parse_decimal(text: str) -> Decimal:
    """Numbers with an optional fraction and thousands separators: "1,234.50"."""
    digits = text.replace(",", "").replace(" ", "")
    try:
        value = Decimal(digits)
    except InvalidOperation:
        raise ConversionError(f"not a number: {text!r}") from None
    if not value.is_finite():
        raise ConversionError(f"not a number: {text!r}")
    return value


CONVERTERS: Dict[str, Callable[[str], Any]] = {
    "str": str,
    "int": parse_int,
    "decimal": parse_decimal,
    "bool": parse_bool,
    "date": parse_date,
}


@dataclass(frozen=True)
class Field:
    name: str
    type: str = "str"
    required: bool = False
    default: Any = None
    choices: Tuple[Any, ...] = ()
    minimum: Optional[Any] = None
    maximum: Optional[Any] = None
    aliases: Tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.type not in CONVERTERS:
            raise ValueError(f"field {self.name!r} has unknown type {self.type!r}")

    def convert(self, text: str) -> Any:
        """Typed value of one cell; ConversionError says what is wrong with it."""
        text = text.strip()
        if not text:
            if self.required:
                raise ConversionError("is required")
            return self.default
        value = CONVERTERS[self.type](text)
        if self.choices and value not in self.choices:
            raise ConversionError(f"must be one of {', '.join(map(str, self.choices))}, not {text!r}")
        if self.minimum is not None and value < self.minimum:
            raise ConversionError(f"must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise ConversionError(f"must be at most {self.maximum}")
        return value
