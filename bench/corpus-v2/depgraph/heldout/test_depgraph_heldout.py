import json

import pytest

from depgraph import Constraint, CycleError, DependencyGraph, Version, best_match, resolve
from depgraph.lockfile import dumps, loads, update


@pytest.mark.parametrize(
    "spec, version, allowed",
    [
        ("<2.0", "2", False),
        ("<2", "1.99.99", True),
        (">1", "1.0.0", False),
        (">=1.0.0", "1", True),
        ("!=1.5", "1.5.0", False),
        ("==2.1.0", "2.1", True),
        ("~=2.1", "2.9.3", True),
        ("~=2.1", "3", False),
        ("~=1.4.2", "1.4.10", True),
        ("~=1.4.2", "1.4.1", False),
        ("~=0.3.1.4", "0.3.1.9", True),
        ("~=0.3.1.4", "0.3.2", False),
    ],
)
def test_more_constraints(spec, version, allowed):
    assert Constraint.parse(spec).allows(Version.parse(version)) is allowed


def test_versions_sort_numerically_and_ignore_trailing_zeros():
    versions = [Version.parse(t) for t in ["2.0.0", "0.10", "2", "0.9.1", "1.0"]]
    assert [str(v) for v in sorted(versions)] == ["0.9.1", "0.10", "1.0", "2.0.0", "2"]
    assert Version.parse("2.0.0") <= Version.parse("2")
    assert not Version.parse("2") < Version.parse("2.0")


def test_best_match_with_double_digit_parts():
    assert best_match(["0.9", "0.10", "0.11", "0.2"], Constraint()) == "0.11"
    assert best_match(["4.9.9", "4.10.0"], Constraint.parse("<5")) == "4.10.0"


def test_self_dependency_is_a_cycle():
    graph = DependencyGraph()
    graph.add("solo", ["solo"])
    with pytest.raises(CycleError) as info:
        graph.install_order()
    assert info.value.cycle == ["solo", "solo"]


def test_cycle_behind_acyclic_packages():
    graph = DependencyGraph()
    graph.add("app", ["b"])
    graph.add("b", ["c"])
    graph.add("c", ["b", "util"])
    graph.add("util")
    with pytest.raises(CycleError) as info:
        graph.install_order()
    assert info.value.cycle == ["b", "c", "b"]


def test_resolver_uses_compatible_release_and_numeric_order(registry):
    resolution = resolve(registry, {"router": "~=2.0", "templates": "~=1.4.0"})
    assert resolution.versions["router"] == "2.10"
    assert resolution.versions["templates"] == "1.4.5"


def test_lock_file_format(registry):
    data = json.loads(dumps(resolve(registry, {"router": "==2.3"})))
    assert data == {
        "lock-format": 1,
        "packages": [
            {"name": "logkit", "version": "2.0", "requires": []},
            {"name": "router", "version": "2.3", "requires": ["logkit"]},
        ],
    }


def test_loads_hand_written_lock():
    text = '{"lock-format": 1, "packages": [{"name": "a", "version": "1.2", "requires": ["b"]}]}'
    assert loads(text)["a"].requires == ("b",)


def test_update_reports_downgrade_and_removal(registry, tmp_path):
    path = tmp_path / "deps.lock"
    update(path, resolve(registry, {"webapp": "*"}))
    changes = update(path, resolve(registry, {"router": "<2.1"}))
    assert changes == ["- markup 1.1", "~ router 2.10 -> 2.0", "- templates 1.5.1", "- webapp 1.0"]
