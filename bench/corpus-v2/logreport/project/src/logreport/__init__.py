"""Traffic reports from web server access logs (combined log format)."""
from .filters import parse_filter
from .parsing import Entry, ParseError, parse_line, read_log
from .report import Report, Section, build_report
from .stats import percentile, summarize

__all__ = [
    "Entry",
    "ParseError",
    "Report",
    "Section",
    "build_report",
    "parse_filter",
    "parse_line",
    "percentile",
    "read_log",
    "summarize",
]
