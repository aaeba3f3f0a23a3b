from datetime import date
from decimal import Decimal

import pytest

from invoicing import Customer, Invoice, TaxTable


@pytest.fixture
def table():
    return TaxTable()


@pytest.fixture
def acme():
    return Customer("C-001", "Acme Corp", "US", "CA")


@pytest.fixture
def berlin():
    return Customer("C-002", "Kaffeehaus Berlin", "DE")


@pytest.fixture
def make_invoice(acme):
    def make(number="INV-1", customer=None, issued=date(2024, 3, 1), **kwargs):
        return Invoice(number, customer or acme, issued, **kwargs)

    return make


@pytest.fixture
def office_order(make_invoice):
    invoice = make_invoice("INV-100")
    invoice.add("PEN-10", "Ballpoint pens, box of 10", 4, Decimal("3.50"))
    invoice.add("PAP-A4", "Copy paper A4", 2, Decimal("24.99"))
    invoice.add("COF-1K", "Coffee beans 1kg", 1, Decimal("18.00"), category="food")
    return invoice
