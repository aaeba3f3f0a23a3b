import pytest

from roman import from_roman, to_roman


def test_small_numbers():
    assert to_roman(1) == 'I'
    assert to_roman(3) == 'III'


def test_subtractive_forms():
    assert to_roman(4) == 'IV'
    assert to_roman(9) == 'IX'
    assert to_roman(40) == 'XL'


def test_large_number():
    assert to_roman(1994) == 'MCMXCIV'


def test_out_of_range():
    with pytest.raises(ValueError):
        to_roman(0)
    with pytest.raises(ValueError):
        to_roman(4000)


def test_parse_simple():
    assert from_roman('XIII') == 13


def test_parse_subtractive():
    assert from_roman('MCMXCIV') == 1994


def test_parse_lowercase():
    assert from_roman('xiv') == 14


def test_parse_rejects_bad_symbol():
    with pytest.raises(ValueError):
        from_roman('XIZ')
