"""Access decisions: role permissions, ":own" permissions for owners, and deny rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from .accounts import User
from .roles import RoleRegistry, grants


class PermissionDenied(Exception):
    pass


@dataclass(frozen=True)
class Resource:
    kind: str
    id: str
    owner: Optional[str] = None


@dataclass(frozen=True)
class Decision:
    allowed: bool
    reason: str


class Policy:
    def __init__(self, roles: RoleRegistry, deny: Iterable[str] = ()) -> None:
        self.roles = roles
        self.deny = tuple(deny)

    def decide(self, user: User, action: str, resource: Resource) -> Decision:
        needed = f"{resource.kind}:{action}"
        if not user.active:
            return Decision(False, f"{user.username} is disabled")
        if any(grants(rule, needed) for rule in self.deny):
            return Decision(False, f"{needed} is denied for everyone")
        permissions = self.roles.permissions_for(user.roles)
        if any(grants(permission, needed) for permission in permissions):
            return Decision(True, f"{user.username} has {needed}")
        if resource.owner == user.username and any(grants(p, f"{needed}:own") for p in permissions):
            return Decision(True, f"{user.username} owns {resource.kind} {resource.id}")
        return Decision(False, f"{user.username} lacks {needed}")

    def can(self, user: User, action: str, resource: Resource) -> bool:
        return self.decide(user, action, resource).allowed

    def require(self, user: User, action: str, resource: Resource) -> None:
        decision = self.decide(user, action, resource)
        if not decision.allowed:
            raise PermissionDenied(decision.reason)
