"""Roles grant permissions ("docs:read", "docs:*", "*") and inherit other roles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterable, Set, Tuple


class RoleError(Exception):
    pass


@dataclass(frozen=True)
class Role:
    name: str
    permissions: FrozenSet[str] = frozenset()
    inherits: Tuple[str, ...] = ()


def grants(granted: str, needed: str) -> bool:
    """Whether permission `granted` covers `needed`: exact, "*", or a "kind:*" wildcard."""
    if granted in ("*", needed):
        return True
    if granted.endswith(":*"):
        return needed.startswith(granted[:-1])
    return False


class RoleRegistry:
    def __init__(self, roles: Iterable[Role] = ()) -> None:
        self._roles: Dict[str, Role] = {}
        for role in roles:
            self.add(role)

    def add(self, role: Role) -> None:
        if role.name in self._roles:
            raise RoleError(f"role {role.name!r} is already defined")
        self._roles[role.name] = role

    def get(self, name: str) -> Role:
        try:
            return self._roles[name]
        except KeyError:
            raise RoleError(f"unknown role {name!r}") from None

    def effective_permissions(self, name: str) -> Set[str]:
        """The role's own permissions and those of every role it inherits, at any depth."""
        permissions: Set[str] = set()
        seen: Set[str] = set()
        stack = [name]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            role = self.get(current)
            permissions |= role.permissions
            stack.extend(role.inherits)
        return permissions

    def permissions_for(self, role_names: Iterable[str]) -> Set[str]:
        result: Set[str] = set()
        for name in role_names:
            result |= self.effective_permissions(name)
        return result
