"""Token bucket: `rate` tokens per second, at most `capacity` saved up for bursts."""
from __future__ import annotations

from typing import Optional

from .clock import MonotonicClock


class TokenBucket:
    def __init__(self, rate: float, capacity: float, clock=None, initial: Optional[float] = None):
        if rate <= 0 or capacity <= 0:
            raise ValueError("rate and capacity must be positive")
        self.rate = float(rate)
        self.capacity = float(capacity)
        self.clock = clock or MonotonicClock()
        self.tokens = self.capacity if initial is None else float(initial)
        self.updated = self.clock.now()

    def _refill(self) -> None:
        now = self.clock.now()
        elapsed = now - self.updated
        if elapsed > 0:
            self.tokens = min(self.capacity, self.tokens + elapsed * self.rate)
            self.updated = now

    def available(self) -> float:
        self._refill()
        return self.tokens

    def try_acquire(self, tokens: float = 1) -> bool:
        """Takes `tokens` if they are all there; otherwise takes nothing."""
        if tokens > self.capacity:
            raise ValueError(f"cannot take {tokens} tokens from a bucket of {self.capacity}")
        self._refill()
        if self.tokens >= tokens:
            self.tokens -= tokens
            return True
        return False

    def wait_time(self, tokens: float = 1) -> float:
        """Seconds until `tokens` can be taken (0 when they can be taken now)."""
        self._refill()
        missing = tokens - self.tokens
        return max(0.0, missing / self.rate)
