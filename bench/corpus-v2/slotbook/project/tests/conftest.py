from datetime import datetime

import pytest

from slotbook import BookingRules, Calendar, OpeningHours, Resource

HOURS = {
    "weekly": {
        "Monday": "09:00-12:00, 13:00-18:00",
        "tue": "09:00-12:00, 13:00-18:00",
        "wed": "09:00-12:00, 13:00-18:00",
        "thu": "09:00-12:00, 13:00-18:00",
        "fri": "09:00-12:00, 13:00-18:00",
        "sat": "10:00-14:00",
        "sun": "closed",
    },
    "closed": ["2024-05-01"],
    "special": {"2024-05-09": "10:00-12:00"},
}


@pytest.fixture
def hours():
    return OpeningHours.from_config(HOURS)


@pytest.fixture
def now():
    """Monday 29 April 2024, 08:00."""
    return datetime(2024, 4, 29, 8, 0)


@pytest.fixture
def calendar(hours):
    return Calendar(hours, [Resource("Court 1"), Resource("Yoga room", capacity=3)], BookingRules())


def at(day, hour, minute=0):
    """A datetime in the first week of May 2024 (day 30 is 30 April)."""
    month = 4 if day >= 29 else 5
    return datetime(2024, month, day, hour, minute)


@pytest.fixture
def when():
    return at
