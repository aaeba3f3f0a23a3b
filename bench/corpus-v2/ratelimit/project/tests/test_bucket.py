import pytest

from throttle import TokenBucket


def test_burst_then_empty(clock):
    bucket = TokenBucket(rate=2, capacity=4, clock=clock)
    assert [bucket.try_acquire() for _ in range(5)] == [True, True, True, True, False]


def test_refills_with_time(clock):
    bucket = TokenBucket(rate=2, capacity=4, clock=clock, initial=0)
    clock.advance(0.75)
    assert bucket.available() == pytest.approx(1.5)
    assert bucket.try_acquire()
    assert not bucket.try_acquire()


def test_saved_tokens_are_capped(clock):
    bucket = TokenBucket(rate=1, capacity=3, clock=clock)
    assert bucket.try_acquire(3)
    clock.advance(3600)
    assert [bucket.try_acquire() for _ in range(4)] == [True, True, True, False]


def test_wait_time(clock):
    bucket = TokenBucket(rate=4, capacity=2, clock=clock, initial=0.5)
    assert bucket.wait_time() == pytest.approx(0.125)
    assert bucket.wait_time(2) == pytest.approx(0.375)
    clock.advance(1)
    assert bucket.wait_time() == 0


def test_request_larger_than_bucket(clock):
    with pytest.raises(ValueError):
        TokenBucket(rate=1, capacity=2, clock=clock).try_acquire(3)
