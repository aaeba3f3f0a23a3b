"""Stock keeping for a small warehouse: FIFO lots, order fulfilment, reorder reports."""

from .ledger import Warehouse
from .models import InsufficientStock, Item, Lot, Movement, StockError, UnknownSku
from .orders import Fulfilment, OrderLine, fulfil

__all__ = [
    "Fulfilment",
    "InsufficientStock",
    "Item",
    "Lot",
    "Movement",
    "OrderLine",
    "StockError",
    "UnknownSku",
    "Warehouse",
    "fulfil",
]
