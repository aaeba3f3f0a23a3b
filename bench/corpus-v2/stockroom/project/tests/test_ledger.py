from datetime import date
from decimal import Decimal

import pytest

from stockroom import Item, UnknownSku, Warehouse


def test_receive_adds_to_on_hand(warehouse):
    warehouse.receive("WASH-6", 40, Decimal("0.02"), date(2024, 3, 1))
    warehouse.receive("WASH-6", 10, Decimal("0.02"), date(2024, 3, 2))
    assert warehouse.on_hand("WASH-6") == 50


def test_value_of_whole_warehouse(stocked):
    assert stocked.value() == Decimal("10.00") + Decimal("24.00") + Decimal("7.50") + Decimal("27.20")


def test_ship_within_first_lot_costs_first_price(stocked):
    cost = stocked.ship("BOLT-M6", 60, date(2024, 3, 10))
    assert cost == Decimal("6.00")
    assert stocked.on_hand("BOLT-M6") == 240


def test_ship_across_lots_uses_oldest_first(stocked):
    cost = stocked.ship("BOLT-M6", 150, date(2024, 3, 10))
    assert cost == Decimal("10.00") + Decimal("6.00")
    assert stocked.value("BOLT-M6") == Decimal("18.00")


def test_ship_rejects_non_positive_quantity(stocked):
    with pytest.raises(ValueError):
        stocked.ship("NUT-M6", 0, date(2024, 3, 10))


def test_unknown_sku_is_reported(warehouse):
    with pytest.raises(UnknownSku) as info:
        warehouse.on_hand("SCREW-4")
    assert info.value.sku == "SCREW-4"


def test_duplicate_items_are_rejected():
    with pytest.raises(ValueError):
        Warehouse([Item("A", "first"), Item("A", "second")])


def test_count_writes_off_missing_units(stocked):
    difference = stocked.count("GLUE", 6, date(2024, 3, 31))
    assert difference == -2
    assert stocked.on_hand("GLUE") == 6
    assert stocked.movements("GLUE")[-1].ref == "count"


def test_count_receives_surplus_at_newest_cost(stocked):
    stocked.count("BOLT-M6", 310, date(2024, 3, 31))
    assert stocked.on_hand("BOLT-M6") == 310
    assert stocked.value("BOLT-M6") == Decimal("10.00") + Decimal("24.00") + Decimal("1.20")


def test_movements_since_a_day(stocked):
    refs = [m.ref for m in stocked.movements(since=date(2024, 3, 2))]
    assert refs == ["PO-2", "PO-3"]
