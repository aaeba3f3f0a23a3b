from decimal import Decimal

import pytest

from invoicing import Customer, TaxTable, UnknownRegion


@pytest.mark.parametrize(
    "country, region, expected",
    [("US", "CA", "US-CA"), ("US", "NY", "US-NY"), ("DE", "", "DE"), ("DE", "BY", "DE")],
)
def test_jurisdiction(table, country, region, expected):
    assert table.jurisdiction(Customer("x", "X", country, region)) == expected


def test_unknown_region(table):
    with pytest.raises(UnknownRegion, match="US TX"):
        table.rate(Customer("x", "X", "US", "TX"), "standard")


def test_category_rates(table, acme, berlin):
    assert table.rate(acme, "food") == Decimal("0")
    assert table.rate(berlin, "reduced") == Decimal("0.07")


def test_exempt_customer_pays_nothing(table):
    charity = Customer("C-9", "Food Bank", "US", "CA", tax_exempt=True)
    assert table.rate(charity, "standard") == 0


def test_rates_from_json(tmp_path):
    path = tmp_path / "rates.json"
    path.write_text('{"NL": {"standard": 0.21, "reduced": "0.09"}}')
    table = TaxTable.from_json(path)
    assert table.rate(Customer("x", "X", "NL"), "standard") == Decimal("0.21")
