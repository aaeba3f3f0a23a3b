import pytest

from throttle import FakeClock, Limiter, TTLCache


@pytest.fixture
def clock():
    return FakeClock(start=1000.0)


@pytest.fixture
def cache(clock):
    return TTLCache(maxsize=3, ttl=30, clock=clock)


@pytest.fixture
def limiter(clock):
    return Limiter(
        {"/api/": "5/minute", "/api/search": "2/10s", "/login": "3/hour"},
        clock=clock,
        exempt=["healthcheck"],
    )
