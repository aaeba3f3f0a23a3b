"""Kitchen units: mass and volume (metric and US customary) and countable items."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Dict, Optional, Tuple, Union

Number = Union[int, float, Fraction]


class ConversionError(ValueError):
    """Units of different kinds without a density to bridge them, or an unknown unit."""


@dataclass(frozen=True)
class Unit:
    name: str
    kind: str  # "mass" (base: g), "volume" (base: ml) or "count"
    factor: float  # size in the base unit


UNITS: Dict[str, Unit] = {
    unit.name: unit
    for unit in [
        Unit("g", "mass", 1.0),
        Unit("kg", "mass", 1000.0),
        Unit("oz", "mass", 28.349523125),
        Unit("lb", "mass", 453.59237),
        Unit("ml", "volume", 1.0),
        Unit("l", "volume", 1000.0),
        Unit("tsp", "volume", 4.92892159375),
        Unit("tbsp", "volume", 14.78676478125),
        Unit("fl oz", "volume", 29.5735295625),
        Unit("cup", "volume", 236.5882365),
        Unit("pint", "volume", 473.176473),
        Unit("", "count", 1.0),
    ]
}

ALIASES = {
    "gram": "g", "grams": "g", "kilogram": "kg", "kilograms": "kg", "ounce": "oz", "ounces": "oz",
    "pound": "lb", "pounds": "lb", "lbs": "lb", "milliliter": "ml", "milliliters": "ml", "litre": "l",
    "liter": "l", "liters": "l", "litres": "l", "teaspoon": "tsp", "teaspoons": "tsp", "tablespoon": "tbsp",
    "tablespoons": "tbsp", "tbs": "tbsp", "cups": "cup", "pints": "pint", "fluid ounce": "fl oz",
    "fluid ounces": "fl oz", "floz": "fl oz",
}

# grams per millilitre
DENSITIES = {"water": 1.0, "milk": 1.03, "flour": 0.53, "sugar": 0.85, "butter": 0.96, "honey": 1.42, "oil": 0.92}


def lookup(name: str) -> Optional[Unit]:
    """The unit called `name` (case-insensitive, plurals and long names accepted), or None."""
    key = name.strip().lower().rstrip(".")
    key = ALIASES.get(key, key)
    return UNITS.get(key)


def _unit(name: str) -> Unit:
    unit = lookup(name)
    if unit is None:
        raise ConversionError(f"unknown unit {name!r}")
    return unit


def convert(amount: Number, source: str, target: str, ingredient: Optional[str] = None) -> float:
    """Converts between units; mass <-> volume needs an ingredient with a known density."""
    src, dst = _unit(source), _unit(target)
    base = float(amount) * src.factor
    if src.kind != dst.kind:
        density = DENSITIES.get((ingredient or "").lower())
        if density is None or "count" in (src.kind, dst.kind):
            raise ConversionError(f"cannot convert {src.kind} to {dst.kind} for {ingredient or 'an unknown ingredient'}")
        if src.kind == "volume":
            base = base * density
        else:
            base = base / density
    return base / dst.factor


METRIC_STEPS: Dict[str, Tuple[Tuple[float, str], ...]] = {
    "mass": ((1000.0, "kg"), (0.0, "g")),
    "volume": ((1000.0, "l"), (0.0, "ml")),
}


def metric_display(base_amount: float, kind: str) -> Tuple[float, str]:
    """A base amount (g or ml) in the unit a metric recipe would print: 1500 g -> (1.5, 'kg')."""
    if kind == "count":
        return base_amount, ""
    for threshold, unit in METRIC_STEPS[kind]:
        if base_amount >= threshold:
            return base_amount / UNITS[unit].factor, unit
    raise AssertionError("unreachable")
