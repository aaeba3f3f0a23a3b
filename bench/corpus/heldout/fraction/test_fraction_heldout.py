import fractions

from fraction import Fraction


def test_against_standard_fractions():
    pairs = [(1, 2), (-3, 4), (5, -6), (0, 7), (10, 4)]
    for a, b in pairs:
        for c, d in pairs:
            got = Fraction(a, b) + Fraction(c, d)
            want = fractions.Fraction(a, b) + fractions.Fraction(c, d)
            assert (got.numerator, got.denominator) == (want.numerator, want.denominator)
            got = Fraction(a, b) * Fraction(c, d)
            want = fractions.Fraction(a, b) * fractions.Fraction(c, d)
            assert (got.numerator, got.denominator) == (want.numerator, want.denominator)


def test_zero_is_whole():
    assert repr(Fraction(0, 5)) == '0'


def test_not_less_than_itself():
    assert not Fraction(2, 3) < Fraction(4, 6)
