from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import List


@dataclass(frozen=True)
class BookingRules:
    min_notice: timedelta = timedelta(hours=2)
    max_advance: timedelta = timedelta(days=30)
    cancel_until: timedelta = timedelta(hours=24)
    max_length: timedelta = timedelta(hours=3)
    per_customer_per_day: int = 2


def _hours(delta: timedelta) -> str:
    return f"{delta.total_seconds() / 3600:g}h"


def check_request(
    rules: BookingRules, start: datetime, end: datetime, now: datetime, booked_that_day: int
) -> List[str]:
    """Everything wrong with a booking request under `rules`; empty when it may be booked."""
    problems = []
    if end <= start:
        problems.append("booking must end after it starts")
    elif end - start > rules.max_length:
        problems.append(f"booking is longer than {_hours(rules.max_length)}")
    if start < now:
        problems.append("booking is in the past")
    elif start - now < rules.min_notice:
        problems.append(f"bookings need {_hours(rules.min_notice)} notice")
    if start - now > rules.max_advance:
        problems.append(f"bookings open {rules.max_advance.days} days ahead")
    if booked_that_day >= rules.per_customer_per_day:
        problems.append(f"at most {rules.per_customer_per_day} bookings per customer per day")
    return problems
