import pytest

from throttle import SlidingWindowLog


@pytest.fixture
def log(clock):
    return SlidingWindowLog(limit=3, window=10, clock=clock)


def test_limit_per_key(log):
    assert [log.allow("a") for _ in range(4)] == [True, True, True, False]
    assert log.allow("b")
    assert log.remaining("a") == 0
    assert log.remaining("b") == 2


def test_events_leave_the_window(log, clock):
    log.allow("a")
    clock.advance(4)
    log.allow("a")
    log.allow("a")
    assert not log.allow("a")
    assert log.retry_after("a") == pytest.approx(6)
    clock.advance(6)
    assert log.remaining("a") == 1
    assert log.allow("a")


def test_forget_idle(log, clock):
    log.allow("a")
    clock.advance(5)
    log.allow("b")
    clock.advance(5)
    assert log.forget_idle() == 1
    assert log.remaining("b") == 2
