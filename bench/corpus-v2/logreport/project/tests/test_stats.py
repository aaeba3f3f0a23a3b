from datetime import datetime, timezone

import pytest

from logreport import percentile, summarize
from logreport.stats import requests_per_hour, status_classes, top_paths


@pytest.mark.parametrize(
    "q, expected",
    [(20, 10), (50, 30), (60, 30), (100, 50)],
)
def test_percentile_nearest_rank(q, expected):
    assert percentile([50, 10, 40, 20, 30], q) == expected


@pytest.mark.parametrize("values, q", [([], 50), ([1], 0), ([1], 101)])
def test_percentile_rejects(values, q):
    with pytest.raises(ValueError):
        percentile(values, q)


def test_status_classes(entries):
    assert status_classes(entries) == {"2xx": 5, "3xx": 1, "4xx": 2, "5xx": 2}


def test_top_paths_ignore_query_strings(entries):
    assert top_paths(entries, 2) == [("/api/orders", 4), ("/", 2)]


def test_requests_per_hour_in_utc(entries):
    hours = requests_per_hour(entries)
    assert list(hours.items())[:2] == [
        (datetime(2024, 3, 12, 8, tzinfo=timezone.utc), 2),
        (datetime(2024, 3, 12, 9, tzinfo=timezone.utc), 2),
    ]
    assert hours[datetime(2024, 3, 12, 11, tzinfo=timezone.utc)] == 2


def test_summarize(entries):
    summary = summarize(entries)
    assert summary["requests"] == 10
    assert summary["visitors"] == 6
    assert summary["bytes"] == 30566
    assert summary["error_rate"] == pytest.approx(0.4)
    assert (summary["p50_ms"], summary["p95_ms"]) == (30, 950)
