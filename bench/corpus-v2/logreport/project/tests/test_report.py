from logreport import Report, build_report
from logreport.report import human_bytes


def test_text_table_alignment():
    report = Report("Demo")
    report.add("Sizes", ["name", "bytes"], [["a", 5], ["bbbb", 1200]])
    assert report.to_text() == (
        "Demo\n"
        "====\n"
        "\n"
        "Sizes\n"
        "-----\n"
        "name  bytes\n"
        "----  -----\n"
        "a         5\n"
        "bbbb   1200\n"
    )


def test_markdown():
    report = Report("Demo")
    report.add("Paths", ["path", "hits"], [["/a|b", "3"]])
    assert report.to_markdown() == "# Demo\n\n## Paths\n\n| path | hits |\n| --- | ---: |\n| /a\\|b | 3 |\n"


def test_human_bytes():
    assert [human_bytes(n) for n in (0, 1023, 1536, 5 * 1024**3, 3 * 1024**4)] == [
        "0 B",
        "1023 B",
        "1.5 KiB",
        "5.0 GiB",
        "3072.0 GiB",
    ]


def test_build_report(parsed):
    entries, errors = parsed
    text = build_report(entries, errors, top=3).to_text()
    assert "requests         10" in text
    assert "traffic          29.8 KiB" in text
    assert "error rate       40.0%" in text
    assert "p50 / p95        30 ms / 950 ms" in text
    assert "unparsed lines   1" in text
    assert "4xx           2  20.0%" in text
    assert "/api/orders             4" in text
    assert "2024-03-12 09:00         2" in text


def test_daily_and_weekly_reports(entries):
    morning = [entry for entry in entries if entry.time.hour < 10]
    daily = build_report(morning, title="Morning")
    weekly = build_report(entries, title="Week")
    assert [s.title for s in weekly.sections] == ["Overview", "Status codes", "Top paths", "Busiest hours (UTC)"]
    assert "requests         4" in daily.to_text()
