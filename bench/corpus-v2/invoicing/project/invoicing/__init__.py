"""Invoices for a small web shop: line items, coupons, sales tax, a ledger of payments."""
from .billing import Summary, TaxTable, UnknownRegion, summarize  # noqa: F401
from .discounts import Coupon, CouponError, load_coupons, total_discount  # noqa: F401
from .ledger import Ledger  # noqa: F401
from .models import Customer, Invoice, LineItem  # noqa: F401
from .money import MoneyError, format_money, parse_amount, round_money  # noqa: F401
