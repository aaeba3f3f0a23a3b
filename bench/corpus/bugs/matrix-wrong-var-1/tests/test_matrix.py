import pytest

from matrix import identity, multiply, shape, trace, transpose


def test_shape():
    assert shape([[1, 2, 3], [4, 5, 6]]) == (2, 3)
    assert shape([]) == (0, 0)


def test_identity():
    assert identity(2) == [[1, 0], [0, 1]]


def test_transpose_rectangular():
    assert transpose([[1, 2, 3], [4, 5, 6]]) == [[1, 4], [2, 5], [3, 6]]


def test_multiply():
    assert multiply([[1, 2], [3, 4]], [[5, 6], [7, 8]]) == [[19, 22], [43, 50]]


def test_multiply_rejects_mismatch():
    with pytest.raises(ValueError):
        multiply([[1, 2]], [[1, 2]])


def test_trace():
    assert trace([[1, 2], [3, 4]]) == 5
