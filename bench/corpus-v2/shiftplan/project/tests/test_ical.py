from datetime import date, datetime

from shiftplan import Shift
from shiftplan.ical import escape_text, fold, to_ics


def test_escape_text():
    assert escape_text("Ward 3; beds 1,2\nnote\\x") == "Ward 3\\; beds 1\\,2\\nnote\\\\x"


def test_fold_long_lines():
    pieces = fold("SUMMARY:" + "x" * 150)
    assert [len(p) for p in pieces] == [75, 75, 10]
    assert all(p.startswith(" ") for p in pieces[1:])


def test_to_ics():
    shifts = [
        Shift.on(date(2024, 3, 2), "22:00", "06:30", "Zoë", "night nurse"),
        Shift.on(date(2024, 3, 1), "08:00", "16:00", "ana", ""),
    ]
    text = to_ics(shifts, "Ward 3, nights", datetime(2024, 2, 20, 12, 0))
    lines = text.split("\r\n")
    assert lines[3] == "X-WR-CALNAME:Ward 3\\, nights"
    assert lines[5].startswith("UID:") and lines[5].endswith("@shiftplan")
    assert lines[6:9] == ["DTSTAMP:20240220T120000", "DTSTART:20240301T080000", "DTEND:20240301T160000"]
    assert lines[9] == "SUMMARY:ana"
    assert lines[14:16] == ["DTSTART:20240302T220000", "DTEND:20240303T063000"]
    assert lines[16] == "SUMMARY:night nurse: Zoë"
    assert text.endswith("END:VCALENDAR\r\n")
