"""Reading CSV and JSON files through a schema."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .schema import RowError, Schema, SchemaError

Record = Tuple[int, Dict[str, str]]  # line (or record number), raw text by field name


@dataclass
class ImportResult:
    rows: List[Dict[str, Any]] = field(default_factory=list)
    errors: List[RowError] = field(default_factory=list)
    rejected_lines: List[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


class ImportAborted(Exception):
    def __init__(self, result: ImportResult) -> None:
        super().__init__(f"import stopped after {len(result.errors)} errors")
        self.result = result


def drop_duplicates(
    rows: List[Tuple[int, Dict[str, Any]]], unique: Sequence[str]
) -> Tuple[List[Tuple[int, Dict[str, Any]]], List[RowError]]:
    """Keeps the first row for each value of the `unique` fields; later ones are errors."""
    first_line: Dict[Tuple[Any, ...], int] = {}
    kept = []
    errors = []
    for line, row in rows:
        key = tuple(row[name] for name in unique)
        if key in first_line:
            errors.append(RowError(line, "+".join(unique), f"duplicates line {first_line[key]}"))
            continue
        first_line[key] = line
        kept.append((line, row))
    return kept, errors


def _process(
    records: Iterable[Record], schema: Schema, unique: Sequence[str], max_errors: Optional[int]
) -> ImportResult:
    result = ImportResult()
    converted = []
    for line, values in records:
        row, errors = schema.convert_row(values, line)
        if errors:
            result.errors.extend(errors)
            result.rejected_lines.append(line)
            if max_errors is not None and len(result.errors) >= max_errors:
                raise ImportAborted(result)
        else:
            converted.append((line, row))
    if unique:
        converted, duplicates = drop_duplicates(converted, unique)
        result.errors.extend(duplicates)
        result.rejected_lines.extend(error.line for error in duplicates)
    result.rows = [row for _, row in converted]
    result.errors.sort(key=lambda error: error.line)
    result.rejected_lines.sort()
    return result


def import_csv(
    path: Union[str, Path],
    schema: Schema,
    delimiter: str = ",",
    unique: Sequence[str] = (),
    max_errors: Optional[int] = None,
) -> ImportResult:
    """Imports a CSV file with a header row. Blank lines are skipped."""
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle, delimiter=delimiter)
        header = next(reader, None)
        if header is None:
            raise SchemaError(f"{path} is empty")
        positions = schema.map_columns(header)
        records = []
        for line, cells in enumerate(reader, start=2):  # line 1 is the header
            if not any(cell.strip() for cell in cells):
                continue
            values = {name: cells[index] if index < len(cells) else "" for name, index in positions.items()}
            records.append((line, values))
    return _process(records, schema, unique, max_errors)


def import_json(
    path: Union[str, Path],
    schema: Schema,
    unique: Sequence[str] = (),
    max_errors: Optional[int] = None,
) -> ImportResult:
    """Imports a JSON array of objects; errors are numbered by record, from 1."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise SchemaError(f"{path} must hold a JSON array of objects")
    records = []
    for number, item in enumerate(data, start=1):
        values = {}
        for key, value in item.items():
            target = schema.lookup(key)
            if target is not None:
                values[target.name] = "" if value is None else _json_text(value)
        records.append((number, values))
    return _process(records, schema, unique, max_errors)


def _json_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
