import pytest

from roman import from_roman, to_roman


def test_round_trip_every_number():
    for number in range(1, 4000):
        assert from_roman(to_roman(number)) == number


def test_largest():
    assert to_roman(3999) == 'MMMCMXCIX'


def test_empty_is_rejected():
    with pytest.raises(ValueError):
        from_roman('')


def test_negative_is_rejected():
    with pytest.raises(ValueError):
        to_roman(-5)
