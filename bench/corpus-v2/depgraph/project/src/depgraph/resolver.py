"""Pick one version of every package needed, newest first, without backtracking."""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from typing import Deque, Dict, List, Mapping, Tuple

from .graph import DependencyGraph
from .versions import Constraint, Version, best_match

# name -> version -> {dependency name: constraint text}
Registry = Mapping[str, Mapping[str, Mapping[str, str]]]

ROOT = "<root>"


class ResolutionError(Exception):
    pass


@dataclass
class Resolution:
    versions: Dict[str, str]
    graph: DependencyGraph

    def install_order(self) -> List[Tuple[str, str]]:
        return [(name, self.versions[name]) for name in self.graph.install_order()]


def resolve(registry: Registry, requirements: Mapping[str, str]) -> Resolution:
    """Resolves `requirements` ({name: constraint}) against `registry`.

    Packages are picked breadth-first; each pick is the newest version allowed by all the
    constraints known at that moment. A constraint that arrives after its package was
    picked and rules the pick out is a conflict (ResolutionError).
    """
    constraints: Dict[str, Constraint] = {}
    required_by: Dict[str, List[str]] = defaultdict(list)
    picked: Dict[str, str] = {}
    queue: Deque[str] = deque()
    graph = DependencyGraph()

    def require(name: str, spec: str, by: str) -> None:
        if name not in registry:
            raise ResolutionError(f"{by} requires {name}, which is not in the registry")
        constraint = constraints.get(name, Constraint()) & Constraint.parse(spec)
        constraints[name] = constraint
        required_by[name].append(by)
        if name in picked:
            if not constraint.allows(Version.parse(picked[name])):
                raise ResolutionError(
                    f"{name} {picked[name]} was picked, but {by} requires {name} {spec}"
                )
        elif name not in queue:
            queue.append(name)

    for name, spec in requirements.items():
        require(name, spec, ROOT)

    while queue:
        name = queue.popleft()
        version = best_match(registry[name], constraints[name])
        if version is None:
            raise ResolutionError(
                f"no version of {name} satisfies {constraints[name]}"
                f" (required by {', '.join(required_by[name])})"
            )
        picked[name] = version
        dependencies = registry[name][version]
        graph.add(name, dependencies)
        for dep, spec in dependencies.items():
            require(dep, spec, f"{name} {version}")

    return Resolution(picked, graph)
