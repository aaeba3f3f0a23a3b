from datetime import date
from decimal import Decimal

import pytest

from stockroom import Item, Warehouse


@pytest.fixture
def items():
    return [
        Item("BOLT-M6", "Hex bolt M6", reorder_level=100, reorder_qty=250, case_size=40),
        Item("NUT-M6", "Hex nut M6", reorder_level=100, reorder_qty=200, case_size=100),
        Item("WASH-6", "Washer 6mm", reorder_level=0, reorder_qty=0),
        Item("GLUE", "Wood glue 250ml", unit="bottle", reorder_level=5, reorder_qty=12, case_size=6),
    ]


@pytest.fixture
def warehouse(items):
    return Warehouse(items)


@pytest.fixture
def stocked(warehouse):
    """Two receipts of bolts at different costs, one of nuts, one of glue."""
    warehouse.receive("BOLT-M6", 100, Decimal("0.10"), date(2024, 3, 1), ref="PO-1")
    warehouse.receive("BOLT-M6", 200, Decimal("0.12"), date(2024, 3, 8), ref="PO-2")
    warehouse.receive("NUT-M6", 150, Decimal("0.05"), date(2024, 3, 1), ref="PO-1")
    warehouse.receive("GLUE", 8, Decimal("3.40"), date(2024, 3, 2), ref="PO-3")
    return warehouse
