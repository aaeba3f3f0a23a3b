from intervals import gaps, merge, overlaps, total_length


def test_merge_overlapping():
    assert merge([(1, 3), (2, 6), (8, 10)]) == [(1, 6), (8, 10)]


def test_merge_unsorted_input():
    assert merge([(8, 10), (1, 3)]) == [(1, 3), (8, 10)]


def test_merge_touching():
    assert merge([(1, 2), (2, 4)]) == [(1, 4)]


def test_merge_contained():
    assert merge([(1, 10), (2, 3)]) == [(1, 10)]


def test_total_length():
    assert total_length([(0, 5), (3, 8), (10, 12)]) == 10


def test_overlaps():
    assert overlaps((1, 5), (4, 8))
    assert not overlaps((1, 2), (3, 4))


def test_gaps():
    assert gaps([(0, 2), (5, 6), (9, 12)]) == [(2, 5), (6, 9)]
