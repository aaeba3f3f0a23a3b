import pytest

from throttle import Decision, Limiter, parse_rate


@pytest.mark.parametrize(
    "text, expected",
    [
        ("100/minute", (100, 60.0)),
        ("5/10s", (5, 10.0)),
        ("1000 / hours", (1000, 3600.0)),
        ("3/day", (3, 86400.0)),
        ("10/SEC", (10, 1.0)),
    ],
    ids=["minute", "ten-seconds", "hours-spaced", "day", "upper-case"],
)
def test_parse_rate(text, expected):
    assert parse_rate(text) == expected


@pytest.mark.parametrize("text", ["", "100", "0/minute", "5/fortnight", "x/minute"])
def test_parse_rate_rejects(text):
    with pytest.raises(ValueError):
        parse_rate(text)


def test_longest_prefix_wins(limiter):
    assert limiter.rule_for("/api/search")[0] == "/api/search"
    assert limiter.rule_for("/api/items/7")[0] == "/api/"
    assert limiter.rule_for("/static/app.js") is None


def test_clients_are_limited_separately(limiter):
    results = [limiter.check("alice", "/login").allowed for _ in range(4)]
    assert results == [True, True, True, False]
    assert limiter.check("bob", "/login").allowed


def test_a_rule_covers_every_route_under_its_prefix(limiter):
    decisions = [limiter.check("alice", f"/api/items/{n}") for n in range(6)]
    assert [d.allowed for d in decisions] == [True] * 5 + [False]
    assert limiter.peek("alice", "/api/orders") == 0


def test_headers(limiter, clock):
    limiter.check("alice", "/api/search")
    clock.advance(2.5)
    assert limiter.check("alice", "/api/search").headers() == {"X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "0"}
    denied = limiter.check("alice", "/api/search")
    assert denied.headers()["Retry-After"] == "8"


def test_exempt_clients_and_unlimited_routes(limiter):
    assert all(limiter.check("healthcheck", "/login").allowed for _ in range(10))
    assert limiter.check("alice", "/static/app.js") == Decision(True, None, None)
    assert limiter.peek("alice", "/static/app.js") is None
