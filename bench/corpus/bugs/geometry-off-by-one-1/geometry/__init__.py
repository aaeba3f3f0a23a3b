'''Plane geometry: vectors, polygons and transforms.'''
