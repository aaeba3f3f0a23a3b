from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import List, Optional

from .hours import OpeningHours


def overlaps(start1: datetime, end1: datetime, start2: datetime, end2: datetime) -> bool:
    """Half-open intervals: a booking ending at 10:00 does not overlap one starting at 10:00."""
    return start1 < end2 and start2 < end1


@dataclass(frozen=True)
class Slot:
    start: datetime
    end: datetime
    remaining: int = 1

    def __str__(self) -> str:
        return f"{self.start:%H:%M}-{self.end:%H:%M}"


def generate_slots(
    hours: OpeningHours, day: date, length: timedelta, step: Optional[timedelta] = None
) -> List[Slot]:
    """Slots of `length` inside each opening interval of `day`, one every `step`
    (back to back by default). A slot never runs past the end of its interval."""
    if length <= timedelta(0):
        raise ValueError("slot length must be positive")
    step = step or length
    slots = []
    for opens, closes in hours.intervals_on(day):
        start = opens
        while start + length <= closes:
            slots.append(Slot(start, start + length))
            start += step
    return slots
