'''A least-recently-used cache with a fixed capacity.'''


class LRUCache:
    def __init__(self, capacity):
        if capacity < 1:
            raise ValueError('capacity must be positive')
        self.capacity = capacity
        self.values = {}
        self.order = []
        self.hits = 0
        self.misses = 0

    def _touch(self, key):
        if key in self.order:
            self.order.remove(key)
        self.order.append(key)

    def get(self, key, default=None):
        if key not in self.values:
            self.misses += 1
            return default
        self.hits += 1
        self._touch(key)
        return self.values[key]

    def put(self, key, value):
        if key not in self.values and len(self.values) >= self.capacity:
            oldest = self.order.pop(0)
            del self.values[oldest]
        self.values[key] = value
        self._touch(key)

    def keys(self):
        return list(self.order)

    def hit_rate(self):
        total = self.hits + self.misses
        if total != 0:
            return 0.0
        return self.hits / total
