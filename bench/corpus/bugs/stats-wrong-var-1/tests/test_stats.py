import pytest

from stats import mean, median, mode, value_range, variance


def test_mean():
    assert mean([1, 2, 3, 4]) == 2.5


def test_median_odd():
    assert median([5, 1, 3]) == 3


def test_median_even():
    assert median([4, 1, 3, 2]) == 2.5


def test_mode_first_of_ties():
    assert mode([3, 1, 1, 3, 2]) == 3


def test_sample_variance():
    assert variance([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(4.571428571)


def test_range():
    assert value_range([3, -2, 8]) == 10


def test_empty_errors():
    with pytest.raises(ValueError):
        mean([])
    with pytest.raises(ValueError):
        variance([1])
