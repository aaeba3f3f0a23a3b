"""Sales tax / VAT rates by jurisdiction and product category."""
from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Dict, Optional

from .models import Customer

DEFAULT_RATES: Dict[str, Dict[str, str]] = {
    "US-CA": {"standard": "0.0725", "food": "0"},
    "US-NY": {"standard": "0.04", "food": "0"},
    "US-OR": {"standard": "0"},
    "DE": {"standard": "0.19", "reduced": "0.07"},
    "FR": {"standard": "0.20", "reduced": "0.055"},
    "GB": {"standard": "0.20", "reduced": "0.05", "food": "0"},
}


class UnknownRegion(LookupError):
    """No rates are known for a customer's country/region."""


class TaxTable:
    def __init__(self, rates: Optional[Dict[str, Dict[str, str]]] = None):
        source = DEFAULT_RATES if rates is None else rates
        self._rates = {
            place: {category: Decimal(str(rate)) for category, rate in categories.items()}
            for place, categories in source.items()
        }

    @classmethod
    def from_json(cls, path) -> "TaxTable":
        return cls(json.loads(Path(path).read_text(encoding="utf-8")))

    def jurisdiction(self, customer: Customer) -> str:
        """'US-CA' when the region has its own rates, else the country."""
        if customer.region:
            key = f"{customer.country}-{customer.region}"
            if key in self._rates:
                return key
        if customer.country in self._rates:
            return customer.country
        where = f"{customer.country} {customer.region}".strip()
        raise UnknownRegion(f"no tax rates for {where}")

    def rate(self, customer: Customer, category: str) -> Decimal:
        """The rate for one product category; categories without their own rate pay the standard one."""
        if customer.tax_exempt:
            return Decimal("0")
        rates = self._rates[self.jurisdiction(customer)]
        return rates.get(category, rates["standard"])
