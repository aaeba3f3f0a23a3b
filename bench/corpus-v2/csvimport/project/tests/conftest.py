from datetime import date
from decimal import Decimal

import pytest

from csvimport import Field, Schema


@pytest.fixture
def schema():
    return Schema(
        [
            Field("sku", required=True, aliases=("Item code",)),
            Field("name", required=True),
            Field("qty", "int", required=True, minimum=0, aliases=("Quantity",)),
            Field("price", "decimal", minimum=Decimal("0"), aliases=("Unit Price (EUR)",)),
            Field("active", "bool", default=True),
            Field("category", choices=("tools", "garden", "paint"), default="tools"),
            Field("added", "date", default=date(2024, 1, 1)),
        ]
    )


@pytest.fixture
def write(tmp_path):
    """Writes text to a file in tmp_path and returns its path."""

    def write(name, text):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write
