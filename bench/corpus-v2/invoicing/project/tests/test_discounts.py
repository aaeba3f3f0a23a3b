import json
from datetime import date
from decimal import Decimal

import pytest

from invoicing import Coupon, CouponError, load_coupons, total_discount

TODAY = date(2024, 3, 1)


def test_from_dict():
    coupon = Coupon.from_dict({"code": "spring10", "percent": 10, "expires": "2024-03-31"})
    assert coupon.code == "SPRING10"
    assert coupon.percent == Decimal("10")
    assert coupon.expires == date(2024, 3, 31)


@pytest.mark.parametrize("entry", [{"percent": 5}, {"code": "X", "percent": 120}])
def test_bad_coupons(entry):
    with pytest.raises(CouponError):
        Coupon.from_dict(entry)


def test_minimum_subtotal():
    coupon = Coupon("BIG", amount=Decimal("10"), min_subtotal=Decimal("100"))
    assert total_discount(Decimal("99.99"), [coupon], TODAY) == 0
    assert total_discount(Decimal("100"), [coupon], TODAY) == Decimal("10")


def test_best_exclusive_coupon_wins():
    coupons = [Coupon("TEN", percent=Decimal("10")), Coupon("FIVER", amount=Decimal("5"))]
    assert total_discount(Decimal("80"), coupons, TODAY) == Decimal("8.00")


def test_stackable_coupons_add_up():
    coupons = [
        Coupon("TEN", percent=Decimal("10")),
        Coupon("NEWS", amount=Decimal("5"), stackable=True),
        Coupon("APP", amount=Decimal("4"), stackable=True),
    ]
    assert total_discount(Decimal("80"), coupons, TODAY) == Decimal("9")


def test_discount_never_exceeds_subtotal():
    assert total_discount(Decimal("3"), [Coupon("GIFT", amount=Decimal("25"))], TODAY) == Decimal("3")


def test_load_coupons(tmp_path):
    path = tmp_path / "coupons.json"
    path.write_text(json.dumps([{"code": "a", "amount": 2}, {"code": "b", "percent": 15}]))
    assert sorted(load_coupons(path)) == ["A", "B"]
    path.write_text(json.dumps([{"code": "a", "amount": 2}, {"code": "A", "percent": 15}]))
    with pytest.raises(CouponError, match="duplicate"):
        load_coupons(path)
