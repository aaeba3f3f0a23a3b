from __future__ import annotations

import heapq
from typing import Dict, Iterable, List, Optional, Set


class CycleError(Exception):
    def __init__(self, cycle: List[str]) -> None:
        super().__init__("dependency cycle: " + " -> ".join(cycle))
        self.cycle = cycle


class DependencyGraph:
    """Which package requires which; every package mentioned is a node."""

    def __init__(self) -> None:
        self._requires: Dict[str, Set[str]] = {}

    def add(self, name: str, requires: Iterable[str] = ()) -> None:
        deps = self._requires.setdefault(name, set())
        for dep in requires:
            deps.add(dep)
            self._requires.setdefault(dep, set())

    def __contains__(self, name: str) -> bool:
        return name in self._requires

    def __len__(self) -> int:
        return len(self._requires)

    def requires(self, name: str) -> Set[str]:
        return set(self._requires[name])

    def dependents(self, name: str) -> Set[str]:
        return {other for other, deps in self._requires.items() if name in deps}

    def transitive_requires(self, name: str) -> Set[str]:
        seen: Set[str] = set()
        stack = list(self._requires[name])
        while stack:
            dep = stack.pop()
            if dep not in seen:
                seen.add(dep)
                stack.extend(self._requires[dep])
        return seen

    def install_order(self) -> List[str]:
        """Every package after the packages it requires; ties in alphabetical order."""
        pending = {name: len(deps) for name, deps in self._requires.items()}
        ready = [name for name, count in pending.items() if count == 0]
        heapq.heapify(ready)
        order = []
        while ready:
            name = heapq.heappop(ready)
            order.append(name)
            for dependent in self.dependents(name):
                pending[dependent] -= 1
                if pending[dependent] == 0:
                    heapq.heappush(ready, dependent)
        if len(order) < len(pending):
            raise CycleError(self.find_cycle() or sorted(set(pending) - set(order)))
        return order

    def find_cycle(self) -> Optional[List[str]]:
        """One cycle as a path that ends where it starts, or None."""
        path: List[str] = []
        done: Set[str] = set()

        def visit(name: str) -> Optional[List[str]]:
            if name in done:
                return None
            if name in path:
                return path[path.index(name):] + [name]
            path.append(name)
            for dep in sorted(self._requires[name]):
                cycle = visit(dep)
                if cycle:
                    return cycle
            path.pop()
            done.add(name)
            return None

        for name in sorted(self._requires):
            cycle = visit(name)
            if cycle:
                return cycle
        return None
