"""Weekly opening hours with closed days and special hours.

Config format:
    {"weekly": {"mon": "09:00-12:00, 13:00-18:00", "sat": "10:00-14:00", "sun": "closed"},
     "closed": ["2024-12-25"],
     "special": {"2024-12-24": "09:00-12:00"}}
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any, Dict, List, Mapping, Set, Tuple

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_RANGE = re.compile(r"^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$")

Interval = Tuple[time, time]


class HoursError(ValueError):
    pass


def parse_ranges(text: str) -> List[Interval]:
    """"09:00-12:00, 13:00-17:30" -> two intervals; "closed" or "" -> none."""
    text = text.strip().lower()
    if text in ("", "closed"):
        return []
    ranges = []
    for part in text.split(","):
        match = _RANGE.match(part.strip())
        if not match:
            raise HoursError(f"bad opening hours {part.strip()!r}")
        hour1, minute1, hour2, minute2 = (int(group) for group in match.groups())
        start, end = time(hour1, minute1), time(hour2, minute2)
        if end <= start:
            raise HoursError(f"opening hours end before they start: {part.strip()!r}")
        ranges.append((start, end))
    ranges.sort()
    for (_, first_end), (second_start, _) in zip(ranges, ranges[1:]):
        if second_start < first_end:
            raise HoursError(f"overlapping opening hours in {text!r}")
    return ranges


def format_ranges(ranges: List[Interval]) -> str:
    return ", ".join(f"{start:%H:%M}-{end:%H:%M}" for start, end in ranges) or "closed"


@dataclass
class OpeningHours:
    weekly: Dict[int, List[Interval]] = field(default_factory=dict)  # by date.weekday()
    closed: Set[date] = field(default_factory=set)
    special: Dict[date, List[Interval]] = field(default_factory=dict)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> "OpeningHours":
        weekly = {}
        for name, spec in config.get("weekly", {}).items():
            key = name.strip().lower()[:3]
            if key not in DAY_NAMES:
                raise HoursError(f"unknown day {name!r}")
            weekly[DAY_NAMES.index(key)] = parse_ranges(spec)
        closed = {date.fromisoformat(day) for day in config.get("closed", [])}
        special = {date.fromisoformat(day): parse_ranges(spec) for day, spec in config.get("special", {}).items()}
        return cls(weekly, closed, special)

    def intervals_on(self, day: date) -> List[Tuple[datetime, datetime]]:
        if day in self.closed:
            return []
        ranges = self.special[day] if day in self.special else self.weekly.get(day.weekday(), [])
        return [(datetime.combine(day, start), datetime.combine(day, end)) for start, end in ranges]

    def is_open(self, start: datetime, end: datetime) -> bool:
        """Whether start..end lies inside a single opening interval."""
        return any(opens <= start and end <= closes for opens, closes in self.intervals_on(start.date()))

    def to_config(self) -> Dict[str, Any]:
        return {
            "weekly": {DAY_NAMES[day]: format_ranges(ranges) for day, ranges in sorted(self.weekly.items())},
            "closed": sorted(day.isoformat() for day in self.closed),
            "special": {day.isoformat(): format_ranges(ranges) for day, ranges in sorted(self.special.items())},
        }
