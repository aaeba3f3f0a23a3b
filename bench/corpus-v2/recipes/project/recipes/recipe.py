"""Recipes: reading them from text files and scaling them to a number of servings."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from .quantity import format_amount, parse_ingredient


@dataclass(frozen=True)
class Ingredient:
    name: str
    amount: Optional[Fraction] = None
    unit: str = ""
    note: str = ""

    def scaled(self, factor: Fraction) -> "Ingredient":
        if self.amount is None:  # 'salt to taste' stays as it is
            return self
        return replace(self, amount=self.amount * factor)

    def __str__(self) -> str:
        parts = [format_amount(self.amount)] if self.amount is not None else []
        if self.unit:
            parts.append(self.unit)
        parts.append(self.name)
        text = " ".join(parts)
        return f"{text}, {self.note}" if self.note else text


@dataclass(frozen=True)
class Recipe:
    title: str
    servings: int
    ingredients: Tuple[Ingredient, ...]
    steps: Tuple[str, ...] = ()


def scale(recipe: Recipe, servings: int) -> Recipe:
    """A copy of `recipe` for `servings` people; the original is left as it is."""
    if servings < 1:
        raise ValueError("servings must be at least 1")
    factor = Fraction(servings, recipe.servings)
    ingredients = tuple(item.scaled(factor) for item in recipe.ingredients)
    scaled = Recipe(recipe.title, servings, ingredients, recipe.steps)
    return scaled


_STEP_NUMBER = re.compile(r"^\d+[.)]\s*")


def parse_recipe(text: str) -> Recipe:
    """The text format:

        # Pancakes
        Serves: 4
        ## Ingredients
        - 1 1/2 cups flour
        ## Steps
        1. Mix everything.
    """
    title = ""
    headers: Dict[str, str] = {}
    section: Optional[str] = None
    ingredients: List[Ingredient] = []
    steps: List[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("## "):
            section = stripped[3:].strip().lower()
        elif stripped.startswith("# "):
            title = stripped[2:].strip()
        elif section is None and ":" in stripped:
            key, value = stripped.split(":", 1)
            headers[key.strip().lower()] = value.strip()
        elif section == "ingredients":
            amount, unit, name, note = parse_ingredient(stripped)
            ingredients.append(Ingredient(name, amount, unit, note))
        elif section == "steps":
            steps.append(_STEP_NUMBER.sub("", stripped))
    if not title:
        raise ValueError("a recipe needs a '# Title' line")
    servings = int(headers.get("serves", "1"))
    return Recipe(title, servings, tuple(ingredients), tuple(steps))


def load_recipe(path) -> Recipe:
    return parse_recipe(Path(path).read_text(encoding="utf-8"))
