from fractions import Fraction

import pytest

from recipes import Ingredient, Recipe, load_recipe, scale

PANCAKES = """# Pancakes
Serves: 4
Source: the back of the flour bag

## Ingredients
- 1 1/2 cups flour
- 2 tbsp sugar
- 1 1/4 cups milk
- 2 eggs
- salt to taste

## Steps
1. Whisk the dry ingredients.
2) Add milk and eggs.
Rest for 10 minutes.
"""


@pytest.fixture
def pancakes(tmp_path):
    path = tmp_path / "pancakes.md"
    path.write_text(PANCAKES, encoding="utf-8")
    return load_recipe(path)


def test_load_recipe(pancakes):
    assert pancakes.title == "Pancakes"
    assert pancakes.servings == 4
    assert [str(item) for item in pancakes.ingredients] == [
        "1 1/2 cup flour",
        "2 tbsp sugar",
        "1 1/4 cup milk",
        "2 eggs",
        "salt",
    ]
    assert pancakes.steps == ("Whisk the dry ingredients.", "Add milk and eggs.", "Rest for 10 minutes.")


def test_title_is_required():
    from recipes.recipe import parse_recipe

    with pytest.raises(ValueError, match="Title"):
        parse_recipe("Serves: 2\n## Ingredients\n- 1 egg\n")


def test_scale_up(pancakes):
    double = scale(pancakes, 8)
    assert double.servings == 8
    assert double.ingredients[0] == Ingredient("flour", Fraction(3), "cup")
    assert double.ingredients[4] == Ingredient("salt")
    assert pancakes.ingredients[0].amount == Fraction(3, 2)


def test_scale_down_to_one():
    soup = Recipe("Soup", 6, (Ingredient("stock", Fraction(3, 2), "l"), Ingredient("onions", Fraction(2))))
    single = scale(soup, 1)
    assert [str(item) for item in single.ingredients] == ["1/4 l stock", "1/3 onions"]


def test_servings_must_be_positive(pancakes):
    with pytest.raises(ValueError):
        scale(pancakes, 0)
