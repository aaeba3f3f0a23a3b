"""Invoices for a small web shop: line items, coupons, sales tax, a ledger of payments."""
from .billing import Summary, summarize
from .discounts import Coupon, CouponError, load_coupons, total_discount
from .ledger import Ledger
from .models import Customer, Invoice, LineItem
from .money import MoneyError, format_money, parse_amount, round_money
from .tax import TaxTable, UnknownRegion

__all__ = [
    "Coupon",
    "CouponError",
    "Customer",
    "Invoice",
    "Ledger",
    "LineItem",
    "MoneyError",
    "Summary",
    "TaxTable",
    "UnknownRegion",
    "format_money",
    "load_coupons",
    "parse_amount",
    "round_money",
    "summarize",
    "total_discount",
]
