from matrix import identity, multiply, trace, transpose


def test_identity_is_neutral():
    m = [[2, 3, 4], [5, 6, 7]]
    assert multiply(m, identity(3)) == m
    assert multiply(identity(2), m) == m


def test_row_times_column():
    assert multiply([[1, 2, 3]], [[4], [5], [6]]) == [[32]]


def test_double_transpose():
    m = [[1, 2], [3, 4], [5, 6]]
    assert transpose(transpose(m)) == m


def test_trace_of_rectangle():
    assert trace([[1, 2, 3], [4, 5, 6]]) == 6
