from datetime import date

from slotbook.export import agenda, to_ics, utilisation


def test_ics_feed(calendar, now, when):
    calendar.book("Court 1", when(30, 10), when(30, 11, 30), "Ann; Bob", now)
    ics = to_ics(calendar.bookings(), name="Club")
    assert ics.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    assert "DTSTART:20240430T100000\r\nDTEND:20240430T113000\r\n" in ics
    assert "SUMMARY:Court 1\\, Ann\\; Bob\r\n" in ics
    assert ics.endswith("END:VCALENDAR\r\n")


def test_agenda(calendar, now, when):
    calendar.book("Yoga room", when(30, 13), when(30, 14), "cy", now, seats=2)
    calendar.book("Court 1", when(30, 9), when(30, 10), "ann", now)
    assert agenda(calendar, date(2024, 4, 30)) == (
        "Tuesday 30 April 2024\n"
        "09:00-10:00  Court 1  ann\n"
        "13:00-14:00  Yoga room  cy (2)"
    )


def test_agenda_of_empty_day(calendar):
    assert agenda(calendar, date(2024, 5, 5)) == "Sunday 05 May 2024\nno bookings"


def test_utilisation(calendar, now, when):
    calendar.book("Court 1", when(4, 10), when(4, 12), "ann", now)
    assert utilisation(calendar, "Court 1", date(2024, 5, 4)) == 0.5
    assert utilisation(calendar, "Court 1", date(2024, 5, 5)) == 0.0
