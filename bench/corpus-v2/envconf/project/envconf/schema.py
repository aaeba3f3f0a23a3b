"""Settings declarations and the conversions from environment strings to Python values."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

REQUIRED: Any = object()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}

_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)")
_DURATION_UNITS = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$")
_SIZE_UNITS = {"": 1, "B": 1, "KB": 1000, "MB": 1000**2, "GB": 1000**3, "KIB": 1024, "MIB": 1024**2, "GIB": 1024**3}


def to_bool(raw: str) -> bool:
    word = raw.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError(f"not a boolean: {raw!r}")


def to_int(raw: str) -> int:
    return int(raw.strip().replace("_", ""))


def to_list(raw: str) -> List[str]:
    return [part.strip() for part in raw.split(",") if part.strip()]


def to_duration(raw: str) -> timedelta:
    """'90' (seconds), '1h30m', '250ms', '2d'."""
    text = raw.strip().lower()
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return timedelta(seconds=float(text))
    parts = _DURATION_PART.findall(text)
    if not parts or "".join(number + unit for number, unit in parts) != text:
        raise ValueError(f"not a duration: {raw!r}")
    return timedelta(seconds=sum(float(number) * _DURATION_UNITS[unit] for number, unit in parts))


def to_size(raw: str) -> int:
    """Bytes from '512', '10MB' (decimal) or '4KiB' (binary)."""
    match = _SIZE.match(raw)
    if match is None:
        raise ValueError(f"not a size: {raw!r}")
    number, unit = match.groups()
    try:
        multiplier = _SIZE_UNITS[unit.upper()]
    except KeyError:
        raise ValueError(f"unknown size unit {unit!r} in {raw!r}") from None
    return int(float(number) * multiplier)


CONVERTERS: Dict[str, Callable[[str], Any]] = {
    "str": str,
    "int": to_int,
    "float": float,
    "bool": to_bool,
    "list": to_list,
    "duration": to_duration,
    "size": to_size,
}


@dataclass
class Field:
    name: str
    type: str = "str"
    default: Any = REQUIRED
    choices: Optional[Sequence[Any]] = None
    secret: bool = False
    help: str = ""

    def __post_init__(self) -> None:
        if self.type not in CONVERTERS:
            raise ValueError(f"{self.name}: unknown type {self.type!r}")

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def convert(self, raw: str) -> Any:
        value = CONVERTERS[self.type](raw)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(choice) for choice in self.choices)
            raise ValueError(f"{value!r} is not one of {allowed}")
        return value


@dataclass
class Schema:
    fields: List[Field] = field(default_factory=list)

    def __post_init__(self) -> None:
        names = [f.name for f in self.fields]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"duplicate fields: {', '.join(duplicates)}")

    @classmethod
    def of(cls, *fields: Field) -> "Schema":
        return cls(list(fields))

    def __iter__(self):
        return iter(self.fields)

    def names(self) -> Iterable[str]:
        return (f.name for f in self.fields)
