import pytest

from throttle import TTLCache, cached


def test_get_and_set(cache):
    cache.set("a", 1)
    assert cache.get("a") == 1
    assert cache.get("zzz", "none") == "none"
    assert "a" in cache and "zzz" not in cache


def test_entries_expire(cache, clock):
    cache.set("a", 1)
    cache.set("b", 2, ttl=100)
    clock.advance(30)
    assert "a" not in cache
    assert cache.get("a") is None
    assert cache.get("b") == 2
    assert cache.stats()["expired"] == 1


def test_least_recently_used_is_evicted(cache):
    for key in "abc":
        cache.set(key, key.upper())
    cache.get("a")
    cache.set("d", "D")
    assert "a" in cache and "b" not in cache
    assert len(cache) == 3


def test_stats_are_snapshots(cache):
    cache.set("a", 1)
    before = cache.stats()
    cache.get("a")
    cache.get("b")
    after = cache.stats()
    assert (after["hits"] - before["hits"], after["misses"] - before["misses"]) == (1, 1)


def test_purge_expired(cache, clock):
    cache.set("a", 1, ttl=5)
    cache.set("b", 2, ttl=50)
    clock.advance(10)
    assert cache.purge_expired() == 1
    assert len(cache) == 1


@pytest.mark.parametrize("maxsize", [0, -1])
def test_maxsize_must_be_positive(maxsize):
    with pytest.raises(ValueError):
        TTLCache(maxsize=maxsize)


def test_cached_decorator(cache):
    calls = []

    @cached(cache)
    def lookup(user_id, verbose=False):
        calls.append(user_id)
        return {"id": user_id, "verbose": verbose}

    assert lookup(1) == {"id": 1, "verbose": False}
    assert lookup(1) == {"id": 1, "verbose": False}
    assert lookup(1, verbose=True)["verbose"] is True
    assert calls == [1, 1]
    assert lookup.cache is cache
