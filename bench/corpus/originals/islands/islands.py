'''Connected regions in a grid of '#' (land) and '.' (water).'''


def parse_grid(text):
    return [list(row) for row in text.strip().splitlines()]


def neighbours(grid, row, col):
    for d_row, d_col in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, c = row + d_row, col + d_col
        if 0 <= r < len(grid) and 0 <= c < len(grid[r]):
            yield r, c


def fill(grid, row, col, seen):
    if (row, col) in seen or grid[row][col] != '#':
        return 0
    seen.add((row, col))
    size = 1
    for r, c in neighbours(grid, row, col):
        size += fill(grid, r, c, seen)
    return size


def island_sizes(text):
    grid = parse_grid(text)
    seen = set()
    sizes = []
    for row in range(len(grid)):
        for col in range(len(grid[row])):
            size = fill(grid, row, col, seen)
            if size > 0:
                sizes.append(size)
    return sorted(sizes, reverse=True)


def count_islands(text):
    return len(island_sizes(text))
