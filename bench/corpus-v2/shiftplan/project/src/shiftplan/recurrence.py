"""Recurring shifts: a subset of iCalendar RRULEs (DAILY, WEEKLY with BYDAY, MONTHLY)."""
from __future__ import annotations

from calendar import monthrange
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Iterator, Optional, Tuple

WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
FREQUENCIES = ("DAILY", "WEEKLY", "MONTHLY")


@dataclass(frozen=True)
class Rule:
    freq: str
    interval: int = 1
    byday: Tuple[int, ...] = ()
    count: Optional[int] = None
    until: Optional[date] = None  # inclusive, as in RFC 5545


def parse_rule(text: str) -> Rule:
    """'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=6' -> Rule; UNTIL is YYYYMMDD."""
    parts = {}
    for part in text.strip().strip(";").split(";"):
        try:
            key, value = part.split("=", 1)
        except ValueError:
            raise ValueError(f"expected KEY=VALUE, got {part!r}") from None
        parts[key.strip().upper()] = value.strip()
    freq = parts.pop("FREQ", "").upper()
    if freq not in FREQUENCIES:
        raise ValueError(f"FREQ must be one of {', '.join(FREQUENCIES)}")
    interval = int(parts.pop("INTERVAL", "1"))
    if interval < 1:
        raise ValueError("INTERVAL must be at least 1")
    byday: Tuple[int, ...] = ()
    if "BYDAY" in parts:
        names = parts.pop("BYDAY").upper().split(",")
        unknown = [name for name in names if name not in WEEKDAYS]
        if unknown:
            raise ValueError(f"unknown weekday {', '.join(unknown)}")
        byday = tuple(sorted({WEEKDAYS.index(name) for name in names}))
    count = int(parts.pop("COUNT")) if "COUNT" in parts else None
    until = datetime.strptime(parts.pop("UNTIL"), "%Y%m%d").date() if "UNTIL" in parts else None
    if parts:
        raise ValueError(f"unsupported rule parts: {', '.join(sorted(parts))}")
    if count is not None and until is not None:
        raise ValueError("COUNT and UNTIL cannot be combined")
    return Rule(freq, interval, byday, count, until)


def _add_months(start: datetime, months: int) -> datetime:
    """Same day of month `months` later, clamped to the month's last day (Jan 31 -> Feb 29)."""
    year, month = divmod(start.year * 12 + start.month - 1 + months, 12)
    last_day = monthrange(year, month + 1)[1]
    return start.replace(year=year, month=month + 1, day=min(start.day, last_day))


def _candidates(rule: Rule, start: datetime) -> Iterator[datetime]:
    step = 0
    if rule.freq == "DAILY":
        while True:
            yield start + timedelta(days=step * rule.interval)
            step += 1
    elif rule.freq == "WEEKLY":
        days = rule.byday or (start.weekday(),)
        monday = start - timedelta(days=start.weekday())
        while True:
            week = monday + timedelta(weeks=step * rule.interval)
            for weekday in days:
                candidate = week + timedelta(days=weekday)
                if candidate >= start:
                    yield candidate
            step += 1
    else:
        while True:
            yield _add_months(start, step * rule.interval)
            step += 1


def occurrences(rule: Rule, start: datetime, end: Optional[datetime] = None) -> Iterator[datetime]:
    """Start times from `start` on, until COUNT, UNTIL or `end` (exclusive) stops them."""
    if end is None and rule.count is None and rule.until is None:
        raise ValueError("an unbounded rule needs an end")
    produced = 0
    for candidate in _candidates(rule, start):
        if end is not None and candidate >= end:
            return
        if rule.until is not None and candidate.date() > rule.until:
            return
        if rule.count is not None and produced >= rule.count:
            return
        produced += 1
        yield candidate
