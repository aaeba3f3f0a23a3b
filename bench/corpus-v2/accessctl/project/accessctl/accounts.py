"""Registration, login with lockout after repeated failures, and role grants."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Dict, Iterable, List, Optional

from .passwords import DEFAULT_ITERATIONS, hash_password, needs_rehash, password_problems, verify_password
from .roles import RoleRegistry, grants

USERNAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{2,31}$")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
MAX_FAILURES = 5
FAILURE_WINDOW = timedelta(minutes=15)
LOCKOUT = timedelta(minutes=30)


class AccountError(Exception):
    pass


class RegistrationError(AccountError):
    def __init__(self, problems: List[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


class AuthError(AccountError):
    pass


class AccountLocked(AuthError):
    def __init__(self, username: str, until: datetime) -> None:
        super().__init__(f"{username} is locked until {until:%H:%M}")
        self.until = until


@dataclass
class User:
    username: str
    email: str
    password_hash: str
    roles: List[str] = field(default_factory=list)
    active: bool = True
    failed_logins: List[datetime] = field(default_factory=list)
    locked_until: Optional[datetime] = None
    last_login: Optional[datetime] = None


def normalize_username(username: str) -> str:
    return username.strip().casefold()


class AccountStore:
    def __init__(self, roles: RoleRegistry, iterations: int = DEFAULT_ITERATIONS) -> None:
        self.roles = roles
        self.iterations = iterations
        self._users: Dict[str, User] = {}

    def get(self, username: str) -> User:
        key = normalize_username(username)
        try:
            return self._users[key]
        except KeyError:
            raise AccountError(f"no such user {username!r}") from None

    def register(self, username: str, email: str, password: str, roles: Iterable[str] = ("member",)) -> User:
        key = normalize_username(username)
        email = email.strip()
        problems = []
        if not USERNAME.match(key):
            problems.append(f"invalid username {username!r}")
        elif key in self._users:
            problems.append(f"username {key!r} is taken")
        if not EMAIL.match(email):
            problems.append(f"invalid email {email!r}")
        elif any(user.email.lower() == email.lower() for user in self._users.values()):
            problems.append(f"email {email!r} is already registered")
        problems.extend(password_problems(password, key))
        if problems:
            raise RegistrationError(problems)
        roles = list(roles)
        for role in roles:
            self.roles.get(role)
        user = User(key, email, hash_password(password, iterations=self.iterations), roles)
        self._users[key] = user
        return user

    def authenticate(self, username: str, password: str, now: datetime) -> User:
        key = normalize_username(username)
        user = self._users.get(key)
        if user is None:
            raise AuthError("invalid username or password")
        if not user.active:
            raise AuthError(f"{user.username} is disabled")
        if user.locked_until is not None and now < user.locked_until:
            raise AccountLocked(user.username, user.locked_until)
        if not verify_password(password, user.password_hash):
            user.failed_logins = [t for t in user.failed_logins if now - t < FAILURE_WINDOW]
            user.failed_logins.append(now)
            if len(user.failed_logins) >= MAX_FAILURES:
                user.locked_until = now + LOCKOUT
                user.failed_logins = []
            raise AuthError("invalid username or password")
        user.failed_logins = []
        user.locked_until = None
        user.last_login = now
        if needs_rehash(user.password_hash, self.iterations):
            user.password_hash = hash_password(password, iterations=self.iterations)
        return user

    def change_password(self, username: str, old: str, new: str, now: datetime) -> None:
        user = self.authenticate(username, old, now)
        problems = password_problems(new, user.username)
        if verify_password(new, user.password_hash):
            problems.append("new password must differ from the old one")
        if problems:
            raise RegistrationError(problems)
        user.password_hash = hash_password(new, iterations=self.iterations)

    def disable(self, username: str) -> None:
        self.get(username).active = False

    def grant(self, username: str, role: str) -> None:
        self.roles.get(role)
        user = self.get(username)
        if role not in user.roles:
            user.roles.append(role)

    def users_with_permission(self, permission: str) -> List[str]:
        """Active users whose roles cover `permission`, by username."""
        return sorted(
            user.username
            for user in self._users.values()
            if user.active and any(grants(p, permission) for p in self.roles.permissions_for(user.roles))
        )
