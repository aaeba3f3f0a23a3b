import pytest

from depgraph import ResolutionError, resolve


def test_resolves_newest_compatible_versions(registry):
    resolution = resolve(registry, {"webapp": "*"})
    assert resolution.versions == {
        "webapp": "1.0",
        "router": "2.10",
        "templates": "1.5.1",
        "logkit": "2.0",
        "markup": "1.1",
    }


def test_install_order_lists_dependencies_first(registry):
    order = [name for name, _ in resolve(registry, {"templates": "<1.5"}).install_order()]
    assert order == ["markup", "templates"]


def test_root_constraints_apply_to_transitive_packages(registry):
    resolution = resolve(registry, {"webapp": "*", "logkit": "<2"})
    assert resolution.versions["logkit"] == "1.2.1"


def test_unknown_package_is_an_error(registry):
    with pytest.raises(ResolutionError, match="not in the registry"):
        resolve(registry, {"nosuch": "*"})


def test_unsatisfiable_constraint_names_who_required_it(registry):
    with pytest.raises(ResolutionError) as info:
        resolve(registry, {"router": ">=2.0", "logkit": "<1"})
    assert "logkit" in str(info.value)


def test_late_conflict_with_earlier_pick(registry):
    with pytest.raises(ResolutionError, match="was picked"):
        resolve(registry, {"logkit": "==1.0", "router": ">=2.10"})
