import pytest

from inventory import Item, Stock


def test_stock_accumulates():
    stock = Stock()
    stock.add(Item('cup', 300), 2)
    stock.add(Item('cup', 300), 3)
    assert stock.available('cup') == 5


def test_take_reduces_stock():
    stock = Stock()
    stock.add(Item('cup', 300), 2)
    stock.take('cup', 2)
    assert stock.available('cup') == 0


def test_negative_price():
    with pytest.raises(ValueError):
        Item('bad', -1)
