import pytest

from csvimport import Field, Schema, SchemaError
from csvimport.schema import normalize_header


@pytest.mark.parametrize(
    "header, key",
    [
        ("SKU", "sku"),
        (" Item code ", "item_code"),
        ("Unit Price (EUR)", "unit_price_eur"),
        ("qty.", "qty"),
    ],
    ids=["upper", "padded-alias", "punctuation", "trailing-dot"],
)
def test_normalize_header(header, key):
    assert normalize_header(header) == key


def test_map_columns_uses_aliases(schema):
    header = ["Item code", "Name", "Quantity", "Colour"]
    assert schema.map_columns(header) == {"sku": 0, "name": 1, "qty": 2}


def test_missing_required_columns(schema):
    with pytest.raises(SchemaError, match="missing required columns: name, qty"):
        schema.map_columns(["sku", "price"])


def test_two_columns_for_one_field(schema):
    with pytest.raises(SchemaError, match="both sku"):
        schema.map_columns(["SKU", "name", "qty", "Item Code"])


def test_alias_clash_is_rejected():
    with pytest.raises(SchemaError):
        Schema([Field("a", aliases=("B",)), Field("b")])


def test_schema_from_dict():
    schema = Schema.from_dict(
        {"fields": [{"name": "size", "type": "int", "required": True, "aliases": ["Size (cm)"]}]}
    )
    assert schema.fields == [Field("size", "int", required=True, aliases=("Size (cm)",))]
    assert schema.lookup("size (CM)").name == "size"


def test_convert_row_collects_errors(schema):
    row, errors = schema.convert_row({"sku": "A1", "name": "", "qty": "-1", "category": "food"}, 7)
    assert row["sku"] == "A1"
    assert [str(error) for error in errors] == [
        "line 7: name is required",
        "line 7: qty must be at least 0",
        "line 7: category must be one of tools, garden, paint, not 'food'",
    ]
