from binsearch import count, find, lower_bound, upper_bound


def test_find_every_element():
    items = list(range(0, 100, 3))
    for index, value in enumerate(items):
        assert find(items, value) == index
        assert find(items, value + 1) == -1


def test_bounds_past_the_ends():
    assert lower_bound([1, 2, 3], 0) == 0
    assert upper_bound([1, 2, 3], 5) == 3


def test_count_absent():
    assert count([1, 2, 4], 3) == 0
