from lru import LRUCache


def test_capacity_one():
    cache = LRUCache(1)
    cache.put('a', 1)
    cache.put('b', 2)
    assert cache.get('a') is None
    assert cache.get('b') == 2


def test_hit_rate_empty():
    assert LRUCache(3).hit_rate() == 0.0


def test_many_puts_keep_capacity():
    cache = LRUCache(3)
    for number in range(10):
        cache.put(number, number * number)
    assert cache.keys() == [7, 8, 9]
    assert cache.get(8) == 64
