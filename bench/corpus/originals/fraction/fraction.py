'''Exact fractions in lowest terms.'''


def gcd(a, b):
    while b:
        a, b = b, a % b
    return abs(a)


class Fraction:
    def __init__(self, numerator, denominator=1):
        if denominator == 0:
            raise ZeroDivisionError('zero denominator')
        if denominator < 0:
            numerator, denominator = -numerator, -denominator
        common = gcd(numerator, denominator)
        self.numerator = numerator // common
        self.denominator = denominator // common

    def __add__(self, other):
        return Fraction(self.numerator * other.denominator + other.numerator * self.denominator,
                        self.denominator * other.denominator)

    def __sub__(self, other):
        return self + Fraction(-other.numerator, other.denominator)

    def __mul__(self, other):
        return Fraction(self.numerator * other.numerator, self.denominator * other.denominator)

    def __eq__(self, other):
        return self.numerator == other.numerator and self.denominator == other.denominator

    def __lt__(self, other):
        return self.numerator * other.denominator < other.numerator * self.denominator

    def __repr__(self):
        if self.denominator == 1:
            return str(self.numerator)
        return '%d/%d' % (self.numerator, self.denominator)
