"""Rate limiting (token buckets, sliding windows) and a TTL/LRU cache for a small API server."""
from .bucket import TokenBucket
from .cache import TTLCache, cached
from .clock import FakeClock, MonotonicClock
from .policy import Decision, Limiter, parse_rate
from .window import SlidingWindowLog

__all__ = [
    "Decision",
    "FakeClock",
    "Limiter",
    "MonotonicClock",
    "SlidingWindowLog",
    "TTLCache",
    "TokenBucket",
    "cached",
    "parse_rate",
]
