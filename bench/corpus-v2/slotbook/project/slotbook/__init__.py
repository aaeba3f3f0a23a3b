"""Bookable resources (courts, rooms, desks) with opening hours, slots and booking rules."""

from .bookings import Booking, BookingError, Calendar, Resource
from .hours import HoursError, OpeningHours
from .rules import BookingRules
from .slots import Slot, generate_slots

__all__ = [
    "Booking",
    "BookingError",
    "BookingRules",
    "Calendar",
    "HoursError",
    "OpeningHours",
    "Resource",
    "Slot",
    "generate_slots",
]
