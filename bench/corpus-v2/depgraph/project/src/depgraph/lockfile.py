"""The lock file: resolved versions in install order, as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Tuple, Union

from .resolver import Registry, Resolution
from .versions import Constraint, Version

LOCK_FORMAT = 1


class LockError(Exception):
    pass


@dataclass(frozen=True)
class LockedPackage:
    name: str
    version: str
    requires: Tuple[str, ...] = ()


def dumps(resolution: Resolution) -> str:
    packages = [
        {"name": name, "version": version, "requires": sorted(resolution.graph.requires(name))}
        for name, version in resolution.install_order()
    ]
    return json.dumps({"lock-format": LOCK_FORMAT, "packages": packages}, indent=2) + "\n"


def loads(text: str) -> Dict[str, LockedPackage]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LockError(f"lock file is not valid JSON: {error}") from None
    if data.get("lock-format") != LOCK_FORMAT:
        raise LockError(f"unsupported lock format {data.get('lock-format')!r}")
    locked = {}
    for entry in data["packages"]:
        locked[entry["name"]] = LockedPackage(
            entry["name"], entry["version"], tuple(entry["requires"])
        )
    return locked


def read(path: Union[str, Path]) -> Dict[str, LockedPackage]:
    return loads(Path(path).read_text(encoding="utf-8"))


def diff(old: Dict[str, LockedPackage], new: Dict[str, LockedPackage]) -> List[str]:
    """Changes from `old` to `new`: "+ name version", "- name version", "~ name a -> b"."""
    changes = []
    for name in sorted(set(old) | set(new)):
        if name not in old:
            changes.append(f"+ {name} {new[name].version}")
        elif name not in new:
            changes.append(f"- {name} {old[name].version}")
        elif old[name].version != new[name].version:
            changes.append(f"~ {name} {old[name].version} -> {new[name].version}")
    return changes


def update(path: Union[str, Path], resolution: Resolution) -> List[str]:
    """Writes the lock file for `resolution`; returns what changed since the previous one."""
    path = Path(path)
    previous = read(path) if path.exists() else {}
    text = dumps(resolution)
    path.write_text(text, encoding="utf-8")
    return diff(previous, loads(text))


def verify(locked: Dict[str, LockedPackage], registry: Registry) -> List[str]:
    """Problems with a lock against the registry: unknown versions, unmet requirements."""
    problems = []
    for name, package in sorted(locked.items()):
        releases = registry.get(name, {})
        if package.version not in releases:
            problems.append(f"{name} {package.version} is not in the registry")
            continue
        for dep, spec in sorted(releases[package.version].items()):
            if dep not in locked:
                problems.append(f"{name} requires {dep}, which is not locked")
            elif not Constraint.parse(spec).allows(Version.parse(locked[dep].version)):
                problems.append(f"{name} requires {dep} {spec}, locked {locked[dep].version}")
    return problems
