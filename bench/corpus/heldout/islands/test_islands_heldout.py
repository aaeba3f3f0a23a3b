from islands import count_islands, island_sizes


def test_ring_is_one_island():
    assert island_sizes('###\n#.#\n###') == [8]


def test_single_cell():
    assert island_sizes('#') == [1]


def test_snake():
    grid = '#####\n....#\n#####\n#....\n#####'
    assert count_islands(grid) == 1
    assert island_sizes(grid) == [17]
