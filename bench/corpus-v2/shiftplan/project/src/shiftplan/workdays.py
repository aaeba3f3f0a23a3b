"""Working days: weekends, public holidays, and counting business days."""
from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Dict, Iterable, Optional, Tuple

SATURDAY, SUNDAY = 5, 6  # date.weekday() numbering: Monday is 0

_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_EUROPEAN = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")


def easter_sunday(year: int) -> date:
    """Gregorian Easter (anonymous Gregorian algorithm)."""
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7  # noqa: E741
    m = (a + 11 * h + 22 * l) // 451
    month, day = divmod(h + l - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _parse_day(text: str) -> date:
    iso = _ISO.match(text)
    if iso:
        year, month, day = (int(part) for part in iso.groups())
        return date(year, month, day)
    european = _EUROPEAN.match(text)
    if european:
        day, month, year = (int(part) for part in european.groups())
        return date(year, month, day)
    raise ValueError(f"not a date: {text!r}")


def parse_holidays(text: str) -> Dict[date, str]:
    """Lines of '<date> <name>' (ISO 2024-12-25 or European 25.12.2024); '#' starts a comment."""
    holidays: Dict[date, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        day_text, _, name = line.partition(" ")
        try:
            day = _parse_day(day_text)
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from None
        holidays[day] = name.strip() or "holiday"
    return holidays


class HolidayCalendar:
    def __init__(self, holidays: Optional[Dict[date, str]] = None, weekend: Iterable[int] = (SATURDAY, SUNDAY)):
        self.holidays: Dict[date, str] = dict(holidays or {})
        self.weekend: Tuple[int, ...] = tuple(sorted(set(weekend)))
        if len(self.weekend) >= 7:
            raise ValueError("a week needs at least one working day")

    def with_easter(self, year: int) -> "HolidayCalendar":
        """Adds Good Friday and Easter Monday of `year`."""
        sunday = easter_sunday(year)
        self.holidays[sunday - timedelta(days=2)] = "Good Friday"
        self.holidays[sunday + timedelta(days=1)] = "Easter Monday"
        return self

    def is_workday(self, day: date) -> bool:
        return day.weekday() not in self.weekend and day not in self.holidays

    def next_workday(self, day: date) -> date:
        """`day` itself if it is a working day, else the first one after it."""
        while not self.is_workday(day):
            day += timedelta(days=1)
        return day

    def add_workdays(self, day: date, count: int) -> date:
        """Moves `count` working days forward (or backward when negative)."""
        step = timedelta(days=1 if count >= 0 else -1)
        remaining = abs(count)
        while remaining:
            day += step
            if self.is_workday(day):
                remaining -= 1
        return day

    def workdays_between(self, start: date, end: date) -> int:
        """Working days in [start, end], both ends included; 0 when end < start."""
        count = 0
        day = start
        while day <= end:
            if self.is_workday(day):
                count += 1
            day += timedelta(days=1)
        return count
