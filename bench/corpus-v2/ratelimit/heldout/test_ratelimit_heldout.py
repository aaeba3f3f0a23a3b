import pytest

from throttle import FakeClock, Limiter, SlidingWindowLog, TokenBucket, TTLCache, cached


@pytest.mark.parametrize("idle", [10, 1e6])
def test_bucket_never_holds_more_than_capacity(idle):
    clock = FakeClock()
    bucket = TokenBucket(rate=5, capacity=10, clock=clock, initial=0)
    clock.advance(idle)
    assert bucket.available() == 10
    assert bucket.wait_time(10) == 0


def test_bucket_partial_refill_after_burst():
    clock = FakeClock()
    bucket = TokenBucket(rate=1, capacity=2, clock=clock)
    assert bucket.try_acquire(2)
    clock.advance(5)
    assert bucket.try_acquire(2)
    assert not bucket.try_acquire(1)


def test_lru_order_follows_reads():
    clock = FakeClock()
    cache = TTLCache(maxsize=2, ttl=60, clock=clock)
    cache.set("a", 1)
    cache.set("b", 2)
    assert cache.get("a") == 1
    cache.set("c", 3)
    assert cache.get("a") == 1
    assert cache.get("b") is None
    cache.set("d", 4)
    assert "c" not in cache
    assert cache.stats()["evictions"] == 2


def test_memoized_hot_key_survives_eviction():
    cache = TTLCache(maxsize=2, ttl=60, clock=FakeClock())
    calls = []

    @cached(cache)
    def square(n):
        calls.append(n)
        return n * n

    for n in [1, 2, 1, 3, 1, 4, 1]:
        square(n)
    assert calls == [1, 2, 3, 4]


def test_memoizes_none_results():
    cache = TTLCache(maxsize=4, ttl=60, clock=FakeClock())
    calls = []

    @cached(cache, key=lambda name: name.lower())
    def find(name):
        calls.append(name)
        return None

    find("Bob")
    find("BOB")
    assert calls == ["Bob"]


def test_stats_snapshot_is_independent():
    cache = TTLCache(maxsize=2, ttl=60, clock=FakeClock())
    snapshot = cache.stats()
    snapshot["hits"] = 99
    cache.get("x")
    assert cache.stats() == {"hits": 0, "misses": 1, "evictions": 0, "expired": 0}
    assert snapshot["misses"] == 0


def test_window_boundary_is_exclusive():
    clock = FakeClock()
    log = SlidingWindowLog(limit=1, window=5, clock=clock)
    assert log.allow("k")
    clock.advance(4.999)
    assert not log.allow("k")
    clock.advance(0.001)
    assert log.allow("k")


def test_prefix_limit_shared_by_routes_and_peek():
    clock = FakeClock()
    limiter = Limiter({"/files/": "2/minute"}, clock=clock, default="100/second")
    assert limiter.check("u", "/files/a.txt").allowed
    assert limiter.peek("u", "/files/b.txt") == 1
    assert limiter.check("u", "/files/b.txt").allowed
    assert not limiter.check("u", "/files/c.txt").allowed
    assert limiter.peek("u", "/files/d.txt") == 0
    assert limiter.peek("other", "/files/a.txt") == 2
    assert limiter.check("u", "/home").limit == 100
    clock.advance(60)
    assert limiter.peek("u", "/files/z") == 2


@pytest.mark.parametrize("ttl", [0.5, 10])
def test_ttl_boundary(ttl):
    clock = FakeClock(100)
    cache = TTLCache(maxsize=4, ttl=ttl, clock=clock)
    cache.set("k", "v")
    clock.advance(ttl - 0.25)
    assert "k" in cache and cache.get("k") == "v"
    clock.advance(0.25)
    assert "k" not in cache
    assert cache.get("k", "gone") == "gone"
    assert cache.stats()["expired"] == 1


def test_zero_ttl_entries_are_never_served():
    cache = TTLCache(maxsize=4, ttl=60, clock=FakeClock())
    cache.set("k", "v", ttl=0)
    assert "k" not in cache
    assert cache.get("k") is None
