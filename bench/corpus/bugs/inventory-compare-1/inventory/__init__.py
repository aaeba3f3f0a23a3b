'''A tiny shop: items in stock, pricing rules and a shopping cart.'''

from inventory.cart import Cart
from inventory.models import Item, Stock

__all__ = ['Cart', 'Item', 'Stock']
