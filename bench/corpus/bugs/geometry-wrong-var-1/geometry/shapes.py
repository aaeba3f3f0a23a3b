'''Polygons given by their corners in order.'''

from geometry.vector import Vec


class Polygon:
    def __init__(self, points):
        if len(points) < 3:
            raise ValueError('a polygon needs three points')
        self.points = points

    def edges(self):
        count = len(self.points)
        return [(self.points[i], self.points[(i + 1) % count]) for i in range(count)]

    def perimeter(self):
        return sum((end - start).length() for start, end in self.edges())

    def signed_area(self):
        return sum(start.cross(end) for start, end in self.edges()) / 2

    def area(self):
        return abs(self.signed_area())

    def is_clockwise(self):
        return self.signed_area() < 0

    def centroid(self):
        total = Vec(0, 0)
        for point in self.points:
            total = total + point
        return total.scale(1 / len(self.points))


def rectangle(x, y, width, height):
    return Polygon([Vec(x, y), Vec(x + width, y), Vec(x + width, y + height), Vec(x, y + height)])
