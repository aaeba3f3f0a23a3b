"""Resolve package requirements against a registry, order installs, and keep a lock file."""

from .graph import CycleError, DependencyGraph
from .resolver import Resolution, ResolutionError, resolve
from .versions import Constraint, Version, VersionError, best_match

__all__ = [
    "Constraint",
    "CycleError",
    "DependencyGraph",
    "Resolution",
    "ResolutionError",
    "Version",
    "VersionError",
    "best_match",
    "resolve",
]
