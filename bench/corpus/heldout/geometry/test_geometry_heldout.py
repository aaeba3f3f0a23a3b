import math

from geometry.shapes import Polygon, rectangle
from geometry.transform import rotate90, scale_about, translate
from geometry.vector import Vec


def test_dot_and_cross():
    assert Vec(1, 2).dot(Vec(3, 4)) == 11
    assert Vec(1, 0).cross(Vec(0, 1)) == 1


def test_rotation_four_times_is_identity():
    shape = Polygon([Vec(1, 2), Vec(5, 3), Vec(2, 7)])
    turned = rotate90(rotate90(rotate90(rotate90(shape))))
    assert turned.points == shape.points


def test_regular_hexagon():
    points = [Vec(math.cos(k * math.pi / 3), math.sin(k * math.pi / 3)) for k in range(6)]
    hexagon = Polygon(points)
    assert math.isclose(hexagon.perimeter(), 6)
    assert math.isclose(hexagon.area(), 3 * math.sqrt(3) / 2)


def test_transforms_keep_or_scale_area():
    shape = rectangle(2, 3, 5, 1)
    assert translate(shape, Vec(-7, 7)).area() == 5
    assert scale_about(shape, Vec(0, 0), 3).area() == 45
    assert rotate90(shape).area() == 5


def test_subtraction():
    assert Vec(5, 5) - Vec(2, 7) == Vec(3, -2)
