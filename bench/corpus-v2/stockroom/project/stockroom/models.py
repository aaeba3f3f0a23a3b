from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal


class StockError(Exception):
    """Base class of the errors the warehouse raises."""


class UnknownSku(StockError):
    def __init__(self, sku: str) -> None:
        super().__init__(f"unknown SKU {sku!r}")
        self.sku = sku


class InsufficientStock(StockError):
    def __init__(self, sku: str, requested: int, available: int) -> None:
        super().__init__(f"cannot take {requested} of {sku}: only {available} on hand")
        self.sku = sku
        self.requested = requested
        self.available = available


@dataclass(frozen=True)
class Item:
    sku: str
    name: str
    unit: str = "ea"
    reorder_level: int = 0
    reorder_qty: int = 0
    case_size: int = 1


@dataclass
class Lot:
    """Units received together at one cost; shipments consume the oldest lot first."""

    qty: int
    unit_cost: Decimal
    received: date


@dataclass(frozen=True)
class Movement:
    sku: str
    qty: int  # positive for receipts, negative for shipments
    on: date
    cost: Decimal
    ref: str = ""
