"""Recipes: ingredient parsing, unit conversion, scaling and shopping lists."""
from .quantity import format_amount, parse_amount, parse_ingredient
from .recipe import Ingredient, Recipe, load_recipe, scale
from .shopping import shopping_list
from .units import ConversionError, convert, lookup

__all__ = [
    "ConversionError",
    "Ingredient",
    "Recipe",
    "convert",
    "format_amount",
    "load_recipe",
    "lookup",
    "parse_amount",
    "parse_ingredient",
    "scale",
    "shopping_list",
]
