"""iCalendar (RFC 5545) export of shifts, for staff calendars."""
from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Iterable, List

from .roster import Shift

_STAMP = "%Y%m%dT%H%M%S"


def escape_text(value: str) -> str:
    """TEXT values: backslash, semicolon, comma and newline are escaped."""
    return (
        value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")
    )


def fold(line: str, limit: int = 75) -> List[str]:
    """Splits a content line into pieces of at most `limit` octets; continuations start with a space."""
    pieces: List[str] = []
    current = ""
    for char in line:
        width = len(char.encode("utf-8"))
        budget = limit if not pieces else limit - 1
        if len(current.encode("utf-8")) + width > budget:
            pieces.append(current)
            current = ""
        current += char
    pieces.append(current)
    return [pieces[0]] + [" " + piece for piece in pieces[1:]]


def shift_uid(shift: Shift) -> str:
    digest = hashlib.sha1(f"{shift.person}|{shift.role}|{shift.start.isoformat()}".encode("utf-8")).hexdigest()
    return f"{digest[:16]}@shiftplan"


def to_ics(shifts: Iterable[Shift], name: str, stamp: datetime) -> str:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//shiftplan//EN", f"X-WR-CALNAME:{escape_text(name)}"]
    for shift in sorted(shifts):
        summary = f"{shift.role}: {shift.person}" if shift.role else shift.person
        lines += [
            "BEGIN:VEVENT",
            f"UID:{shift_uid(shift)}",
            f"DTSTAMP:{stamp.strftime(_STAMP)}",
            f"DTSTART:{shift.start.strftime(_STAMP)}",
            f"DTEND:{shift.end.strftime(_STAMP)}",
            f"SUMMARY:{escape_text(summary)}",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "".join(piece + "\r\n" for line in lines for piece in fold(line))
