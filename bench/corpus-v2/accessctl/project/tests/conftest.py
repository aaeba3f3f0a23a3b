from datetime import datetime

import pytest

from accessctl import AccountStore, Policy, Role, RoleRegistry

PASSWORD = "correct-horse-42"


@pytest.fixture
def registry():
    return RoleRegistry(
        [
            Role("member", frozenset({"profile:read", "comments:write"})),
            Role("viewer", frozenset({"docs:read"}), inherits=("member",)),
            Role("editor", frozenset({"docs:write", "posts:edit:own"}), inherits=("viewer",)),
            Role("moderator", frozenset({"posts:*", "comments:*"}), inherits=("member",)),
            Role("admin", frozenset({"*"})),
        ]
    )


@pytest.fixture
def password():
    """Alice's password."""
    return PASSWORD


@pytest.fixture
def store(registry):
    store = AccountStore(registry, iterations=1000)
    store.register("Alice", "alice@example.org", PASSWORD, roles=["editor"])
    store.register("bob", "bob@example.org", "tuba-player-7", roles=["viewer"])
    store.register("carol", "carol@example.net", "m0derat0r-99", roles=["moderator"])
    return store


@pytest.fixture
def policy(registry):
    return Policy(registry, deny=["billing:delete"])


@pytest.fixture
def now():
    return datetime(2024, 5, 1, 9, 0)
