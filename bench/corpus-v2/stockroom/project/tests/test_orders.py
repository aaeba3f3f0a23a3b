from datetime import date
from decimal import Decimal

import pytest

from stockroom import InsufficientStock, OrderLine, fulfil

DAY = date(2024, 3, 12)


def test_order_shipped_in_full(stocked):
    result = fulfil(stocked, [OrderLine("BOLT-M6", 50), OrderLine("NUT-M6", 50)], DAY, "SO-1")
    assert result.complete
    assert result.shipped == {"BOLT-M6": 50, "NUT-M6": 50}
    assert result.cost == Decimal("5.00") + Decimal("2.50")


def test_lines_for_the_same_sku_are_merged(stocked):
    result = fulfil(stocked, [OrderLine("NUT-M6", 20), OrderLine("NUT-M6", 30)], DAY, "SO-2")
    assert result.shipped == {"NUT-M6": 50}
    assert len(stocked.movements("NUT-M6")) == 2


def test_short_line_is_partly_backordered(stocked):
    result = fulfil(stocked, [OrderLine("GLUE", 10), OrderLine("NUT-M6", 10)], DAY, "SO-3")
    assert not result.complete
    assert result.shipped == {"GLUE": 8, "NUT-M6": 10}
    assert result.backordered == {"GLUE": 2}
    assert stocked.on_hand("GLUE") == 0


def test_all_or_nothing_order_ships_nothing_when_short(stocked):
    with pytest.raises(InsufficientStock):
        fulfil(stocked, [OrderLine("NUT-M6", 10), OrderLine("GLUE", 10)], DAY, "SO-4", allow_partial=False)
    assert stocked.on_hand("NUT-M6") == 150


def test_zero_quantity_line_is_rejected(stocked):
    with pytest.raises(ValueError):
        fulfil(stocked, [OrderLine("NUT-M6", 0)], DAY, "SO-5")
