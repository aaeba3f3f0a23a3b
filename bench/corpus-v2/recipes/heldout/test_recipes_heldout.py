from fractions import Fraction

import pytest

from recipes import Ingredient, Recipe, convert, load_recipe, scale, shopping_list
from recipes.recipe import parse_recipe


@pytest.mark.parametrize(
    "amount, source, target, expected",
    [
        (1, "fl oz", "ml", 29.5735),
        (16, "fl oz", "pint", 1.0),
        (1, "fl oz", "tbsp", 2.0),
        (250, "ml", "fl oz", 8.4535),
    ],
    ids=["floz-ml", "floz-pint", "floz-tbsp", "ml-floz"],
)
def test_fluid_ounces(amount, source, target, expected):
    assert convert(amount, source, target) == pytest.approx(expected, rel=1e-4)


@pytest.mark.parametrize(
    "amount, source, target, ingredient, expected",
    [
        (1, "cup", "g", "sugar", 201.1),
        (500, "g", "cup", "flour", 3.9875),
        (1, "tbsp", "g", "honey", 20.997),
        (1, "kg", "l", "milk", 0.97087),
        (1, "lb", "cup", "butter", 1.9971),
        (250, "ml", "g", "water", 250.0),
    ],
    ids=["sugar", "flour", "honey", "milk", "butter", "water"],
)
def test_density_conversions(amount, source, target, ingredient, expected):
    assert convert(amount, source, target, ingredient) == pytest.approx(expected, rel=1e-3)


def test_shopping_with_fluid_ounces_and_grams():
    shake = Recipe("Shake", 1, (Ingredient("milk", Fraction(8), "fl oz"), Ingredient("honey", Fraction(1), "tbsp")))
    assert shopping_list([(shake, 2)]) == ["41.99 g honey", "487.37 g milk"]


def test_scale_returns_a_new_recipe():
    soup = Recipe("Soup", 4, (Ingredient("stock", Fraction(1), "l"), Ingredient("pepper")))
    bigger = scale(soup, 10)
    assert bigger is not soup
    assert (bigger.servings, bigger.ingredients[0].amount) == (10, Fraction(5, 2))
    assert soup.servings == 4 and soup.ingredients[0].amount == 1
    assert scale(soup, 4) == soup


@pytest.mark.parametrize("servings", [1, 3, 12])
def test_servings_from_header(servings):
    recipe = parse_recipe(f"# Rice\nServes: {servings}\n## Ingredients\n- 75 g rice\n")
    assert recipe.servings == servings
    assert shopping_list([(recipe, 6)]) == [f"{75 * 6 / servings:g} g rice"]


def test_servings_default_to_one(tmp_path):
    path = tmp_path / "tea.md"
    path.write_text("# Tea\n## Ingredients\n- 250 ml water\n", encoding="utf-8")
    assert load_recipe(path).servings == 1


@pytest.mark.parametrize(
    "servings, eggs",
    [(1, "1 eggs"), (3, "1 eggs"), (5, "2 eggs"), (9, "3 eggs")],
    ids=["quarter", "three-quarters", "one-and-a-quarter", "two-and-a-quarter"],
)
def test_count_items_round_up(servings, eggs):
    frittata = Recipe("Frittata", 4, (Ingredient("eggs", Fraction(1)),))
    assert shopping_list([(frittata, servings)]) == [eggs]


@pytest.mark.parametrize(
    "base, kind, expected",
    [(1000, "mass", (1, "kg")), (999, "mass", (999, "g")), (2500, "volume", (2.5, "l")), (0.5, "volume", (0.5, "ml"))],
    ids=["one-kilo", "just-under", "litres", "half-ml"],
)
def test_metric_display_units(base, kind, expected):
    from recipes.units import metric_display

    assert metric_display(base, kind) == expected


def test_big_batch_shopping_list():
    stew = Recipe("Stew", 4, (Ingredient("stock", Fraction(1), "l"), Ingredient("beef", Fraction(800), "g")))
    assert shopping_list([(stew, 10)]) == ["2 kg beef", "2.5 l stock"]
