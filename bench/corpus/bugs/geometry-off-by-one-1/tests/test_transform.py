from geometry.shapes import rectangle
from geometry.transform import reverse, rotate90, scale_about, translate
from geometry.vector import Vec


def test_translate_keeps_area():
    moved = translate(rectangle(0, 0, 2, 3), Vec(5, -1))
    assert moved.points[0] == Vec(5, -1)
    assert moved.area() == 6


def test_rotate90():
    turned = rotate90(rectangle(0, 0, 2, 1))
    assert turned.points[1] == Vec(0, 2)


def test_scale_about_centre():
    grown = scale_about(rectangle(0, 0, 2, 2), Vec(1, 1), 2)
    assert grown.points[0] == Vec(-1, -1)
    assert grown.area() == 16


def test_reverse_flips_orientation():
    assert reverse(rectangle(0, 0, 1, 1)).is_clockwise()
