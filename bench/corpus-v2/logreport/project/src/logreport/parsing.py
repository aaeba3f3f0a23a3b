"""Parsing access-log lines: the combined log format plus an optional request time."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Tuple

_COMBINED = re.compile(
    r'^(?P<ip>\S+) \S+ (?P<user>\S+) \[(?P<time>[^\]]+)\] '
    r'"(?P<request>[^"]*)" (?P<status>\d{3}) (?P<size>\d+|-)'
    r'(?: "(?P<referrer>[^"]*)" "(?P<agent>[^"]*)")?'
    r'(?: (?P<duration>\d+))?\s*$'
)
_TIME_FORMAT = "%d/%b/%Y:%H:%M:%S %z"


class ParseError(ValueError):
    def __init__(self, line_no: int, line: str, reason: str):
        super().__init__(f"line {line_no}: {reason}: {line[:80]!r}")
        self.line_no = line_no
        self.line = line


@dataclass(frozen=True)
class Entry:
    ip: str
    user: Optional[str]
    time: datetime
    method: str
    path: str
    status: int
    size: int
    referrer: Optional[str] = None
    agent: Optional[str] = None
    duration_ms: Optional[int] = None

    @property
    def is_error(self) -> bool:
        return self.status >= 400


def _dash(value: Optional[str]) -> Optional[str]:
    return None if value in (None, "-", "") else value


def parse_line(line: str, line_no: int = 1) -> Entry:
    match = _COMBINED.match(line)
    if match is None:
        raise ParseError(line_no, line, "not in combined log format")
    try:
        moment = datetime.strptime(match.group("time"), _TIME_FORMAT)
    except ValueError:
        raise ParseError(line_no, line, "bad timestamp") from None
    request = match.group("request").split()
    if len(request) == 3:
        method, path, _protocol = request
    elif len(request) == 2:  # HTTP/0.9 style, no protocol
        method, path = request
    else:  # '-' for requests the server could not read
        method, path = "", ""
    duration = match.group("duration")
    return Entry(
        ip=match.group("ip"),
        user=_dash(match.group("user")),
        time=moment,
        method=method,
        path=path,
        status=int(match.group("status")),
        size=0 if match.group("size") == "-" else int(match.group("size")),
        referrer=_dash(match.group("referrer")),
        agent=_dash(match.group("agent")),
        duration_ms=int(duration) if duration is not None else None,
    )


def parse_lines(lines: Iterable[str]) -> Tuple[List[Entry], List[ParseError]]:
    """Parses every non-blank line; bad lines are returned as errors, not raised."""
    entries: List[Entry] = []
    errors: List[ParseError] = []
    for line_no, line in enumerate(lines, start=1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        try:
            entries.append(parse_line(line, line_no))
        except ParseError as error:
            errors.append(error)
    return entries, errors


def read_log(path, strict: bool = False) -> Tuple[List[Entry], List[ParseError]]:
    with Path(path).open(encoding="utf-8", errors="replace") as handle:
        entries, errors = parse_lines(handle)
    if strict and errors:
        raise errors[0]
    return entries, errors


def iter_paths(entries: Iterable[Entry]) -> Iterator[str]:
    """Paths without their query string."""
    for entry in entries:
        yield entry.path.split("?", 1)[0]
