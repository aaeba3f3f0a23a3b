import csv
from datetime import date
from decimal import Decimal

import pytest

from invoicing import Ledger


@pytest.fixture
def ledger(table, make_invoice, office_order):
    small = make_invoice("INV-101", issued=date(2024, 1, 2))
    small.add("PEN-10", "Pens", 1, "10.00")
    return Ledger(table, [office_order, small])


def test_duplicate_numbers_are_refused(ledger, make_invoice):
    with pytest.raises(ValueError, match="INV-101"):
        ledger.add(make_invoice("INV-101"))


def test_payments_reduce_the_balance(ledger):
    assert ledger.balance("INV-100") == Decimal("86.62")
    assert ledger.record_payment("INV-100", "50") == Decimal("36.62")
    assert ledger.record_payment("INV-100", 36.62) == 0
    assert [i.number for i in ledger.open_invoices()] == ["INV-101"]


def test_unknown_invoice(ledger):
    with pytest.raises(KeyError):
        ledger.record_payment("INV-999", 10)


def test_replacement_invoice_is_not_open(ledger, make_invoice):
    replacement = make_invoice("INV-102")
    replacement.add("PEN-10", "Pens (replacement, no charge)", 2, "0")
    ledger.add(replacement)
    assert ledger.balance("INV-102") == 0
    assert [i.number for i in ledger.open_invoices()] == ["INV-100", "INV-101"]


def test_aging(ledger):
    # INV-101 was due 2024-02-01, INV-100 is due 2024-03-31
    aging = ledger.aging(date(2024, 4, 15))
    assert aging == {
        "current": 0,
        "1-30": Decimal("86.62"),
        "31-60": 0,
        "61-90": Decimal("10.73"),
        "90+": 0,
    }


def test_export_csv(ledger, tmp_path):
    ledger.record_payment("INV-101", "10.73")
    path = tmp_path / "ar.csv"
    assert ledger.export_csv(path) == 2
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows[1] == {
        "number": "INV-101",
        "customer": "C-001",
        "issued": "2024-01-02",
        "due": "2024-02-01",
        "total": "10.73",
        "paid": "10.73",
        "balance": "0.00",
    }
