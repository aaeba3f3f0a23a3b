"""Aggregates over parsed log entries."""
from __future__ import annotations

import math
from collections import Counter
from datetime import datetime, timezone
from typing import Dict, Iterable, List, Sequence, Tuple

from .parsing import Entry, iter_paths


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile: the smallest value with at least q% of the values at or below it."""
    if not values:
        raise ValueError("percentile of no values")
    if not 0 < q <= 100:
        raise ValueError(f"q must be in (0, 100], got {q}")
    ordered = sorted(values)
    rank = math.ceil(q / 100 * len(ordered))
    return ordered[rank - 1]


def status_classes(entries: Iterable[Entry]) -> Dict[str, int]:
    counts = Counter(f"{entry.status // 100}xx" for entry in entries)
    return dict(sorted(counts.items()))


def top_paths(entries: Iterable[Entry], n: int = 5) -> List[Tuple[str, int]]:
    """Most requested paths (query strings ignored); ties keep first-seen order."""
    return Counter(iter_paths(entries)).most_common(n)


def requests_per_hour(entries: Iterable[Entry]) -> Dict[datetime, int]:
    """Requests per UTC hour, in chronological order."""
    counts: Counter = Counter()
    for entry in entries:
        hour = entry.time.astimezone(timezone.utc).replace(minute=0, second=0, microsecond=0)
        counts[hour] += 1
    return dict(sorted(counts.items()))


def summarize(entries: Sequence[Entry]) -> Dict[str, object]:
    durations = [entry.duration_ms for entry in entries if entry.duration_ms is not None]
    errors = sum(1 for entry in entries if entry.is_error)
    return {
        "requests": len(entries),
        "visitors": len({(entry.ip, entry.agent) for entry in entries}),
        "bytes": sum(entry.size for entry in entries),
        "error_rate": errors / len(entries) if entries else 0.0,
        "status": status_classes(entries),
        "p50_ms": percentile(durations, 50) if durations else None,
        "p95_ms": percentile(durations, 95) if durations else None,
    }
