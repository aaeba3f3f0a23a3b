"""Shifts and the roster: overlaps, rest time between shifts, weekly hour limits, coverage."""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Dict, List, Optional, Tuple

from .recurrence import Rule, occurrences
from .workdays import HolidayCalendar


@dataclass(frozen=True, order=True)
class Shift:
    start: datetime
    end: datetime
    person: str = ""
    role: str = ""

    @classmethod
    def on(cls, day: date, start: str, end: str, person: str = "", role: str = "") -> "Shift":
        """A shift on `day` from 'HH:MM' to 'HH:MM'; an end at or before the start is the next day."""
        begin = datetime.combine(day, time.fromisoformat(start))
        finish = datetime.combine(day, time.fromisoformat(end))
        if finish <= begin:
            finish += timedelta(days=1)
        return cls(begin, finish, person, role)

    @property
    def hours(self) -> float:
        return (self.end - self.start).total_seconds() / 3600

    def overlaps(self, other: "Shift") -> bool:
        return self.start < other.end and other.start < self.end


def iso_week(moment: datetime) -> Tuple[int, int]:
    """(ISO year, ISO week): 2024-12-30 is in week 1 of 2025."""
    year, week, _ = moment.isocalendar()
    return year, week


class RosterError(ValueError):
    """A shift that breaks a rule of the roster."""


class Roster:
    def __init__(
        self,
        calendar: Optional[HolidayCalendar] = None,
        min_rest: timedelta = timedelta(hours=11),
        max_week_hours: float = 48,
    ):
        self.calendar = calendar or HolidayCalendar()
        self.min_rest = min_rest
        self.max_week_hours = max_week_hours
        self.shifts: List[Shift] = []

    def of(self, person: str) -> List[Shift]:
        return [shift for shift in self.shifts if shift.person == person]

    def check(self, shift: Shift) -> None:
        """Raises RosterError if `shift` cannot be added for its person."""
        mine = self.of(shift.person)
        for other in mine:
            if other.overlaps(shift):
                raise RosterError(f"{shift.person} already works {other.start:%Y-%m-%d %H:%M}-{other.end:%H:%M}")
            gap = shift.start - other.end if other.end <= shift.start else other.start - shift.end
            if gap < self.min_rest:
                raise RosterError(f"{shift.person} gets only {gap} of rest next to {other.start:%Y-%m-%d %H:%M}")
        week = iso_week(shift.start)
        hours = shift.hours + sum(other.hours for other in mine if iso_week(other.start) == week)
        if hours > self.max_week_hours:
            raise RosterError(f"{shift.person} would work {hours:g}h in week {week[1]} of {week[0]}")

    def assign(self, shift: Shift) -> Shift:
        self.check(shift)
        bisect.insort(self.shifts, shift)
        return shift

    def plan(self, rule: Rule, first: Shift, until: Optional[date] = None) -> List[Shift]:
        """Repeats `first` by `rule`, skipping days off. All or nothing: on a conflict
        nothing is assigned and the RosterError names the failing day."""
        length = first.end - first.start
        end = datetime.combine(until + timedelta(days=1), time()) if until else None
        planned: List[Shift] = []
        for start in occurrences(rule, first.start, end):
            if not self.calendar.is_workday(start.date()):
                continue
            planned.append(Shift(start, start + length, first.person, first.role))
        added: List[Shift] = []
        try:
            for shift in planned:
                added.append(self.assign(shift))
        except RosterError:
            for shift in added:
                self.shifts.remove(shift)
            raise
        return added

    def hours_by_person(self, week: Tuple[int, int]) -> Dict[str, float]:
        totals: Dict[str, float] = {}
        for shift in self.shifts:
            if iso_week(shift.start) == week:
                totals[shift.person] = totals.get(shift.person, 0.0) + shift.hours
        return dict(sorted(totals.items()))

    def coverage_gaps(self, day: date, opening: str, closing: str, role: str) -> List[Tuple[datetime, datetime]]:
        """Stretches of `day`'s opening hours without anyone of `role` on shift."""
        window = Shift.on(day, opening, closing)
        cursor = window.start
        gaps: List[Tuple[datetime, datetime]] = []
        for shift in sorted(s for s in self.shifts if s.role == role and s.overlaps(window)):
            if shift.start > cursor:
                gaps.append((cursor, shift.start))
            cursor = max(cursor, shift.end)
        if cursor < window.end:
            gaps.append((cursor, window.end))
        return gaps
