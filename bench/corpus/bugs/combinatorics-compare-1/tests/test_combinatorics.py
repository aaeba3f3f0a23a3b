from combinatorics import choose, permutations, stair_ways, subsets


def test_permutations_of_three():
    assert permutations([1, 2, 3]) == [[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]]


def test_permutations_of_one():
    assert permutations(['x']) == [['x']]


def test_subsets():
    assert sorted(subsets([1, 2])) == [[], [1], [1, 2], [2]]


def test_choose():
    assert choose(5, 2) == 10
    assert choose(4, 0) == 1


def test_choose_out_of_range():
    assert choose(3, 4) == 0


def test_stair_ways():
    assert stair_ways(5) == 8
