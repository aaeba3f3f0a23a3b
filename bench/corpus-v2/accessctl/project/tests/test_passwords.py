import pytest

from accessctl.passwords import hash_password, needs_rehash, password_problems, verify_password


def test_hash_and_verify():
    encoded = hash_password("s3cret-value", salt="abc", iterations=1000)
    assert encoded.startswith("pbkdf2_sha256$1000$abc$")
    assert verify_password("s3cret-value", encoded)
    assert not verify_password("s3cret-valuE", encoded)


def test_salts_differ():
    assert hash_password("same-pass-1", iterations=1000) != hash_password("same-pass-1", iterations=1000)


@pytest.mark.parametrize(
    "encoded",
    ["", "plain", "md5$1$a$b", "pbkdf2_sha256$1000$abc"],
    ids=["empty", "no-fields", "other-algorithm", "no-digest"],
)
def test_malformed_hashes_never_verify(encoded):
    assert not verify_password("anything", encoded)


def test_needs_rehash_when_iterations_grow():
    encoded = hash_password("s3cret-value", iterations=1000)
    assert needs_rehash(encoded, 2000)
    assert not needs_rehash(encoded, 1000)


@pytest.mark.parametrize(
    "password, expected",
    [
        ("long-enough-1", []),
        ("short1", ["password must be at least 10 characters"]),
        ("no-digits-here", ["password must contain a digit"]),
        ("1234567890", ["password must contain a letter", "password is too common"]),
        ("dave-rocks-77", ["password must not contain the username"]),
    ],
)
def test_password_problems(password, expected):
    assert password_problems(password, "Dave") == expected
