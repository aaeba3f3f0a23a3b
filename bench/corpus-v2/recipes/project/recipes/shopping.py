"""Shopping lists: what to buy for a week of recipes, minus what is already in the pantry."""
from __future__ import annotations

import math
from typing import Dict, Iterable, List, Optional, Set, Tuple

from .recipe import Recipe, scale
from .units import DENSITIES, Number, convert, lookup, metric_display

Totals = Dict[str, Dict[str, float]]


def _base(amount: Number, unit_name: str, name: str) -> Tuple[str, float]:
    """(kind, amount in g / ml / pieces); volumes of ingredients with a density become grams,
    so '1 cup flour' and '200 g flour' add up."""
    unit = lookup(unit_name)
    if unit is None:
        raise ValueError(f"unknown unit {unit_name!r} for {name}")
    if unit.kind == "volume" and name in DENSITIES:
        return "mass", convert(amount, unit.name, "g", name)
    return unit.kind, float(amount) * unit.factor


def shopping_list(
    plan: Iterable[Tuple[Recipe, int]],
    pantry: Optional[Dict[str, Tuple[Number, str]]] = None,
) -> List[str]:
    """One line per ingredient to buy for `plan` (recipes with the servings to cook them for),
    in metric units, alphabetically; then the to-taste items nobody measures."""
    totals: Totals = {}
    unmeasured: Set[str] = set()
    for recipe, servings in plan:
        for item in scale(recipe, servings).ingredients:
            if item.amount is None:
                unmeasured.add(item.name)
                continue
            kind, amount = _base(item.amount, item.unit, item.name)
            by_kind = totals.setdefault(item.name, {})
            by_kind[kind] = by_kind.get(kind, 0.0) + amount
    for name, (amount, unit_name) in (pantry or {}).items():
        if name in totals:
            kind, stock = _base(amount, unit_name, name)
            if kind in totals[name]:
                totals[name][kind] = max(0.0, totals[name][kind] - stock)

    lines: List[str] = []
    for name in sorted(totals):
        for kind, amount in sorted(totals[name].items()):
            if amount <= 0:
                continue
            if kind == "count":
                lines.append(f"{math.ceil(amount)} {name}")  # nobody sells 2.25 eggs
            else:
                value, unit = metric_display(amount, kind)
                lines.append(f"{round(value, 2):g} {unit} {name}")
    lines += [f"{name} (to taste)" for name in sorted(unmeasured - set(totals))]
    return lines
