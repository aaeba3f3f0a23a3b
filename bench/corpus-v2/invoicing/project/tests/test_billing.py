from datetime import date
from decimal import Decimal

from invoicing import Coupon, summarize
from invoicing.billing import render_text


def test_totals_without_coupons(office_order, table):
    summary = summarize(office_order, table)
    assert summary.subtotal == Decimal("81.98")
    assert summary.taxes == {"standard": Decimal("4.64")}
    assert summary.total == Decimal("86.62")


def test_discount_lowers_the_taxable_amount(office_order, table):
    summary = summarize(office_order, table, [Coupon("TEN", percent=Decimal("10"))])
    assert summary.discount == Decimal("8.20")
    assert summary.taxes == {"standard": Decimal("4.17")}
    assert summary.total == Decimal("77.95")


def test_coupon_still_valid_on_its_expiry_day(make_invoice, table):
    invoice = make_invoice(issued=date(2024, 3, 31))
    invoice.add("MUG", "Mug", 2, "12.00")
    march = Coupon("MARCH", amount=Decimal("5"), expires=date(2024, 3, 31))
    assert summarize(invoice, table, [march]).discount == Decimal("5")
    assert summarize(invoice, table, [march], today=date(2024, 4, 1)).discount == 0


def test_vat_rounds_half_cent_up(make_invoice, berlin, table):
    invoice = make_invoice(customer=berlin, currency="EUR")
    invoice.add("PRETZEL", "Pretzel", 1, "1.50")
    assert summarize(invoice, table).taxes == {"standard": Decimal("0.29")}


def test_category_without_own_rate_pays_standard(make_invoice, berlin, table):
    invoice = make_invoice(customer=berlin, currency="EUR")
    invoice.add("BOOK-1", "Cookbook", 1, "10.00", category="books")
    invoice.add("TEA", "Tea", 1, "4.00", category="reduced")
    assert summarize(invoice, table).taxes == {"books": Decimal("1.90"), "reduced": Decimal("0.28")}


def test_empty_invoice(make_invoice, table):
    summary = summarize(make_invoice(), table)
    assert (summary.subtotal, summary.discount, summary.tax, summary.total) == (0, 0, 0, 0)


def test_render_text(office_order, table):
    text = render_text(office_order, summarize(office_order, table, [Coupon("TEN", percent=Decimal("10"))]))
    lines = text.splitlines()
    assert lines[0] == "Invoice INV-100"
    assert lines[2] == "Issued: 2024-03-01  Due: 2024-03-31"
    assert "   4 x Ballpoint pens, box of 10" in text
    assert lines[-3].split() == ["Discount", "-$8.20"]
    assert lines[-1].split() == ["Total", "$77.95"]
