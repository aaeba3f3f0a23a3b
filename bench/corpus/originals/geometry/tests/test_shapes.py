import pytest

from geometry.shapes import Polygon, rectangle
from geometry.vector import Vec


def test_rectangle_area():
    assert rectangle(0, 0, 4, 3).area() == 12


def test_rectangle_perimeter():
    assert rectangle(1, 1, 4, 3).perimeter() == 14


def test_triangle_area():
    assert Polygon([Vec(0, 0), Vec(4, 0), Vec(0, 3)]).area() == 6


def test_orientation():
    assert not rectangle(0, 0, 1, 1).is_clockwise()


def test_centroid():
    assert rectangle(0, 0, 2, 4).centroid() == Vec(1, 2)


def test_too_few_points():
    with pytest.raises(ValueError):
        Polygon([Vec(0, 0), Vec(1, 1)])


def test_vector_length():
    assert Vec(3, 4).length() == 5
