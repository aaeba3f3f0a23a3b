"""Password hashing (PBKDF2-SHA256) and the password rules."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import List, Optional

ALGORITHM = "pbkdf2_sha256"
DEFAULT_ITERATIONS = 100_000
MIN_LENGTH = 10
COMMON_PASSWORDS = {"password123", "qwerty12345", "1234567890", "letmein2024", "iloveyou99"}


def hash_password(password: str, salt: Optional[str] = None, iterations: int = DEFAULT_ITERATIONS) -> str:
    """Encodes as "pbkdf2_sha256$<iterations>$<salt>$<hex digest>"."""
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt.encode("ascii"), iterations)
    return f"{ALGORITHM}${iterations}${salt}${digest.hex()}"


def verify_password(password: str, encoded: str) -> bool:
    try:
        algorithm, iterations, salt, expected = encoded.split("$")
    except ValueError:
        return False
    if algorithm != ALGORITHM:
        return False
    actual = hash_password(password, salt, int(iterations)).rsplit("$", 1)[1]
    return hmac.compare_digest(actual, expected)


def needs_rehash(encoded: str, iterations: int) -> bool:
    return int(encoded.split("$")[1]) < iterations


def password_problems(password: str, username: str = "") -> List[str]:
    """What is wrong with a new password; empty when it is acceptable."""
    problems = []
    if len(password) < MIN_LENGTH:
        problems.append(f"password must be at least {MIN_LENGTH} characters")
    if not any(char.isdigit() for char in password):
        problems.append("password must contain a digit")
    if not any(char.isalpha() for char in password):
        problems.append("password must contain a letter")
    if username and username.lower() in password.lower():
        problems.append("password must not contain the username")
    if password.lower() in COMMON_PASSWORDS:
        problems.append("password is too common")
    return problems
