from datetime import date, datetime, timedelta

import pytest

from slotbook import BookingError, BookingRules, Calendar, OpeningHours, Resource


@pytest.mark.parametrize(
    "start, end",
    [((30, 11), (30, 12)), ((9, 11), (9, 12)), ((4, 13), (4, 14))],
    ids=["morning-close", "special-close", "saturday-close"],
)
def test_bookings_may_end_at_closing_time(calendar, now, when, start, end):
    assert calendar.book("Court 1", when(*start), when(*end), "ann", now).status == "confirmed"


def test_cancelled_places_are_available_again(calendar, now, when):
    booking = calendar.book("Yoga room", when(4, 10), when(4, 11), "ann", now, seats=3)
    assert [str(s) for s in calendar.available("Yoga room", date(2024, 5, 4), timedelta(hours=1))][0] == "11:00-12:00"
    calendar.cancel(booking.id, now)
    slots = calendar.available("Yoga room", date(2024, 5, 4), timedelta(hours=1))
    assert (str(slots[0]), slots[0].remaining) == ("10:00-11:00", 3)


def test_cancelled_booking_does_not_count_towards_daily_limit(calendar, now, when):
    first = calendar.book("Court 1", when(3, 9), when(3, 10), "ann", now)
    calendar.book("Court 1", when(3, 10), when(3, 11), "ann", now)
    calendar.cancel(first.id, now)
    assert calendar.book("Yoga room", when(3, 15), when(3, 16), "ann", now).customer == "ann"


@pytest.mark.parametrize("days, allowed", [(29, True), (31, False), (45, False)])
def test_advance_limit(calendar, now, days, allowed):
    start = datetime(2024, 4, 29, 10) + timedelta(days=days)  # a Tuesday or Thursday
    if allowed:
        calendar.book("Court 1", start, start + timedelta(hours=1), "ann", now)
    else:
        with pytest.raises(BookingError, match="days ahead"):
            calendar.book("Court 1", start, start + timedelta(hours=1), "ann", now)


def test_cancel_window_uses_cancel_until(hours, now, when):
    rules = BookingRules(min_notice=timedelta(hours=1), cancel_until=timedelta(hours=48))
    calendar = Calendar(hours, [Resource("Desk")], rules)
    soon = calendar.book("Desk", when(30, 10), when(30, 11), "ann", now)
    later = calendar.book("Desk", when(2, 10), when(2, 11), "bob", now)
    with pytest.raises(BookingError, match="no longer be cancelled"):
        calendar.cancel(soon.id, now)
    assert calendar.cancel(later.id, now).status == "cancelled"


def test_each_booking_gets_its_own_id(calendar, now, when):
    ids = [calendar.book("Court 1", when(2, h), when(2, h + 1), f"c{h}", now).id for h in (9, 10, 11)]
    assert len(set(ids)) == 3
    calendar.cancel(ids[1], now)
    assert [b.customer for b in calendar.bookings(date(2024, 5, 2))] == ["c9", "c11"]


def test_hours_config_round_trip(hours):
    config = hours.to_config()
    assert config["closed"] == ["2024-05-01"]
    assert OpeningHours.from_config(config) == hours


def test_closed_dates_block_bookings(now):
    hours = OpeningHours.from_config({"weekly": {"thu": "09:00-17:00"}, "closed": ["2024-05-02"]})
    calendar = Calendar(hours, [Resource("Room")])
    with pytest.raises(BookingError, match="outside opening hours"):
        calendar.book("Room", datetime(2024, 5, 2, 9), datetime(2024, 5, 2, 10), "ann", now)
