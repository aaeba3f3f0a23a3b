import pytest

from inventory import Cart, Item, Stock
from inventory.cart import format_cents


def test_nine_items_no_discount():
    stock = Stock()
    stock.add(Item('pen', 100), 50)
    cart = Cart(stock)
    cart.add('pen', 9)
    assert cart.subtotal() == 900


def test_tax_rounds_half_up():
    stock = Stock()
    stock.add(Item('gum', 10, 'food'), 5)
    cart = Cart(stock)
    cart.add('gum', 1)
    assert cart.tax() == 1


def test_unknown_category_taxed_as_general():
    stock = Stock()
    stock.add(Item('toy', 1000, 'toys'), 1)
    cart = Cart(stock)
    cart.add('toy')
    assert cart.total() == 1200


def test_format_cents():
    assert format_cents(5) == '0.05'
    assert format_cents(12345) == '123.45'


def test_zero_quantity_rejected():
    stock = Stock()
    stock.add(Item('pen', 100), 5)
    with pytest.raises(ValueError):
        Cart(stock).add('pen', 0)


def test_unknown_item_not_available():
    assert Stock().available('nothing') == 0
