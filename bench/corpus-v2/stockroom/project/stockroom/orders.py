from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Dict, Iterable

from .ledger import Warehouse
from .models import InsufficientStock


@dataclass(frozen=True)
class OrderLine:
    sku: str
    qty: int


@dataclass
class Fulfilment:
    ref: str
    shipped: Dict[str, int] = field(default_factory=dict)
    backordered: Dict[str, int] = field(default_factory=dict)
    cost: Decimal = Decimal("0")

    @property
    def complete(self) -> bool:
        return not self.backordered


def merge_lines(lines: Iterable[OrderLine]) -> Dict[str, int]:
    """Adds up lines for the same SKU, keeping the order in which SKUs first appear."""
    totals: Dict[str, int] = {}
    for line in lines:
        if line.qty <= 0:
            raise ValueError(f"order line for {line.sku} has quantity {line.qty}")
        totals[line.sku] = totals.get(line.sku, 0) + line.qty
    return totals


def fulfil(
    warehouse: Warehouse,
    lines: Iterable[OrderLine],
    on: date,
    ref: str,
    allow_partial: bool = True,
) -> Fulfilment:
    """Ships an order from stock.

    With `allow_partial`, whatever is on hand is shipped and the rest is backordered;
    without it, the order is shipped whole or not at all (InsufficientStock).
    """
    wanted = merge_lines(lines)
    if not allow_partial:
        for sku, qty in wanted.items():
            available = warehouse.on_hand(sku)
            if available < qty:
                raise InsufficientStock(sku, qty, available)

    result = Fulfilment(ref)
    for sku, qty in wanted.items():
        try:
            result.cost += warehouse.ship(sku, qty, on, ref)
            result.shipped[sku] = qty
        except InsufficientStock as short:
            if short.available > 0:
                result.cost += warehouse.ship(sku, short.available, on, ref)
                result.shipped[sku] = short.available
            result.backordered[sku] = qty - short.available
    return result
