import statistics

import pytest

from stats import mean, median, mode, variance


def test_against_statistics_module():
    for data in ([1], [1, 2], [5, 3, 9, 1], [2.5, 2.5, 7, 1, 0], list(range(11))):
        assert mean(data) == pytest.approx(statistics.mean(data))
        assert median(data) == pytest.approx(statistics.median(data))
        if len(data) > 1:
            assert variance(data) == pytest.approx(statistics.variance(data))


def test_mode_single():
    assert mode([4]) == 4


def test_median_empty():
    with pytest.raises(ValueError):
        median([])
