from datetime import date, timedelta

import pytest

from slotbook import generate_slots
from slotbook.slots import overlaps


def test_back_to_back_hour_slots(hours):
    slots = generate_slots(hours, date(2024, 5, 4), timedelta(hours=1))
    assert [str(slot) for slot in slots] == ["10:00-11:00", "11:00-12:00", "12:00-13:00", "13:00-14:00"]


def test_slots_do_not_cross_the_lunch_break(hours):
    slots = generate_slots(hours, date(2024, 4, 30), timedelta(minutes=90))
    assert [str(slot) for slot in slots] == [
        "09:00-10:30",
        "10:30-12:00",
        "13:00-14:30",
        "14:30-16:00",
        "16:00-17:30",
    ]


def test_overlapping_slots_with_a_step(hours):
    slots = generate_slots(hours, date(2024, 5, 9), timedelta(hours=1), step=timedelta(minutes=30))
    assert [str(slot) for slot in slots] == ["10:00-11:00", "10:30-11:30", "11:00-12:00"]


def test_no_slots_on_closed_days(hours):
    assert generate_slots(hours, date(2024, 5, 1), timedelta(hours=1)) == []


def test_slot_length_must_be_positive(hours):
    with pytest.raises(ValueError):
        generate_slots(hours, date(2024, 5, 4), timedelta(0))


@pytest.mark.parametrize(
    "a, b, expected",
    [((9, 10), (10, 11), False), ((9, 11), (10, 12), True), ((9, 12), (10, 11), True)],
    ids=["touching", "partial", "inside"],
)
def test_overlaps(when, a, b, expected):
    assert overlaps(when(30, a[0]), when(30, a[1]), when(30, b[0]), when(30, b[1])) is expected
