"""The invoice data model."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import List

from .money import ZERO, round_money, to_decimal


@dataclass
class Customer:
    id: str
    name: str
    country: str
    region: str = ""
    tax_exempt: bool = False


@dataclass
class LineItem:
    sku: str
    description: str
    quantity: int
    unit_price: Decimal
    category: str = "standard"

    @property
    def amount(self) -> Decimal:
        return round_money(self.unit_price * self.quantity)


@dataclass
class Invoice:
    number: str
    customer: Customer
    issued: date
    terms_days: int = 30
    currency: str = "USD"
    items: List[LineItem] = field(default_factory=list)

    def add(self, sku: str, description: str, quantity: int, unit_price, category: str = "standard") -> LineItem:
        """Adds a line; the same SKU at the same price is merged into the existing line."""
        if quantity <= 0:
            raise ValueError(f"quantity must be positive, got {quantity}")
        price = to_decimal(unit_price)
        for item in self.items:
            if item.sku == sku and item.unit_price == price:
                item.quantity += quantity
                return item
        item = LineItem(sku, description, quantity, price, category)
        self.items.append(item)
        return item

    @property
    def subtotal(self) -> Decimal:
        return sum((item.amount for item in self.items), ZERO)

    @property
    def due(self) -> date:
        return self.issued + timedelta(days=self.terms_days)

    def days_overdue(self, today: date) -> int:
        return max(0, (today - self.due).days)
