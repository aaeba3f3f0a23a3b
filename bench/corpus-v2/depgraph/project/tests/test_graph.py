import pytest

from depgraph import CycleError, DependencyGraph


@pytest.fixture
def graph():
    g = DependencyGraph()
    g.add("app", ["web", "db"])
    g.add("web", ["http", "log"])
    g.add("db", ["log"])
    g.add("http", [])
    return g


def test_every_required_package_is_a_node(graph):
    assert "log" in graph
    assert len(graph) == 5


def test_dependents(graph):
    assert graph.dependents("log") == {"web", "db"}
    assert graph.dependents("app") == set()


def test_transitive_requires(graph):
    assert graph.transitive_requires("app") == {"web", "db", "http", "log"}
    assert graph.transitive_requires("db") == {"log"}


def test_install_order_puts_requirements_first(graph):
    assert graph.install_order() == ["http", "log", "db", "web", "app"]


def test_cycle_is_reported_with_its_path():
    g = DependencyGraph()
    g.add("a", ["b"])
    g.add("b", ["c"])
    g.add("c", ["a"])
    g.add("d", [])
    with pytest.raises(CycleError) as info:
        g.install_order()
    assert info.value.cycle == ["a", "b", "c", "a"]


def test_find_cycle_on_acyclic_graph(graph):
    assert graph.find_cycle() is None
