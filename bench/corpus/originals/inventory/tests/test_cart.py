import pytest

from inventory import Cart, Item, Stock


def make_stock():
    stock = Stock()
    stock.add(Item('pen', 150), 200)
    stock.add(Item('bread', 250, 'food'), 20)
    stock.add(Item('novel', 1000, 'books'), 3)
    return stock


def test_subtotal_without_discount():
    cart = Cart(make_stock())
    cart.add('pen', 2)
    assert cart.subtotal() == 300


def test_bulk_discount_at_ten():
    cart = Cart(make_stock())
    cart.add('bread', 10)
    assert cart.subtotal() == 2375


def test_large_bulk_discount():
    cart = Cart(make_stock())
    cart.add('pen', 100)
    assert cart.subtotal() == 12750


def test_tax_by_category():
    cart = Cart(make_stock())
    cart.add('pen', 1)
    cart.add('novel', 1)
    assert cart.tax() == 30


def test_total():
    cart = Cart(make_stock())
    cart.add('bread', 2)
    assert cart.total() == 525


def test_cannot_take_more_than_stock():
    cart = Cart(make_stock())
    with pytest.raises(ValueError):
        cart.add('novel', 4)


def test_receipt():
    cart = Cart(make_stock())
    cart.add('pen', 3)
    assert cart.receipt() == 'pen x3 4.50\ntotal 5.40'
