"""Invoice totals: discounts spread over the lines, tax per category, a printable summary."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Dict, Iterable, Optional

from .discounts import Coupon, total_discount
from .models import Invoice
from .money import ZERO, format_money, round_money
from .tax import TaxTable


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
