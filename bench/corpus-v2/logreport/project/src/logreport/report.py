"""Reports as sections of tables, rendered as plain text or Markdown."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Optional, Sequence

from .parsing import Entry, ParseError
from .stats import requests_per_hour, summarize, top_paths


@dataclass
class Section:
    title: str
    headers: List[str]
    rows: List[List[str]]

    def numeric_columns(self) -> List[bool]:
        """Columns whose every cell looks like a number are right-aligned."""
        columns = []
        for index in range(len(self.headers)):
            cells = [row[index] for row in self.rows]
            columns.append(bool(cells) and all(_looks_numeric(cell) for cell in cells))
        return columns


def _looks_numeric(cell: str) -> bool:
    return cell.replace(",", "").replace(".", "", 1).rstrip("%").lstrip("-").isdigit()


def human_bytes(size: int) -> str:
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


class Report:
    def __init__(self, title: str, sections: Optional[List[Section]] = None):
        self.title = title
        self.sections: List[Section] = list(sections) if sections is not None else []

    def add(self, title: str, headers: Sequence[str], rows: Iterable[Sequence[object]]) -> Section:
        section = Section(title, list(headers), [[str(cell) for cell in row] for row in rows])
        self.sections.append(section)
        return section

    def to_text(self) -> str:
        lines = [self.title, "=" * len(self.title)]
        for section in self.sections:
            lines += ["", section.title, "-" * len(section.title)]
            widths = [len(header) for header in section.headers]
            for row in section.rows:
                widths = [max(width, len(cell)) for width, cell in zip(widths, row)]
            numeric = section.numeric_columns()

            def line(cells: Sequence[str]) -> str:
                padded = [
                    cell.rjust(width) if right else cell.ljust(width)
                    for cell, width, right in zip(cells, widths, numeric)
                ]
                return "  ".join(padded).rstrip()

            lines.append(line(section.headers))
            lines.append("  ".join("-" * width for width in widths))
            lines += [line(row) for row in section.rows]
        return "\n".join(lines) + "\n"

    def to_markdown(self) -> str:
        lines = [f"# {self.title}"]
        for section in self.sections:
            rule = ["---:" if right else "---" for right in section.numeric_columns()]
            lines += ["", f"## {section.title}", ""]
            lines.append("| " + " | ".join(section.headers) + " |")
            lines.append("| " + " | ".join(rule) + " |")
            lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in section.rows]
        return "\n".join(lines) + "\n"


def build_report(
    entries: Sequence[Entry], errors: Sequence[ParseError] = (), top: int = 5, title: str = "Traffic report"
) -> Report:
    summary = summarize(entries)
    p50, p95 = summary.get("p50_ms"), summary.get("p95_ms")
    report = Report(title)
    report.add(
        "Overview",
        ["metric", "value"],
        [
            ["requests", f"{summary['requests']:,}"],
            ["unique visitors", summary["visitors"]],
            ["traffic", human_bytes(summary["bytes"])],
            ["error rate", f"{summary['error_rate']:.1%}"],
            ["p50 / p95", "n/a" if p50 is None else f"{p50} ms / {p95} ms"],
            ["unparsed lines", len(errors)],
        ],
    )
    total = summary["requests"] or 1
    report.add(
        "Status codes",
        ["class", "requests", "share"],
        [[name, count, f"{count / total:.1%}"] for name, count in summary["status"].items()],
    )
    report.add("Top paths", ["path", "requests"], top_paths(entries, top))
    busiest = sorted(requests_per_hour(entries).items(), key=lambda item: item[1], reverse=True)[:3]
    report.add("Busiest hours (UTC)", ["hour", "requests"], [[f"{hour:%Y-%m-%d %H:00}", n] for hour, n in busiest])
    return report
