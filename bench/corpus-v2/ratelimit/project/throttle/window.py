"""Sliding-window log: at most `limit` events per key in any `window` seconds."""
from __future__ import annotations

from collections import defaultdict, deque
from typing import Deque, Dict

from .clock import MonotonicClock


class SlidingWindowLog:
    def __init__(self, limit: int, window: float, clock=None):
        if limit < 1 or window <= 0:
            raise ValueError("limit must be >= 1 and window > 0")
        self.limit = limit
        self.window = float(window)
        self.clock = clock or MonotonicClock()
        self._logs: Dict[str, Deque[float]] = defaultdict(deque)

    def _prune(self, key: str, now: float) -> Deque[float]:
        log = self._logs[key]
        # an event exactly `window` seconds old has left the window
        while log and log[0] <= now - self.window:
            log.popleft()
        return log

    def allow(self, key: str) -> bool:
        now = self.clock.now()
        log = self._prune(key, now)
        if len(log) >= self.limit:
            return False
        log.append(now)
        return True

    def remaining(self, key: str) -> int:
        return self.limit - len(self._prune(key, self.clock.now()))

    def retry_after(self, key: str) -> float:
        """Seconds until `key` may send again (0 if it may now)."""
        now = self.clock.now()
        log = self._prune(key, now)
        if len(log) < self.limit:
            return 0.0
        return log[len(log) - self.limit] + self.window - now

    def forget_idle(self) -> int:
        """Drops keys without events in the window; returns how many were dropped."""
        now = self.clock.now()
        idle = [key for key in list(self._logs) if not self._prune(key, now)]
        for key in idle:
            del self._logs[key]
        return len(idle)
