from binsearch import count, find, lower_bound, upper_bound


def test_find_present():
    assert find([1, 3, 5, 7, 9], 7) == 3


def test_find_first_and_last():
    assert find([2, 4, 6], 2) == 0
    assert find([2, 4, 6], 6) == 2


def test_find_missing():
    assert find([1, 3, 5], 4) == -1


def test_find_in_empty_list():
    assert find([], 1) == -1


def test_lower_bound_with_duplicates():
    assert lower_bound([1, 2, 2, 2, 3], 2) == 1


def test_upper_bound_with_duplicates():
    assert upper_bound([1, 2, 2, 2, 3], 2) == 4


def test_count():
    assert count([1, 1, 2, 3, 3, 3], 3) == 3
