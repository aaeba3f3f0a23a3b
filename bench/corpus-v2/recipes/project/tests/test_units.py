import pytest

from recipes import ConversionError, convert, lookup
from recipes.units import metric_display


@pytest.mark.parametrize(
    "name, unit",
    [("Tablespoons", "tbsp"), ("cups", "cup"), ("g", "g"), ("Lbs.", "lb"), ("fluid ounces", "fl oz"), ("handful", None)],
    ids=["tablespoons", "cups", "grams", "lbs", "fluid-ounces", "unknown"],
)
def test_lookup(name, unit):
    found = lookup(name)
    assert (found.name if found else None) == unit


@pytest.mark.parametrize(
    "amount, source, target, expected",
    [
        (1, "kg", "g", 1000),
        (1, "lb", "oz", 16),
        (3, "tsp", "tbsp", 1),
        (2, "cup", "pint", 1),
        (1, "l", "cup", 4.226753),
    ],
    ids=["kg-g", "lb-oz", "tsp-tbsp", "cup-pint", "litre-cups"],
)
def test_same_kind(amount, source, target, expected):
    assert convert(amount, source, target) == pytest.approx(expected)


def test_us_fluid_ounces():
    assert convert(8, "fl oz", "cup") == pytest.approx(1)


def test_volume_to_mass_needs_density():
    assert convert(1, "cup", "g", "flour") == pytest.approx(125.39, abs=0.01)
    with pytest.raises(ConversionError, match="gravel"):
        convert(1, "cup", "g", "gravel")


def test_count_does_not_convert():
    with pytest.raises(ConversionError):
        convert(2, "", "g", "water")


def test_metric_display():
    assert metric_display(1500, "mass") == (1.5, "kg")
    assert metric_display(250, "volume") == (250, "ml")
    assert metric_display(3, "count") == (3, "")
