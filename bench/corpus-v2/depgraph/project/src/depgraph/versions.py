"""Release versions ("1.4.2") and constraints (">=1.2, <2", "~=1.4", "!=1.5")."""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from functools import total_ordering
from typing import Iterable, Optional, Tuple

_VERSION = re.compile(r"^\d+(\.\d+)*$")
_CLAUSE = re.compile(r"^(~=|==|!=|<=|>=|<|>)\s*(\S+)$")

OPERATORS = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class VersionError(ValueError):
    pass


@total_ordering
@dataclass(frozen=True, eq=False)
class Version:
    release: Tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> "Version":
        text = text.strip()
        if not _VERSION.match(text):
            raise VersionError(f"invalid version {text!r}")
        return cls(tuple(int(part) for part in text.split(".")))

    @property
    def key(self) -> Tuple[int, ...]:
        """The release without trailing zeros: 1.2 and 1.2.0 are the same version."""
        release = list(self.release)
        while len(release) > 1 and release[-1] == 0:
            release.pop()
        return tuple(release)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self.key < other.key

    def __str__(self) -> str:
        return ".".join(str(part) for part in self.release)


@dataclass(frozen=True)
class Constraint:
    clauses: Tuple[Tuple[str, Version], ...] = ()

    @classmethod
    def parse(cls, text: str) -> "Constraint":
        text = text.strip()
        if text in ("", "*"):
            return cls()
        clauses = []
        for part in text.split(","):
            match = _CLAUSE.match(part.strip())
            if not match:
                raise VersionError(f"invalid constraint {part.strip()!r} in {text!r}")
            op, version = match.group(1), Version.parse(match.group(2))
            if op == "~=":
                # ~=1.4.2 means >=1.4.2, <1.5 ; ~=1.4 means >=1.4, <2
                if len(version.release) < 2:
                    raise VersionError(f"~= needs at least two version parts: {text!r}")
                upper = version.release[:-2] + (version.release[-2] + 1,)
                clauses.append((">=", version))
                clauses.append(("<", Version(upper)))
            else:
                clauses.append((op, version))
        return cls(tuple(clauses))

    def allows(self, version: Version) -> bool:
        return all(OPERATORS[op](version, bound) for op, bound in self.clauses)

    def __and__(self, other: "Constraint") -> "Constraint":
        return Constraint(self.clauses + other.clauses)

    def __str__(self) -> str:
        if not self.clauses:
            return "*"
        return ", ".join(f"{op}{version}" for op, version in self.clauses)


def best_match(candidates: Iterable[str], constraint: Constraint) -> Optional[str]:
    """The newest of `candidates` (version strings) that `constraint` allows, or None."""
    allowed = [text for text in candidates if constraint.allows(Version.parse(text))]
    return max(allowed, key=Version.parse, default=None)
