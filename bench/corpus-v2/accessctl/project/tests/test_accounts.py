from datetime import timedelta

import pytest

from accessctl import AccountError, AccountLocked, AccountStore, AuthError, RegistrationError, RoleError


def test_usernames_are_stored_lowercase(store):
    assert store.get("alice").username == "alice"


def test_login_ignores_username_case(store, now, password):
    user = store.authenticate("ALICE ", password, now)
    assert user.last_login == now


def test_wrong_password(store, now):
    with pytest.raises(AuthError, match="invalid username or password"):
        store.authenticate("bob", "tuba-player-8", now)


def test_unknown_user_looks_like_wrong_password(store, now, password):
    with pytest.raises(AuthError, match="invalid username or password"):
        store.authenticate("mallory", password, now)


def test_registration_collects_all_problems(store):
    with pytest.raises(RegistrationError) as info:
        store.register("BOB", "bob@example", "short")
    assert info.value.problems == [
        "username 'bob' is taken",
        "invalid email 'bob@example'",
        "password must be at least 10 characters",
        "password must contain a digit",
    ]


def test_email_must_be_unique(store):
    with pytest.raises(RegistrationError, match="already registered"):
        store.register("alice2", "Alice@Example.org", "another-pass-9")


def test_disabled_account_keeps_its_email(store):
    store.disable("bob")
    with pytest.raises(RegistrationError, match="already registered"):
        store.register("robert", "bob@example.org", "another-pass-9")


def test_register_with_unknown_role(store):
    with pytest.raises(RoleError):
        store.register("dave", "dave@example.org", "pass-for-d4v3", roles=["root"])


def test_five_failures_lock_the_account(store, now):
    for minute in range(5):
        with pytest.raises(AuthError):
            store.authenticate("bob", "wrong-guess-0", now + timedelta(minutes=minute))
    with pytest.raises(AccountLocked):
        store.authenticate("bob", "tuba-player-7", now + timedelta(minutes=6))


def test_lock_expires_after_thirty_minutes(store, now):
    for _ in range(5):
        with pytest.raises(AuthError):
            store.authenticate("bob", "wrong-guess-0", now)
    with pytest.raises(AccountLocked):
        store.authenticate("bob", "tuba-player-7", now + timedelta(minutes=29))
    user = store.authenticate("bob", "tuba-player-7", now + timedelta(minutes=30))
    assert user.locked_until is None


def test_failures_outside_the_window_do_not_count(store, now):
    for minute in (0, 10, 20, 30, 40):
        with pytest.raises(AuthError):
            store.authenticate("bob", "wrong-guess-0", now + timedelta(minutes=minute))
    assert store.authenticate("bob", "tuba-player-7", now + timedelta(minutes=41)).username == "bob"


def test_disabled_account_cannot_log_in(store, now):
    store.disable("bob")
    with pytest.raises(AuthError, match="disabled"):
        store.authenticate("bob", "tuba-player-7", now)


def test_change_password(store, now):
    store.change_password("bob", "tuba-player-7", "trombone-player-8", now)
    assert store.authenticate("bob", "trombone-player-8", now).username == "bob"
    with pytest.raises(RegistrationError, match="differ"):
        store.change_password("bob", "trombone-player-8", "trombone-player-8", now)


def test_login_upgrades_old_hashes(registry, now):
    store = AccountStore(registry, iterations=1000)
    store.register("erin", "erin@example.org", "likes-green-tea-3")
    store.iterations = 1500
    user = store.authenticate("erin", "likes-green-tea-3", now)
    assert user.password_hash.startswith("pbkdf2_sha256$1500$")


def test_users_with_permission(store):
    store.grant("bob", "moderator")
    assert store.users_with_permission("posts:delete") == ["bob", "carol"]
    store.disable("carol")
    assert store.users_with_permission("posts:delete") == ["bob"]


def test_get_unknown_user(store):
    with pytest.raises(AccountError):
        store.get("nobody")
