"""Per-route request limits for an HTTP API: '100/minute' rules matched by path prefix."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Tuple

from .window import SlidingWindowLog

_UNITS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600, "d": 86400, "day": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([a-z]+?)s?\s*$")

Rate = Tuple[int, float]


def parse_rate(text: str) -> Rate:
    """'100/minute' -> (100, 60.0); '5/10s' -> (5, 10.0); plurals are accepted."""
    match = _RATE.match(text.lower())
    if match is None:
        raise ValueError(f"not a rate: {text!r}")
    count, multiple, unit = match.groups()
    if unit not in _UNITS:
        raise ValueError(f"unknown time unit {unit!r} in {text!r}")
    if int(count) < 1:
        raise ValueError(f"a rate must allow at least one request: {text!r}")
    return int(count), float((int(multiple) if multiple else 1) * _UNITS[unit])


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: Optional[int]
    remaining: Optional[int]
    retry_after: float = 0.0

    def headers(self) -> Dict[str, str]:
        if self.limit is None:
            return {}
        headers = {"X-RateLimit-Limit": str(self.limit), "X-RateLimit-Remaining": str(self.remaining)}
        if not self.allowed:
            headers["Retry-After"] = str(math.ceil(self.retry_after))
        return headers


class Limiter:
    """Each rule limits every client separately; the longest matching prefix wins."""

    def __init__(self, rules: Dict[str, str], clock=None, default: Optional[str] = None, exempt: Iterable[str] = ()):
        parsed = [(prefix, parse_rate(rate)) for prefix, rate in rules.items()]
        self.rules: List[Tuple[str, Rate]] = sorted(parsed, key=lambda rule: len(rule[0]), reverse=True)
        self.default = parse_rate(default) if default else None
        self.clock = clock
        self.exempt = frozenset(exempt)
        self._windows: Dict[str, SlidingWindowLog] = {}

    def rule_for(self, route: str) -> Optional[Tuple[str, Rate]]:
        for prefix, rate in self.rules:
            if route == prefix or route.startswith(prefix.rstrip("/") + "/"):
                return prefix, rate
        if self.default is not None:
            return "*", self.default
        return None

    def _window(self, prefix: str, rate: Rate) -> SlidingWindowLog:
        if prefix not in self._windows:
            limit, seconds = rate
            self._windows[prefix] = SlidingWindowLog(limit, seconds, self.clock)
        return self._windows[prefix]

    def check(self, client: str, route: str) -> Decision:
        """Counts one request of `client` to `route` and says whether it may proceed."""
        rule = self.rule_for(route)
        if rule is None or client in self.exempt:
            return Decision(True, None, None)
        prefix, rate = rule
        window = self._window(prefix, rate)
        allowed = window.allow(client)
        retry = 0.0 if allowed else window.retry_after(client)
        return Decision(allowed, rate[0], window.remaining(client), retry)

    def peek(self, client: str, route: str) -> Optional[int]:
        """Requests `client` has left on `route`, without counting one."""
        rule = self.rule_for(route)
        if rule is None or client in self.exempt:
            return None
        prefix, rate = rule
        return self._window(prefix, rate).remaining(client)
