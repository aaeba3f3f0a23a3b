"""Tax rates by jurisdiction, invoice totals with discounts and taxes, the printed invoice."""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Dict, Iterable, Optional

from .discounts import Coupon, total_discount
from .models import Customer, Invoice
from .money import ZERO, format_money, round_money

DEFAULT_RATES: Dict[str, Dict[str, str]] = {
    "US-CA": {"standard": "0.0725", "food": "0"},
    "US-NY": {"standard": "0.04", "food": "0"},
    "US-OR": {"standard": "0"},
    "DE": {"standard": "0.19", "reduced": "0.07"},
    "FR": {"standard": "0.20", "reduced": "0.055"},
    "GB": {"standard": "0.20", "reduced": "0.05", "food": "0"},
}


class UnknownRegion(LookupError):
    """No rates are known for a customer's country/region."""


class TaxTable:
    def __init__(self, rates: Optional[Dict[str, Dict[str, str]]] = None):
        source = DEFAULT_RATES if rates is None else rates
        self._rates = {
            place: {category: Decimal(str(rate)) for category, rate in categories.items()}
            for place, categories in source.items()
        }

    @classmethod
    def from_json(cls, path) -> "TaxTable":
        return cls(json.loads(Path(path).read_text(encoding="utf-8")))

    def jurisdiction(self, customer: Customer) -> str:
        """'US-CA' when the region has its own rates, else the country."""
        if customer.region:
            key = f"{customer.country}-{customer.region}"
            if key in self._rates:
                return key
        if customer.country in self._rates:
            return customer.country
        where = f"{customer.country} {customer.region}".strip()
        raise UnknownRegion(f"no tax rates for {where}")

    def rate(self, customer: Customer, category: str) -> Decimal:
        """The rate for one product category; categories without their own rate pay the standard one."""
        if customer.tax_exempt:
            return Decimal("0")
        rates = self._rates[self.jurisdiction(customer)]
        return rates.get(category, rates["standard"])


@dataclass(frozen=True)
class Summary:
    subtotal: Decimal
    discount: Decimal
    taxes: Dict[str, Decimal] = field(default_factory=dict)

    @property
    def tax(self) -> Decimal:
        return sum(self.taxes.values(), ZERO)

    @property
    def total(self) -> Decimal:
        return self.subtotal - self.discount + self.tax


def summarize(
    invoice: Invoice,
    table: TaxTable,
    coupons: Iterable[Coupon] = (),
    today: Optional[date] = None,
) -> Summary:
    """Totals of `invoice`. The discount is shared among the tax categories in proportion
    to their amounts, so each category is taxed on what the customer actually pays."""
    subtotal = invoice.subtotal
    if subtotal == 0:
        # nothing charged (an empty draft, free replacement parts): no discount, no tax
        return Summary(ZERO, ZERO, {})
    discount = total_discount(subtotal, coupons, today or invoice.issued)
    by_category: Dict[str, Decimal] = defaultdict(lambda: ZERO)
    for item in invoice.items:
        by_category[item.category] += item.amount
    taxes: Dict[str, Decimal] = {}
    for category, amount in sorted(by_category.items()):
        taxable = amount - discount * amount / subtotal
        rate = table.rate(invoice.customer, category)
        if rate:
            taxes[category] = round_money(taxable * rate)
    return Summary(subtotal, discount, taxes)


def render_text(invoice: Invoice, summary: Summary) -> str:
    """A plain-text invoice, one line per item and per total."""
    money = lambda value: format_money(value, invoice.currency)  # noqa: E731
    lines = [
        f"Invoice {invoice.number}",
        f"Customer: {invoice.customer.name}",
        f"Issued: {invoice.issued.isoformat()}  Due: {invoice.due.isoformat()}",
        "",
    ]
    for item in invoice.items:
        lines.append(f"{item.quantity:>4} x {item.description:<30} {money(item.amount):>12}")
    lines.append("")
    lines.append(f"{'Subtotal':<37} {money(summary.subtotal):>12}")
    if summary.discount:
        lines.append(f"{'Discount':<37} {money(-summary.discount):>12}")
    for category, tax in summary.taxes.items():
        lines.append(f"{'Tax (' + category + ')':<37} {money(tax):>12}")
    lines.append(f"{'Total':<37} {money(summary.total):>12}")
    return "\n".join(lines)
