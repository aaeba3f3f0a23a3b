'''Counting hashable things.'''


class Counter:
    def __init__(self):
        self.counts = {}
        self.total = 0

    def add(self, key, amount=1):
        self.counts[key] = self.counts.get(key, 0) + amount
        self.total += amount

    def update(self, keys):
        for key in keys:
            self.add(key)

    def most_common(self, limit):
        ordered = sorted(self.counts.items(), key=lambda pair: (-pair[1], pair[0]))
        return ordered[:limit]

    def share(self, key):
        if self.total == 0:
            return 0.0
        return self.counts.get(key, 0) / self.total
