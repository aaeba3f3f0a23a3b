from csvimport import import_csv
from csvimport.report import summary, write_rejects

DATA = (
    "sku,name,qty,category\n"
    "A,Anvil,1,tools\n"
    "B,Bucket,-2,garden\n"
    "C,,x,food\n"
    "D,Drill,4,tools\n"
)


def test_summary(schema, write):
    result = import_csv(write("data.csv", DATA), schema)
    assert summary(result, limit=2) == (
        "2 rows imported, 2 rejected\n"
        "errors by field: qty (2), category (1), name (1)\n"
        "  line 3: qty must be at least 0\n"
        "  line 4: name is required\n"
        "  ... and 2 more"
    )


def test_summary_without_errors(schema, write):
    result = import_csv(write("data.csv", "sku,name,qty\nA,Anvil,1\n"), schema)
    assert summary(result) == "1 rows imported, 0 rejected"


def test_write_rejects(schema, write, tmp_path):
    source = write("data.csv", DATA)
    result = import_csv(source, schema)
    target = tmp_path / "rejects.csv"
    assert write_rejects(source, result, target) == 2
    assert target.read_text().splitlines() == ["sku,name,qty,category", "B,Bucket,-2,garden", "C,,x,food"]
