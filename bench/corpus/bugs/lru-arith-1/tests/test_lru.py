import pytest

from lru import LRUCache


def test_put_and_get():
    cache = LRUCache(2)
    cache.put('a', 1)
    assert cache.get('a') == 1


def test_missing_key_default():
    assert LRUCache(1).get('x', 'none') == 'none'


def test_evicts_least_recent():
    cache = LRUCache(2)
    cache.put('a', 1)
    cache.put('b', 2)
    cache.get('a')
    cache.put('c', 3)
    assert cache.keys() == ['a', 'c']


def test_update_does_not_evict():
    cache = LRUCache(2)
    cache.put('a', 1)
    cache.put('b', 2)
    cache.put('a', 10)
    assert cache.get('b') == 2
    assert cache.get('a') == 10


def test_hit_rate():
    cache = LRUCache(1)
    cache.put('k', 1)
    cache.get('k')
    cache.get('q')
    assert cache.hit_rate() == 0.5


def test_rejects_zero_capacity():
    with pytest.raises(ValueError):
        LRUCache(0)
