from intervals import gaps, merge, overlaps, total_length


def test_merge_empty():
    assert merge([]) == []


def test_merge_chain():
    assert merge([(5, 7), (1, 2), (2, 5), (9, 9)]) == [(1, 7), (9, 9)]


def test_total_of_nested():
    assert total_length([(0, 10), (1, 2), (3, 4)]) == 10


def test_touching_do_not_overlap():
    assert not overlaps((1, 3), (3, 5))


def test_no_gaps_when_merged():
    assert gaps([(0, 3), (1, 5)]) == []
