from datetime import date
from decimal import Decimal

import pytest


def test_same_sku_and_price_is_merged(make_invoice):
    invoice = make_invoice()
    invoice.add("PEN-10", "Pens", 2, "3.50")
    invoice.add("PEN-10", "Pens", 3, Decimal("3.50"))
    invoice.add("PEN-10", "Pens (promo)", 1, "2.00")
    assert [(i.quantity, i.unit_price) for i in invoice.items] == [(5, Decimal("3.50")), (1, Decimal("2.00"))]


def test_quantity_must_be_positive(make_invoice):
    with pytest.raises(ValueError):
        make_invoice().add("PEN-10", "Pens", 0, "3.50")


def test_subtotal(office_order):
    assert office_order.subtotal == Decimal("81.98")


def test_due_date_and_days_overdue(make_invoice):
    invoice = make_invoice(issued=date(2024, 1, 15), terms_days=14)
    assert invoice.due == date(2024, 1, 29)
    assert invoice.days_overdue(date(2024, 1, 20)) == 0
    assert invoice.days_overdue(date(2024, 2, 3)) == 5
