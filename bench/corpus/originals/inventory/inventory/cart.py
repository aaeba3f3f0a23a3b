'''A shopping cart that takes items from stock and prices them.'''

from inventory.pricing import line_price, tax_cents


class Cart:
    def __init__(self, stock):
        self.stock = stock
        self.lines = []

    def add(self, name, quantity=1):
        if quantity < 1:
            raise ValueError('quantity must be positive')
        item = self.stock.take(name, quantity)
        self.lines.append((item, quantity))

    def subtotal(self):
        return sum(line_price(item, quantity) for item, quantity in self.lines)

    def tax(self):
        total = 0
        for item, quantity in self.lines:
            total += tax_cents(line_price(item, quantity), item.category)
        return total

    def total(self):
        return self.subtotal() + self.tax()

    def receipt(self):
        rows = []
        for item, quantity in self.lines:
            rows.append('%s x%d %s' % (item.name, quantity, format_cents(line_price(item, quantity))))
        rows.append('total ' + format_cents(self.total()))
        return '\n'.join(rows)


def format_cents(cents):
    return '%d.%02d' % (cents // 100, cents % 100)
