from __future__ import annotations

import csv
import math
from collections import defaultdict
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

from .ledger import Warehouse

CENT = Decimal("0.01")
VALUATION_FIELDS = ["sku", "name", "on_hand", "value"]


def reorder_suggestions(warehouse: Warehouse) -> List[Tuple[str, int]]:
    """SKUs at or below their reorder level, with the quantity to order.

    The order brings stock back up to at least the reorder level, is never smaller than
    the item's reorder quantity, and is rounded up to whole cases.
    """
    suggestions = []
    for item in warehouse.items():
        if item.reorder_qty <= 0:
            continue
        on_hand = warehouse.on_hand(item.sku)
        if on_hand <= item.reorder_level:
            qty = max(item.reorder_qty, item.reorder_level - on_hand)
            cases = math.ceil(qty / item.case_size)
            suggestions.append((item.sku, cases * item.case_size))
    return suggestions


def valuation(warehouse: Warehouse) -> List[dict]:
    """One row per SKU with its stock value in cents, most valuable first."""
    rows = []
    for item in warehouse.items():
        value = warehouse.value(item.sku).quantize(CENT, rounding=ROUND_HALF_UP)
        rows.append(
            {
                "sku": item.sku,
                "name": item.name,
                "on_hand": warehouse.on_hand(item.sku),
                "value": value,
            }
        )
    rows.sort(key=lambda row: (-row["value"], row["sku"]))
    return rows


def write_valuation_csv(rows: List[dict], path: Union[str, Path]) -> Decimal:
    """Writes valuation rows to a CSV file with a total line; returns the total."""
    total = sum((row["value"] for row in rows), Decimal("0"))
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=VALUATION_FIELDS)
        writer.writeheader()
        writer.writerows(rows)
        writer.writerow({"sku": "TOTAL", "name": "", "on_hand": "", "value": total})
    return total


def daily_net(warehouse: Warehouse, sku: str, since: Optional[date] = None) -> Dict[date, int]:
    """Net quantity moved per day for one SKU, in date order."""
    totals: Dict[date, int] = defaultdict(int)
    for movement in warehouse.movements(sku, since):
        totals[movement.on] += movement.qty
    return dict(sorted(totals.items()))


def cost_of_goods_sold(warehouse: Warehouse, start: date, end: date) -> Decimal:
    """Cost of everything shipped from `start` to `end`, both days included."""
    total = Decimal("0")
    for movement in warehouse.movements(since=start):
        if movement.qty < 0 and movement.on <= end:
            total += movement.cost
    return total
