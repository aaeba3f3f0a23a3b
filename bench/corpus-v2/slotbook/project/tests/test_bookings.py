from datetime import date, timedelta

import pytest

from slotbook import BookingError


def test_book_and_list(calendar, now, when):
    first = calendar.book("Court 1", when(30, 10), when(30, 11), "ann", now)
    second = calendar.book("Court 1", when(30, 9), when(30, 10), "bob", now)
    assert first.id != second.id
    assert [b.customer for b in calendar.bookings(date(2024, 4, 30))] == ["bob", "ann"]


def test_booking_until_closing_time(calendar, now, when):
    booking = calendar.book("Court 1", when(30, 17), when(30, 18), "ann", now)
    assert booking.end == when(30, 18)


def test_double_booking_is_refused(calendar, now, when):
    calendar.book("Court 1", when(30, 10), when(30, 11), "ann", now)
    with pytest.raises(BookingError, match="only 0 of 1 places left"):
        calendar.book("Court 1", when(30, 10, 30), when(30, 11, 30), "bob", now)


def test_shared_room_fills_up(calendar, now, when):
    calendar.book("Yoga room", when(30, 9), when(30, 10), "ann", now, seats=2)
    calendar.book("Yoga room", when(30, 9), when(30, 10), "bob", now)
    with pytest.raises(BookingError, match="only 0 of 3"):
        calendar.book("Yoga room", when(30, 9), when(30, 10), "cy", now)


@pytest.mark.parametrize(
    "start, end, message",
    [
        ((29, 7), (29, 8), "in the past"),
        ((29, 9), (29, 10), "notice"),
        ((30, 11), (30, 14), "outside opening hours"),
        ((1, 10), (1, 11), "outside opening hours"),
        ((30, 13), (30, 17), "longer than 3h"),
    ],
    ids=["past", "short-notice", "over-lunch", "holiday", "too-long"],
)
def test_rules(calendar, now, when, start, end, message):
    with pytest.raises(BookingError, match=message):
        calendar.book("Court 1", when(*start), when(*end), "ann", now)


def test_bookings_open_thirty_days_ahead(calendar, now):
    start = now.replace(hour=10) + timedelta(days=35)
    with pytest.raises(BookingError, match="30 days ahead"):
        calendar.book("Court 1", start, start + timedelta(hours=1), "ann", now)


def test_customer_daily_limit(calendar, now, when):
    calendar.book("Court 1", when(30, 9), when(30, 10), "ann", now)
    calendar.book("Yoga room", when(30, 10), when(30, 11), "ann", now)
    with pytest.raises(BookingError, match="at most 2 bookings"):
        calendar.book("Court 1", when(30, 15), when(30, 16), "ann", now)


def test_cancel_frees_the_slot(calendar, now, when):
    booking = calendar.book("Court 1", when(2, 10), when(2, 11), "ann", now)
    calendar.cancel(booking.id, now)
    assert calendar.book("Court 1", when(2, 10), when(2, 11), "bob", now).customer == "bob"


def test_cancel_deadline(calendar, now, when):
    booking = calendar.book("Court 1", when(29, 18) - timedelta(hours=1), when(29, 18), "ann", now)
    with pytest.raises(BookingError, match="no longer be cancelled"):
        calendar.cancel(booking.id, now)


def test_cancel_twice(calendar, now, when):
    booking = calendar.book("Court 1", when(3, 10), when(3, 11), "ann", now)
    calendar.cancel(booking.id, now)
    with pytest.raises(BookingError, match="already cancelled"):
        calendar.cancel(booking.id, now)


def test_available_slots_show_places_left(calendar, now, when):
    calendar.book("Yoga room", when(4, 10), when(4, 11), "ann", now, seats=2)
    calendar.book("Yoga room", when(4, 12), when(4, 13), "bob", now, seats=3)
    slots = calendar.available("Yoga room", date(2024, 5, 4), timedelta(hours=1))
    assert [(str(slot), slot.remaining) for slot in slots] == [
        ("10:00-11:00", 1),
        ("11:00-12:00", 3),
        ("13:00-14:00", 3),
    ]


def test_unknown_resource(calendar, now, when):
    with pytest.raises(BookingError, match="unknown resource"):
        calendar.book("Court 9", when(30, 10), when(30, 11), "ann", now)
