from fractions import Fraction

from recipes import Ingredient, Recipe, load_recipe, shopping_list

OMELETTE = Recipe(
    "Omelette",
    1,
    (
        Ingredient("eggs", Fraction(3)),
        Ingredient("butter", Fraction(1), "tbsp"),
        Ingredient("milk", Fraction(2), "tbsp"),
        Ingredient("salt"),
    ),
)
CAKE = Recipe(
    "Cake",
    8,
    (
        Ingredient("flour", Fraction(2), "cup"),
        Ingredient("butter", Fraction(200), "g"),
        Ingredient("eggs", Fraction(4)),
        Ingredient("vanilla extract", Fraction(1), "tsp"),
    ),
)


def test_amounts_add_up_across_recipes():
    assert shopping_list([(OMELETTE, 2), (CAKE, 8)]) == [
        "228.39 g butter",
        "10 eggs",
        "250.78 g flour",
        "60.92 g milk",
        "4.93 ml vanilla extract",
        "salt (to taste)",
    ]


def test_pantry_is_subtracted():
    pantry = {"eggs": (6, ""), "flour": (1, "kg"), "butter": (100, "g")}
    assert shopping_list([(CAKE, 8)], pantry) == ["100 g butter", "4.93 ml vanilla extract"]


def test_partial_eggs_are_rounded_up():
    # 1.5 eggs for the cake and 3 for the omelette
    assert shopping_list([(CAKE, 3), (OMELETTE, 1)])[1] == "5 eggs"


def test_recipe_file_to_shopping_list(tmp_path):
    path = tmp_path / "crepes.md"
    path.write_text("# Crêpes\nServes: 2\n\n## Ingredients\n- 2 eggs\n- 250 ml milk\n- 1 kg flour\n", encoding="utf-8")
    crepes = load_recipe(path)
    assert shopping_list([(crepes, 6)]) == ["6 eggs", "3 kg flour", "772.5 g milk"]
