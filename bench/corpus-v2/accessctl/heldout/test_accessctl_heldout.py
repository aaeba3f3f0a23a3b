from datetime import timedelta

import pytest

from accessctl import AccountError, AccountLocked, AuthError, Policy, RegistrationError, Resource
from accessctl.passwords import verify_password


@pytest.mark.parametrize("name", ["Alice", "ALICE", pytest.param("  alice  ", id="padded"), "aLiCe"])
def test_lookup_ignores_case_and_spaces(store, name):
    assert store.get(name).email == "alice@example.org"


def test_login_with_capitalised_name_and_grant(store, now, password):
    store.grant("Alice", "moderator")
    assert store.authenticate("Alice", password, now).roles == ["editor", "moderator"]


def test_fifth_failure_locks_and_reports_until(store, now):
    for minute in range(4):
        with pytest.raises(AuthError) as info:
            store.authenticate("carol", "nope-nope-1", now + timedelta(minutes=minute))
        assert not isinstance(info.value, AccountLocked)
    with pytest.raises(AuthError):
        store.authenticate("carol", "nope-nope-1", now + timedelta(minutes=4))
    with pytest.raises(AccountLocked) as info:
        store.authenticate("carol", "m0derat0r-99", now + timedelta(minutes=5))
    assert info.value.until == now + timedelta(minutes=34)


def test_login_after_lock_expired_resets_state(store, now):
    for _ in range(5):
        with pytest.raises(AuthError):
            store.authenticate("carol", "nope-nope-1", now)
    later = now + timedelta(hours=2)
    user = store.authenticate("carol", "m0derat0r-99", later)
    assert (user.locked_until, user.failed_logins, user.last_login) == (None, [], later)


def test_email_of_disabled_account_in_other_case(store):
    store.disable("carol")
    with pytest.raises(RegistrationError) as info:
        store.register("caroline", "CAROL@example.net", "second-account-5")
    assert info.value.problems == ["email 'CAROL@example.net' is already registered"]


@pytest.mark.parametrize(
    "encoded",
    ["", "$", "pbkdf2_sha256", "pbkdf2_sha256$1000$abc", "pbkdf2_sha256$1$2$3$4", "sha1$1$a$b"],
    ids=["empty", "one-separator", "algorithm-only", "no-digest", "too-many-fields", "sha1"],
)
def test_malformed_hashes(encoded):
    assert verify_password("whatever-1", encoded) is False


def test_admin_and_wildcards(store, registry, now):
    policy = Policy(registry)
    store.grant("bob", "admin")
    assert policy.can(store.get("bob"), "delete", Resource("billing", "x"))
    assert not policy.can(store.get("alice"), "delete", Resource("posts", "p9", owner="alice"))


def test_unknown_user_errors(store, now):
    with pytest.raises(AccountError, match="no such user"):
        store.get("zed")
    with pytest.raises(AuthError):
        store.authenticate("Zed", "whatever-1", now)
