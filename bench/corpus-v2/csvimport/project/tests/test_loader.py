from datetime import date
from decimal import Decimal

import pytest

from csvimport import ImportAborted, SchemaError, import_csv, import_json

def test_import_typed_rows(schema, write):
    path = write("ok.csv", "SKU,Name,Quantity,Unit Price (EUR),Active\nH-100,Claw hammer,12,14.90,yes\n")
    result = import_csv(path, schema)
    assert result.ok
    assert result.rows == [
        {
            "sku": "H-100",
            "name": "Claw hammer",
            "qty": 12,
            "price": Decimal("14.90"),
            "active": True,
            "category": "tools",
            "added": date(2024, 1, 1),
        }
    ]


def test_errors_carry_file_line_numbers(schema, write):
    path = write(
        "bad.csv",
        "sku,name,qty\n"
        "A,first,1\n"
        "B,second,many\n"
        "C,third,3\n"
        "D,,4\n",
    )
    result = import_csv(path, schema)
    assert [row["sku"] for row in result.rows] == ["A", "C"]
    assert [str(error) for error in result.errors] == [
        "line 3: qty not a whole number: 'many'",
        "line 5: name is required",
    ]


def test_blank_lines_are_skipped(schema, write):
    path = write("gaps.csv", "sku,name,qty\nA,first,1\n\n,,\nB,second,2\n\n")
    result = import_csv(path, schema)
    assert result.ok
    assert len(result.rows) == 2


def test_semicolon_files_with_quoted_numbers(schema, write):
    path = write("semi.csv", 'sku;name;qty;price\nP-1;Paint;"1,500";"2,345.50"\n')
    result = import_csv(path, schema, delimiter=";")
    assert (result.rows[0]["qty"], result.rows[0]["price"]) == (1500, Decimal("2345.50"))


def test_duplicate_keys_are_rejected(schema, write):
    path = write("dupes.csv", "sku,name,qty\nA,first,1\nB,second,2\nA,again,3\n")
    result = import_csv(path, schema, unique=["sku"])
    assert [row["name"] for row in result.rows] == ["first", "second"]
    assert [str(error) for error in result.errors] == ["line 4: sku duplicates line 2"]


def test_max_errors_aborts(schema, write):
    path = write("worse.csv", "sku,name,qty\nA,,x\nB,b,2\nC,,\n")
    with pytest.raises(ImportAborted) as info:
        import_csv(path, schema, max_errors=3)
    assert info.value.result.rejected_lines == [2, 4]


def test_missing_columns_stop_the_import(schema, write):
    with pytest.raises(SchemaError):
        import_csv(write("cols.csv", "sku,title\nA,b\n"), schema)


def test_import_json_records(schema, write):
    path = write(
        "items.json",
        '[{"SKU": "J-1", "name": "Jar", "Quantity": 4, "active": false, "price": 2.5},'
        ' {"sku": "J-2", "name": "Jug", "qty": null}]',
    )
    result = import_json(path, schema)
    assert result.rows == [
        {
            "sku": "J-1",
            "name": "Jar",
            "qty": 4,
            "price": Decimal("2.5"),
            "active": False,
            "category": "tools",
            "added": date(2024, 1, 1),
        }
    ]
    assert [str(error) for error in result.errors] == ["line 2: qty is required"]


def test_json_must_be_a_list_of_objects(schema, write):
    with pytest.raises(SchemaError):
        import_json(write("obj.json", '{"sku": "x"}'), schema)
