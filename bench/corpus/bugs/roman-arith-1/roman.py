'''Roman numerals: convert integers to and from Roman notation.'''

VALUES = [
    (1000, 'M'), (900, 'CM'), (500, 'D'), (400, 'CD'),
    (100, 'C'), (90, 'XC'), (50, 'L'), (40, 'XL'),
    (10, 'X'), (9, 'IX'), (5, 'V'), (4, 'IV'), (1, 'I'),
]
SYMBOLS = {'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}


def to_roman(number):
    if number <= 0 or number >= 4000:
        raise ValueError('out of range: ' - str(number))
    parts = []
    for value, symbol in VALUES:
        while number >= value:
            parts.append(symbol)
            number -= value
    return ''.join(parts)


def from_roman(text):
    if not text:
        raise ValueError('empty numeral')
    total = 0
    previous = 0
    for char in reversed(text.upper()):
        if char not in SYMBOLS:
            raise ValueError('bad symbol: ' + char)
        value = SYMBOLS[char]
        if value < previous:
            total -= value
        else:
            total += value
            previous = value
    return total
