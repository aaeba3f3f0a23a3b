from __future__ import annotations

from collections import deque
from datetime import date
from decimal import Decimal
from typing import Deque, Dict, Iterable, List, Optional

from .models import InsufficientStock, Item, Lot, Movement, UnknownSku


class Warehouse:
    """On-hand stock per SKU, kept as FIFO lots, with a movement journal."""

    def __init__(self, items: Iterable[Item] = ()) -> None:
        self._items: Dict[str, Item] = {}
        self._lots: Dict[str, Deque[Lot]] = {}
        self._journal: List[Movement] = []
        for item in items:
            self.add_item(item)

    def add_item(self, item: Item) -> None:
        if item.sku in self._items:
            raise ValueError(f"duplicate SKU {item.sku!r}")
        self._items[item.sku] = item
        self._lots[item.sku] = deque()

    def item(self, sku: str) -> Item:
        try:
            return self._items[sku]
        except KeyError:
            raise UnknownSku(sku) from None

    def items(self) -> List[Item]:
        return sorted(self._items.values(), key=lambda item: item.sku)

    def on_hand(self, sku: str) -> int:
        self.item(sku)
        return sum(lot.qty for lot in self._lots[sku])

    def value(self, sku: Optional[str] = None) -> Decimal:
        """Stock value at cost, for one SKU or for the whole warehouse."""
        skus = [sku] if sku is not None else list(self._items)
        total = Decimal("0")
        for code in skus:
            self.item(code)
            for lot in self._lots[code]:
                total += lot.unit_cost * lot.qty
        return total

    def receive(self, sku: str, qty: int, unit_cost: Decimal, on: date, ref: str = "") -> None:
        self.item(sku)
        if qty <= 0:
            raise ValueError(f"received quantity must be positive, got {qty}")
        unit_cost = Decimal(unit_cost)
        self._lots[sku].append(Lot(qty, unit_cost, on))
        self._journal.append(Movement(sku, qty, on, unit_cost * qty, ref))

    def ship(self, sku: str, qty: int, on: date, ref: str = "") -> Decimal:
        """Take `qty` units out, oldest lots first; returns the cost of the goods shipped."""
        available = self.on_hand(sku)
        if qty <= 0:
            raise ValueError(f"shipped quantity must be positive, got {qty}")
        if qty > available:
            raise InsufficientStock(sku, qty, available)
        lots = self._lots[sku]
        remaining = qty
        cost = Decimal("0")
        while remaining > 0:
            lot = lots[0]
            take = min(lot.qty, remaining)
            lot.qty -= take
            remaining -= take
            cost += lot.unit_cost * take
            if lot.qty == 0:
                lots.popleft()
        self._journal.append(Movement(sku, -qty, on, cost, ref))
        return cost

    def count(self, sku: str, counted: int, on: date) -> int:
        """Books a stock count: the difference to the books is received or written off.

        Surplus is received at the cost of the newest lot. Returns the difference.
        """
        if counted < 0:
            raise ValueError("a count cannot be negative")
        difference = counted - self.on_hand(sku)
        if difference > 0:
            lots = self._lots[sku]
            cost = lots[-1].unit_cost if lots else self._last_cost(sku)
            self.receive(sku, difference, cost, on, ref="count")
        elif difference < 0:
            self.ship(sku, -difference, on, ref="count")
        return difference

    def _last_cost(self, sku: str) -> Decimal:
        for movement in reversed(self._journal):
            if movement.sku == sku and movement.qty > 0:
                return movement.cost / movement.qty
        return Decimal("0")

    def movements(self, sku: Optional[str] = None, since: Optional[date] = None) -> List[Movement]:
        return [
            m
            for m in self._journal
            if (sku is None or m.sku == sku) and (since is None or m.on >= since)
        ]
