"""A schema: the fields of a record, how file columns map to them, row conversion."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .fields import ConversionError, Field


class SchemaError(Exception):
    pass


@dataclass(frozen=True)
class RowError:
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.field} {self.message}"


def normalize_header(name: str) -> str:
    """"Unit Price (EUR)" -> "unit_price_eur"."""
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")


class Schema:
    def __init__(self, fields: Iterable[Field]) -> None:
        self.fields: List[Field] = list(fields)
        self._by_header: Dict[str, Field] = {}
        for field in self.fields:
            for name in (field.name, *field.aliases):
                key = normalize_header(name)
                if key in self._by_header:
                    raise SchemaError(f"column name {name!r} is used twice")
                self._by_header[key] = field

    @classmethod
    def from_dict(cls, spec: Mapping[str, Any]) -> "Schema":
        """{"fields": [{"name": "qty", "type": "int", "required": true, "aliases": ["Quantity"]}]}"""
        fields = []
        for entry in spec["fields"]:
            options = dict(entry)
            name = options.pop("name")
            for key in ("choices", "aliases"):
                if key in options:
                    options[key] = tuple(options[key])
            fields.append(Field(name, **options))
        return cls(fields)

    def lookup(self, column: str) -> Optional[Field]:
        return self._by_header.get(normalize_header(column))

    def map_columns(self, header: Sequence[str]) -> Dict[str, int]:
        """Position of each field's column in a header row; unknown columns are ignored."""
        positions: Dict[str, int] = {}
        for index, column in enumerate(header):
            field = self.lookup(column)
            if field is None:
                continue
            if field.name in positions:
                raise SchemaError(f"columns {header[positions[field.name]]!r} and {column!r} are both {field.name}")
            positions[field.name] = index
        missing = [field.name for field in self.fields if field.required and field.name not in positions]
        if missing:
            raise SchemaError(f"missing required columns: {', '.join(missing)}")
        return positions

    def convert_row(self, values: Mapping[str, str], line: int) -> Tuple[Dict[str, Any], List[RowError]]:
        row: Dict[str, Any] = {}
        errors: List[RowError] = []
        for field in self.fields:
            try:
                row[field.name] = field.convert(values.get(field.name, ""))
            except ConversionError as error:
                errors.append(RowError(line, field.name, str(error)))
        return row, errors
