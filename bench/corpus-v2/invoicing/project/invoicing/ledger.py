"""Issued invoices, the payments against them, and the accounts-receivable reports."""
from __future__ import annotations

import csv
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Dict, Iterable, List, Optional

from .billing import Summary, TaxTable, summarize
from .models import Invoice
from .money import ZERO, round_money

AGING_BUCKETS = (("current", 0), ("1-30", 30), ("31-60", 60), ("61-90", 90))
OVER_90 = "90+"


class Ledger:
    def __init__(self, table: TaxTable, invoices: Optional[Iterable[Invoice]] = None):
        self.table = table
        self.invoices: List[Invoice] = []
        self.payments: Dict[str, Decimal] = {}
        for invoice in invoices or ():
            self.add(invoice)

    def add(self, invoice: Invoice) -> None:
        if any(existing.number == invoice.number for existing in self.invoices):
            raise ValueError(f"duplicate invoice number {invoice.number}")
        self.invoices.append(invoice)

    def get(self, number: str) -> Invoice:
        for invoice in self.invoices:
            if invoice.number == number:
                return invoice
        raise KeyError(number)

    def summary(self, number: str) -> Summary:
        return summarize(self.get(number), self.table)

    def record_payment(self, number: str, amount) -> Decimal:
        """Books a payment and returns what is still owed (negative: overpaid)."""
        self.get(number)
        self.payments[number] = self.payments.get(number, ZERO) + round_money(amount)
        return self.balance(number)

    def balance(self, number: str) -> Decimal:
        return self.summary(number).total - self.payments.get(number, ZERO)

    def open_invoices(self) -> List[Invoice]:
        return [invoice for invoice in self.invoices if self.balance(invoice.number) > 0]

    def aging(self, today: date) -> Dict[str, Decimal]:
        """Open balances by how many days past due they are."""
        buckets = {name: ZERO for name, _ in AGING_BUCKETS}
        buckets[OVER_90] = ZERO
        for invoice in self.open_invoices():
            late = invoice.days_overdue(today)
            for name, limit in AGING_BUCKETS:
                if late <= limit:
                    buckets[name] += self.balance(invoice.number)
                    break
            else:
                buckets[OVER_90] += self.balance(invoice.number)
        return buckets

    def export_csv(self, path) -> int:
        """One row per invoice; returns the number of rows written."""
        fields = ["number", "customer", "issued", "due", "total", "paid", "balance"]
        rows = []
        for invoice in self.invoices:
            total = self.summary(invoice.number).total
            paid = self.payments.get(invoice.number, ZERO)
            rows.append(
                {
                    "number": invoice.number,
                    "customer": invoice.customer.id,
                    "issued": invoice.issued.isoformat(),
                    "due": invoice.due.isoformat(),
                    "total": f"{total:.2f}",
                    "paid": f"{paid:.2f}",
                    "balance": f"{total - paid:.2f}",
                }
            )
        with Path(path).open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
        return len(rows)
