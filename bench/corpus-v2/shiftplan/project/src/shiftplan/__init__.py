"""Shift rosters for a clinic: working days, recurring shifts, rest-time rules, iCalendar export."""
from .recurrence import Rule, occurrences, parse_rule
from .roster import Roster, RosterError, Shift
from .workdays import HolidayCalendar, easter_sunday, parse_holidays

__all__ = [
    "HolidayCalendar",
    "Roster",
    "RosterError",
    "Rule",
    "Shift",
    "easter_sunday",
    "occurrences",
    "parse_holidays",
    "parse_rule",
]
