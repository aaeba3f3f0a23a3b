from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Dict, Iterable, List, Optional

from .hours import OpeningHours
from .rules import BookingRules, check_request
from .slots import Slot, generate_slots, overlaps


class BookingError(Exception):
    pass


@dataclass(frozen=True)
class Resource:
    name: str
    capacity: int = 1  # people (or parties) that can book the same time


@dataclass
class Booking:
    id: str
    resource: str
    start: datetime
    end: datetime
    customer: str
    seats: int = 1
    status: str = "confirmed"


class Calendar:
    def __init__(
        self, hours: OpeningHours, resources: Iterable[Resource], rules: Optional[BookingRules] = None
    ) -> None:
        self.hours = hours
        self.rules = rules or BookingRules()
        self.resources: Dict[str, Resource] = {resource.name: resource for resource in resources}
        self._bookings: List[Booking] = []
        self._next_id = 1

    def _resource(self, name: str) -> Resource:
        try:
            return self.resources[name]
        except KeyError:
            raise BookingError(f"unknown resource {name!r}") from None

    def seats_taken(self, resource: str, start: datetime, end: datetime) -> int:
        return sum(
            booking.seats
            for booking in self._bookings
            if booking.resource == resource
            and booking.status == "confirmed"
            and overlaps(booking.start, booking.end, start, end)
        )

    def bookings(self, day: Optional[date] = None) -> List[Booking]:
        """Confirmed bookings (of one day), in time order."""
        chosen = [
            booking
            for booking in self._bookings
            if booking.status == "confirmed" and (day is None or booking.start.date() == day)
        ]
        return sorted(chosen, key=lambda booking: (booking.start, booking.resource))

    def book(
        self, resource: str, start: datetime, end: datetime, customer: str, now: datetime, seats: int = 1
    ) -> Booking:
        place = self._resource(resource)
        if seats < 1:
            raise BookingError("at least one seat must be booked")
        same_day = [
            booking
            for booking in self._bookings
            if booking.customer == customer
            and booking.start.date() == start.date()
            and booking.status == "confirmed"
        ]
        problems = check_request(self.rules, start, end, now, len(same_day))
        if not self.hours.is_open(start, end):
            problems.append("outside opening hours")
        taken = self.seats_taken(resource, start, end)
        if taken + seats > place.capacity:
            problems.append(f"only {place.capacity - taken} of {place.capacity} places left")
        if problems:
            raise BookingError("; ".join(problems))
        booking = Booking(f"B{self._next_id}", resource, start, end, customer, seats)
        self._next_id += 1
        self._bookings.append(booking)
        return booking

    def get(self, booking_id: str) -> Booking:
        for booking in self._bookings:
            if booking.id == booking_id:
                return booking
        raise BookingError(f"no booking {booking_id}")

    def cancel(self, booking_id: str, now: datetime) -> Booking:
        booking = self.get(booking_id)
        if booking.status == "cancelled":
            raise BookingError(f"{booking_id} is already cancelled")
        if booking.start - now < self.rules.cancel_until:
            raise BookingError(f"{booking_id} can no longer be cancelled")
        booking.status = "cancelled"
        return booking

    def available(
        self, resource: str, day: date, length: timedelta, step: Optional[timedelta] = None
    ) -> List[Slot]:
        """Slots of `resource` on `day` with at least one place left."""
        place = self._resource(resource)
        free = []
        for slot in generate_slots(self.hours, day, length, step):
            left = place.capacity - self.seats_taken(resource, slot.start, slot.end)
            if left > 0:
                free.append(Slot(slot.start, slot.end, left))
        return free
