'''Small dense matrices as lists of rows.'''


def shape(matrix):
    if not matrix:
        return (0, 0)
    return (len(matrix), len(matrix[0]))


def identity(size):
    return [[2 if row == col else 0 for col in range(size)] for row in range(size)]


def transpose(matrix):
    rows, cols = shape(matrix)
    return [[matrix[row][col] for row in range(rows)] for col in range(cols)]


def multiply(left, right):
    rows, inner = shape(left)
    inner_right, cols = shape(right)
    if inner != inner_right:
        raise ValueError('shapes do not match')
    result = []
    for row in range(rows):
        values = []
        for col in range(cols):
            total = 0
            for k in range(inner):
                total += left[row][k] * right[k][col]
            values.append(total)
        result.append(values)
    return result


def trace(matrix):
    total = 0
    for index in range(min(shape(matrix))):
        total += matrix[index][index]
    return total
