"""Human-readable summaries of an import, and a file of the rejected lines."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path
from typing import List, Union

from .loader import ImportResult


def summary(result: ImportResult, limit: int = 5) -> str:
    """A short report: counts, errors per field (most frequent first), the first errors."""
    lines = [f"{len(result.rows)} rows imported, {len(set(result.rejected_lines))} rejected"]
    if result.errors:
        counts = Counter(error.field for error in result.errors)
        per_field = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        lines.append("errors by field: " + ", ".join(f"{name} ({count})" for name, count in per_field))
        lines.extend(f"  {error}" for error in result.errors[:limit])
        if len(result.errors) > limit:
            lines.append(f"  ... and {len(result.errors) - limit} more")
    return "\n".join(lines)


def write_rejects(source: Union[str, Path], result: ImportResult, target: Union[str, Path]) -> int:
    """Copies the header and every rejected line of a CSV file to `target`; returns the count."""
    rejected = set(result.rejected_lines)
    with open(source, newline="", encoding="utf-8-sig") as handle:
        rows: List[List[str]] = list(csv.reader(handle))
    with open(target, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(rows[0])
        kept = [row for line, row in enumerate(rows[1:], start=2) if line in rejected]
        writer.writerows(kept)
    return len(kept)
