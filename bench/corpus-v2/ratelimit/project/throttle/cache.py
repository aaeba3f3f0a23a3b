"""A least-recently-used cache whose entries also expire after a time to live."""
from __future__ import annotations

import functools
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Dict, Hashable, Optional

from .clock import MonotonicClock

_MISSING = object()


@dataclass
class _Entry:
    value: Any
    expires_at: float


class TTLCache:
    """An entry set at time t with a ttl of s seconds can be read until just before t + s."""

    def __init__(self, maxsize: int = 128, ttl: float = 60.0, clock=None):
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self.ttl = float(ttl)
        self.clock = clock or MonotonicClock()
        self._data: "OrderedDict[Hashable, _Entry]" = OrderedDict()
        self._stats = {"hits": 0, "misses": 0, "evictions": 0, "expired": 0}

    def get(self, key: Hashable, default: Any = None) -> Any:
        entry = self._data.get(key)
        if entry is not None and entry.expires_at <= self.clock.now():
            del self._data[key]
            self._stats["expired"] += 1
            entry = None
        if entry is None:
            self._stats["misses"] += 1
            return default
        self._data.move_to_end(key)
        self._stats["hits"] += 1
        return entry.value

    def set(self, key: Hashable, value: Any, ttl: Optional[float] = None) -> None:
        lifetime = self.ttl if ttl is None else ttl
        self._data[key] = _Entry(value, self.clock.now() + lifetime)
        self._data.move_to_end(key)
        while len(self._data) > self.maxsize:
            self._data.popitem(last=False)
            self._stats["evictions"] += 1

    def __contains__(self, key: Hashable) -> bool:
        entry = self._data.get(key)
        return entry is not None and entry.expires_at > self.clock.now()

    def __len__(self) -> int:
        return len(self._data)

    def purge_expired(self) -> int:
        now = self.clock.now()
        stale = [key for key, entry in self._data.items() if entry.expires_at <= now]
        for key in stale:
            del self._data[key]
        self._stats["expired"] += len(stale)
        return len(stale)

    def stats(self) -> Dict[str, int]:
        """A snapshot of the counters."""
        return dict(self._stats)


def cached(cache: TTLCache, key: Optional[Callable[..., Hashable]] = None):
    """Memoizes a function in `cache`; `key` builds the cache key from the call's arguments."""

    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if key is not None:
                cache_key = key(*args, **kwargs)
            else:
                cache_key = (func.__qualname__, args, tuple(sorted(kwargs.items())))
            value = cache.get(cache_key, _MISSING)
            if value is _MISSING:
                value = func(*args, **kwargs)
                cache.set(cache_key, value)
            return value

        wrapper.cache = cache
        return wrapper

    return decorator
