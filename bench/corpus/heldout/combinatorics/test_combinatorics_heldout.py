import math

from combinatorics import choose, permutations, stair_ways, subsets


def test_counts_match_math():
    for n in range(7):
        assert len(permutations(list(range(n)))) == math.factorial(n)
        assert len(subsets(list(range(n)))) == 2 ** n
        for k in range(-1, n + 2):
            expected = math.comb(n, k) if 0 <= k <= n else 0
            assert choose(n, k) == expected


def test_permutations_of_empty():
    assert permutations([]) == [[]]


def test_stairs_large():
    assert stair_ways(40) == 165580141
    assert stair_ways(0) == 1
