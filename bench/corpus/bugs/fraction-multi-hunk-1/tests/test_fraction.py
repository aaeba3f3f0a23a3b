import pytest

from fraction import Fraction, gcd


def test_gcd():
    assert gcd(12, 18) == 6


def test_lowest_terms():
    assert repr(Fraction(6, 8)) == '3/4'


def test_negative_denominator():
    assert repr(Fraction(1, -2)) == '-1/2'


def test_add():
    assert Fraction(1, 2) + Fraction(1, 3) == Fraction(5, 6)


def test_subtract_to_whole():
    assert repr(Fraction(3, 2) - Fraction(1, 2)) == '1'


def test_multiply():
    assert Fraction(2, 3) * Fraction(3, 4) == Fraction(1, 2)


def test_less_than():
    assert Fraction(1, 3) < Fraction(1, 2)


def test_zero_denominator():
    with pytest.raises(ZeroDivisionError):
        Fraction(1, 0)
