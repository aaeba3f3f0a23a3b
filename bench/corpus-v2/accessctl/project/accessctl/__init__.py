"""User accounts, roles with inherited permissions, and access decisions."""

from .accounts import AccountError, AccountLocked, AccountStore, AuthError, RegistrationError, User
from .policy import Decision, PermissionDenied, Policy, Resource
from .roles import Role, RoleError, RoleRegistry, grants

__all__ = [
    "AccountError",
    "AccountLocked",
    "AccountStore",
    "AuthError",
    "Decision",
    "PermissionDenied",
    "Policy",
    "RegistrationError",
    "Resource",
    "Role",
    "RoleError",
    "RoleRegistry",
    "User",
    "grants",
]
