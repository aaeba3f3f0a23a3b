'''Transforms that return new polygons.'''

from geometry.shapes import Polygon
from geometry.vector import Vec


def translate(polygon, offset):
    return Polygon([point + offset for point in polygon.points])


def rotate90(polygon):
    '''Rotates a quarter turn counter-clockwise about the origin.'''
    return Polygon([Vec(-point.y, point.x) for point in polygon.points])


def scale_about(polygon, centre, factor):
    return Polygon([centre + (point - centre).scale(factor) for point in polygon.points])


def reverse(polygon):
    return Polygon(list(reversed(polygon.points)))
