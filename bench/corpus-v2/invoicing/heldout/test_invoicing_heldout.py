import csv
from datetime import date
from decimal import Decimal

import pytest

from invoicing import Coupon, Customer, Invoice, Ledger, TaxTable, format_money, round_money, summarize
from invoicing.billing import render_text

PARIS = Customer("C-7", "Bistro Paris", "FR")
OAKLAND = Customer("C-8", "Oakland Tools", "US", "CA")


@pytest.mark.parametrize(
    "value, expected",
    [
        (Decimal("1.005"), Decimal("1.01")),
        (Decimal("0.125"), Decimal("0.13")),
        (Decimal("-0.125"), Decimal("-0.13")),
        ("2.345", Decimal("2.35")),
        (Decimal("2.344"), Decimal("2.34")),
    ],
)
def test_round_half_up(value, expected):
    assert round_money(value) == expected


def test_format_half_cents_and_credits():
    assert format_money(Decimal("0.125")) == "$0.13"
    assert format_money(Decimal("-1234.565"), "GBP") == "-£1,234.57"


def test_sub_cent_unit_price():
    invoice = Invoice("H-1", OAKLAND, date(2024, 5, 1))
    invoice.add("SCREW", "Screw", 1, "0.125")
    invoice.add("NUT", "Nut", 3, "0.045")
    assert [item.amount for item in invoice.items] == [Decimal("0.13"), Decimal("0.14")]


def test_reduced_vat_half_cent():
    invoice = Invoice("H-2", PARIS, date(2024, 5, 1), currency="EUR")
    invoice.add("BREAD", "Baguette", 1, "1.00", category="reduced")
    invoice.add("WINE", "Wine", 1, "2.50")
    assert summarize(invoice, TaxTable()).taxes == {"reduced": Decimal("0.06"), "standard": Decimal("0.50")}


@pytest.mark.parametrize(
    "customer, category, rate",
    [(PARIS, "books", "0.20"), (OAKLAND, "clothing", "0.0725"), (PARIS, "reduced", "0.055")],
)
def test_fallback_to_standard_rate(customer, category, rate):
    assert TaxTable().rate(customer, category) == Decimal(rate)


def test_unlisted_category_is_taxed_in_totals():
    invoice = Invoice("H-3", OAKLAND, date(2024, 5, 1))
    invoice.add("SHIRT", "T-shirt", 2, "20.00", category="clothing")
    summary = summarize(invoice, TaxTable())
    assert summary.total == Decimal("42.90")


def test_coupon_expiry_boundaries():
    coupon = Coupon("LAST", percent=Decimal("50"), expires=date(2024, 6, 30))
    assert coupon.is_valid(Decimal("10"), date(2024, 6, 29))
    assert coupon.is_valid(Decimal("10"), date(2024, 6, 30))
    assert not coupon.is_valid(Decimal("10"), date(2024, 7, 1))


def test_stackable_coupons_on_last_day():
    coupons = [
        Coupon("A", amount=Decimal("3"), stackable=True, expires=date(2024, 5, 1)),
        Coupon("B", amount=Decimal("4"), stackable=True, expires=date(2024, 5, 1)),
    ]
    invoice = Invoice("H-4", PARIS, date(2024, 5, 1), currency="EUR")
    invoice.add("X", "X", 1, "50")
    assert summarize(invoice, TaxTable(), coupons).discount == Decimal("7")


def test_free_invoice_totals_and_coupons():
    invoice = Invoice("H-5", PARIS, date(2024, 5, 1))
    invoice.add("SAMPLE", "Sample", 3, "0.00")
    summary = summarize(invoice, TaxTable(), [Coupon("GIFT", amount=Decimal("5"))])
    assert (summary.discount, summary.tax, summary.total) == (0, 0, 0)


def test_free_invoice_in_aging_and_export(tmp_path):
    free = Invoice("H-6", PARIS, date(2024, 1, 1))
    free.add("SAMPLE", "Sample", 1, "0")
    paid = Invoice("H-7", PARIS, date(2024, 1, 1))
    paid.add("X", "X", 1, "10")
    ledger = Ledger(TaxTable(), [free, paid])
    assert ledger.aging(date(2024, 2, 15))["1-30"] == Decimal("12.00")
    ledger.export_csv(tmp_path / "out.csv")
    with (tmp_path / "out.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["balance"] for row in rows] == ["0.00", "12.00"]


def test_due_date_in_render_and_export(tmp_path):
    invoice = Invoice("H-8", OAKLAND, date(2024, 2, 20), terms_days=10)
    invoice.add("X", "X", 1, "1")
    text = render_text(invoice, summarize(invoice, TaxTable()))
    assert "Due: 2024-03-01" in text
    ledger = Ledger(TaxTable(), [invoice])
    ledger.export_csv(tmp_path / "out.csv")
    assert "2024-03-01" in (tmp_path / "out.csv").read_text()


def test_aging_bucket_edges():
    ledger = Ledger(TaxTable())
    for number, issued in [("E-30", date(2024, 1, 1)), ("E-31", date(2023, 12, 31)), ("E-0", date(2024, 1, 31))]:
        invoice = Invoice(number, OAKLAND, issued)
        invoice.add("X", "X", 1, "100")
        ledger.add(invoice)
    # due 2024-01-31, 2024-01-30 and 2024-03-01; today 2024-03-01
    aging = ledger.aging(date(2024, 3, 1))
    assert aging["current"] == Decimal("107.25")
    assert aging["1-30"] == Decimal("107.25")
    assert aging["31-60"] == Decimal("107.25")


def test_ledgers_do_not_share_invoices():
    first = Ledger(TaxTable())
    invoice = Invoice("H-9", OAKLAND, date(2024, 1, 1))
    first.add(invoice)
    second = Ledger(TaxTable())
    assert second.invoices == []
    second.add(Invoice("H-9", PARIS, date(2024, 1, 1)))
    assert first.get("H-9").customer is OAKLAND
