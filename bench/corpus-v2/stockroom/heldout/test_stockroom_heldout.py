from datetime import date
from decimal import Decimal

import pytest

from stockroom import InsufficientStock, Item, OrderLine, Warehouse, fulfil
from stockroom.reports import cost_of_goods_sold, reorder_suggestions, valuation


def three_lots():
    warehouse = Warehouse([Item("CLIP", "Paper clip", reorder_level=10, reorder_qty=20, case_size=20)])
    warehouse.receive("CLIP", 10, Decimal("1.00"), date(2024, 1, 1))
    warehouse.receive("CLIP", 10, Decimal("2.00"), date(2024, 1, 2))
    warehouse.receive("CLIP", 10, Decimal("3.00"), date(2024, 1, 3))
    return warehouse


def test_fifo_exhausts_oldest_lots_in_order():
    warehouse = three_lots()
    assert warehouse.ship("CLIP", 10, date(2024, 1, 4)) == Decimal("10.00")
    assert warehouse.ship("CLIP", 5, date(2024, 1, 4)) == Decimal("10.00")
    assert warehouse.value("CLIP") == Decimal("40.00")
    assert warehouse.ship("CLIP", 15, date(2024, 1, 5)) == Decimal("40.00")
    assert warehouse.on_hand("CLIP") == 0


def test_ship_more_than_on_hand_raises_insufficient_stock():
    warehouse = three_lots()
    with pytest.raises(InsufficientStock) as info:
        warehouse.ship("CLIP", 31, date(2024, 1, 4))
    assert (info.value.requested, info.value.available) == (31, 30)
    assert warehouse.on_hand("CLIP") == 30


def test_partial_fulfilment_with_nothing_on_hand():
    warehouse = three_lots()
    warehouse.ship("CLIP", 30, date(2024, 1, 4))
    result = fulfil(warehouse, [OrderLine("CLIP", 4)], date(2024, 1, 5), "SO-9")
    assert result.shipped == {}
    assert result.backordered == {"CLIP": 4}
    assert result.cost == Decimal("0")


def test_partial_fulfilment_cost_counts_only_shipped_units():
    warehouse = three_lots()
    result = fulfil(warehouse, [OrderLine("CLIP", 25), OrderLine("CLIP", 10)], date(2024, 1, 5), "SO-10")
    assert result.shipped == {"CLIP": 30}
    assert result.backordered == {"CLIP": 5}
    assert result.cost == Decimal("60.00")


@pytest.mark.parametrize(
    "qty, cost, expected",
    [(1, "0.125", "0.13"), (1, "0.135", "0.14"), (7, "0.0150", "0.11"), (2, "1.2225", "2.45")],
)
def test_valuation_rounds_half_up(qty, cost, expected):
    warehouse = Warehouse([Item("X", "x")])
    warehouse.receive("X", qty, Decimal(cost), date(2024, 1, 1))
    assert valuation(warehouse)[0]["value"] == Decimal(expected)


def test_reorder_exactly_at_level():
    warehouse = three_lots()
    warehouse.ship("CLIP", 20, date(2024, 1, 4))
    assert reorder_suggestions(warehouse) == [("CLIP", 20)]


def test_reorder_covers_shortfall_larger_than_reorder_quantity():
    warehouse = Warehouse([Item("TAPE", "Tape", reorder_level=90, reorder_qty=30, case_size=25)])
    warehouse.receive("TAPE", 5, Decimal("1"), date(2024, 1, 1))
    assert reorder_suggestions(warehouse) == [("TAPE", 100)]


def test_cost_of_goods_sold_includes_last_day():
    warehouse = three_lots()
    warehouse.ship("CLIP", 12, date(2024, 1, 10))
    assert cost_of_goods_sold(warehouse, date(2024, 1, 1), date(2024, 1, 10)) == Decimal("14.00")
