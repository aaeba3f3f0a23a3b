"""Coupons: percentage or fixed discounts, minimum order values, expiry dates."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Dict, Iterable, Optional

from .money import ZERO, round_money, to_decimal


class CouponError(ValueError):
    """A coupon file entry that cannot be used."""


@dataclass(frozen=True)
class Coupon:
    code: str
    percent: Decimal = ZERO
    amount: Decimal = ZERO
    min_subtotal: Decimal = ZERO
    expires: Optional[date] = None
    stackable: bool = False

    @classmethod
    def from_dict(cls, data: dict) -> "Coupon":
        if "code" not in data:
            raise CouponError(f"coupon without a code: {data!r}")
        expires = data.get("expires")
        coupon = cls(
            code=str(data["code"]).upper(),
            percent=to_decimal(str(data.get("percent", 0))),
            amount=to_decimal(str(data.get("amount", 0))),
            min_subtotal=to_decimal(str(data.get("min_subtotal", 0))),
            expires=date.fromisoformat(expires) if expires else None,
            stackable=bool(data.get("stackable", False)),
        )
        if not ZERO <= coupon.percent <= 100:
            raise CouponError(f"{coupon.code}: percent must be within 0..100")
        return coupon

    def is_valid(self, subtotal: Decimal, today: date) -> bool:
        """Usable on `today` (the expiry day included) for an order of `subtotal`."""
        if self.expires is not None and today > self.expires:
            return False
        return subtotal >= self.min_subtotal

    def discount_on(self, subtotal: Decimal) -> Decimal:
        value = subtotal * self.percent / 100 + self.amount
        return min(round_money(value), subtotal)


def load_coupons(path) -> Dict[str, Coupon]:
    """Reads a JSON list of coupons, keyed by their upper-case code."""
    entries = json.loads(Path(path).read_text(encoding="utf-8"))
    coupons: Dict[str, Coupon] = {}
    for entry in entries:
        coupon = Coupon.from_dict(entry)
        if coupon.code in coupons:
            raise CouponError(f"duplicate coupon {coupon.code}")
        coupons[coupon.code] = coupon
    return coupons


def total_discount(subtotal: Decimal, coupons: Iterable[Coupon], today: date) -> Decimal:
    """Stackable coupons add up; of the others only the best one counts; the customer gets
    whichever of the two is larger, never more than the subtotal."""
    valid = [c for c in coupons if c.is_valid(subtotal, today)]
    exclusive = [c.discount_on(subtotal) for c in valid if not c.stackable]
    stacked = sum((c.discount_on(subtotal) for c in valid if c.stackable), ZERO)
    best = max(exclusive, default=ZERO)
    return min(max(best, stacked), subtotal)
