"""Bookings as an iCalendar feed and as a printable day agenda."""

from __future__ import annotations

from datetime import date, datetime
from typing import Iterable, List

from .bookings import Booking, Calendar


def _ics_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _ics_time(moment: datetime) -> str:
    return moment.strftime("%Y%m%dT%H%M%S")


def to_ics(bookings: Iterable[Booking], name: str = "Bookings") -> str:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//slotbook//EN", f"X-WR-CALNAME:{_ics_text(name)}"]
    for booking in bookings:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{booking.id}@slotbook",
            f"DTSTART:{_ics_time(booking.start)}",
            f"DTEND:{_ics_time(booking.end)}",
            f"SUMMARY:{_ics_text(f'{booking.resource}, {booking.customer}')}",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"


def agenda(calendar: Calendar, day: date) -> str:
    """One line per booking of the day: "09:00-10:00  Court 1  Ann (2)"."""
    lines: List[str] = [f"{day:%A %d %B %Y}"]
    for booking in calendar.bookings(day):
        seats = f" ({booking.seats})" if booking.seats > 1 else ""
        lines.append(f"{booking.start:%H:%M}-{booking.end:%H:%M}  {booking.resource}  {booking.customer}{seats}")
    if len(lines) == 1:
        lines.append("no bookings")
    return "\n".join(lines)


def utilisation(calendar: Calendar, resource: str, day: date) -> float:
    """Booked place-minutes over available place-minutes of `resource` on `day`."""
    capacity = calendar.resources[resource].capacity
    open_minutes = sum((closes - opens).total_seconds() / 60 for opens, closes in calendar.hours.intervals_on(day))
    if open_minutes == 0:
        return 0.0
    booked = sum(
        booking.seats * (booking.end - booking.start).total_seconds() / 60
        for booking in calendar.bookings(day)
        if booking.resource == resource
    )
    return booked / (open_minutes * capacity)
