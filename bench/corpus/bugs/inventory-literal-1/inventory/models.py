'''Items and the stock they are taken from.'''


class Item:
    def __init__(self, name, price_cents, category='general'):
        if price_cents < 0:
            raise ValueError('negative price')
        self.name = name
        self.price_cents = price_cents
        self.category = category


class Stock:
    def __init__(self):
        self.items = {}
        self.quantities = {}

    def add(self, item, quantity):
        self.items[item.name] = item
        self.quantities[item.name] = self.quantities.get(item.name, 0) + quantity

    def available(self, name):
        return self.quantities.get(name, 0)

    def take(self, name, quantity):
        if quantity > self.available(name):
            raise ValueError('not enough ' + name)
        self.quantities[name] -= quantity
        return self.items[name]
