"""Typed, validated import of CSV and JSON records."""

from .fields import ConversionError, Field
from .loader import ImportAborted, ImportResult, RowError, import_csv, import_json
from .schema import Schema, SchemaError

__all__ = [
    "ConversionError",
    "Field",
    "ImportAborted",
    "ImportResult",
    "RowError",
    "Schema",
    "SchemaError",
    "import_csv",
    "import_json",
]
