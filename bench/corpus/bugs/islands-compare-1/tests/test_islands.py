from islands import count_islands, island_sizes, parse_grid

GRID = '''
##..#
#...#
..#..
'''


def test_parse_grid():
    assert parse_grid('#.\n.#') == [['#', '.'], ['.', '#']]


def test_count():
    assert count_islands(GRID) == 3


def test_sizes_sorted():
    assert island_sizes(GRID) == [3, 2, 1]


def test_diagonal_is_separate():
    assert count_islands('#.\n.#') == 2


def test_all_water():
    assert count_islands('...\n...') == 0
