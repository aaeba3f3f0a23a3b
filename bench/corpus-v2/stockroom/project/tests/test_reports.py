import csv
from datetime import date
from decimal import Decimal

from stockroom import Item, Warehouse
from stockroom.reports import (
    cost_of_goods_sold,
    daily_net,
    reorder_suggestions,
    valuation,
    write_valuation_csv,
)


def test_reorder_rounds_up_to_whole_cases(stocked):
    stocked.ship("BOLT-M6", 230, date(2024, 3, 15))
    stocked.ship("GLUE", 3, date(2024, 3, 15))
    assert reorder_suggestions(stocked) == [("BOLT-M6", 280), ("GLUE", 12)]


def test_reorder_ignores_items_without_reorder_quantity(warehouse):
    suggestions = dict(reorder_suggestions(warehouse))
    assert "WASH-6" not in suggestions
    assert suggestions["NUT-M6"] == 200


def test_valuation_sorted_by_value(stocked):
    rows = valuation(stocked)
    assert [row["sku"] for row in rows] == ["BOLT-M6", "GLUE", "NUT-M6", "WASH-6"]
    assert rows[0]["value"] == Decimal("34.00")


def test_valuation_rounds_half_cents_up():
    warehouse = Warehouse([Item("PIN", "Dowel pin")])
    warehouse.receive("PIN", 3, Decimal("0.335"), date(2024, 1, 5))
    assert valuation(warehouse)[0]["value"] == Decimal("1.01")


def test_valuation_csv_has_total_line(stocked, tmp_path):
    path = tmp_path / "valuation.csv"
    total = write_valuation_csv(valuation(stocked), path)
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert total == Decimal("68.70")
    assert rows[-1] == {"sku": "TOTAL", "name": "", "on_hand": "", "value": "68.70"}


def test_daily_net_adds_up_each_day(stocked):
    stocked.ship("NUT-M6", 40, date(2024, 3, 5))
    stocked.ship("NUT-M6", 10, date(2024, 3, 5))
    assert daily_net(stocked, "NUT-M6") == {date(2024, 3, 1): 150, date(2024, 3, 5): -50}


def test_cost_of_goods_sold_in_period(stocked):
    stocked.ship("NUT-M6", 40, date(2024, 3, 5))
    stocked.ship("NUT-M6", 10, date(2024, 3, 20))
    assert cost_of_goods_sold(stocked, date(2024, 3, 1), date(2024, 3, 10)) == Decimal("2.00")
