import json

import pytest

from depgraph import resolve
from depgraph.lockfile import LockError, LockedPackage, diff, loads, read, update, verify


def test_lock_lists_packages_in_install_order(registry, tmp_path):
    path = tmp_path / "deps.lock"
    update(path, resolve(registry, {"templates": "~=1.4.0"}))
    data = json.loads(path.read_text())
    assert [entry["name"] for entry in data["packages"]] == ["markup", "templates"]


def test_lock_round_trip(registry, tmp_path):
    path = tmp_path / "deps.lock"
    update(path, resolve(registry, {"webapp": "*"}))
    locked = read(path)
    assert locked["router"] == LockedPackage("router", "2.10", ("logkit",))
    assert verify(locked, registry) == []


def test_update_reports_changes_since_previous_lock(registry, tmp_path):
    path = tmp_path / "deps.lock"
    assert update(path, resolve(registry, {"router": "<2.5"})) == ["+ logkit 2.0", "+ router 2.3"]
    changes = update(path, resolve(registry, {"router": "*", "markup": "*"}))
    assert changes == ["+ markup 1.1", "~ router 2.3 -> 3.0"]


def test_diff_of_removed_package():
    old = {"a": LockedPackage("a", "1.0"), "b": LockedPackage("b", "2.0")}
    assert diff(old, {"a": LockedPackage("a", "1.0")}) == ["- b 2.0"]


def test_verify_reports_unmet_requirement(registry):
    locked = {
        "router": LockedPackage("router", "2.10", ("logkit",)),
        "logkit": LockedPackage("logkit", "1.0"),
    }
    assert verify(locked, registry) == ["router requires logkit >=1.2, locked 1.0"]


def test_unsupported_lock_format():
    with pytest.raises(LockError):
        loads('{"lock-format": 7, "packages": []}')
