import pytest

from depgraph import Constraint, Version, VersionError, best_match


def test_versions_compare_part_by_part():
    assert Version.parse("1.10") > Version.parse("1.9")
    assert Version.parse("2.0.1") > Version.parse("2")
    assert sorted(["1.2", "1.10", "1.9.9"], key=Version.parse) == ["1.2", "1.9.9", "1.10"]


def test_trailing_zeros_do_not_matter():
    assert Version.parse("1.2.0") == Version.parse("1.2")
    assert len({Version.parse("3"), Version.parse("3.0.0")}) == 1


@pytest.mark.parametrize("text", ["", "1.", "v1.2", "1.2-beta"])
def test_invalid_versions_are_rejected(text):
    with pytest.raises(VersionError):
        Version.parse(text)


@pytest.mark.parametrize(
    "spec, version, allowed",
    [
        pytest.param(">=1.2, <2", "1.2", True, id="range-1.2-True"),
        pytest.param(">=1.2, <2", "2.0", False, id="range-2.0-False"),
        ("!=1.5", "1.5", False),
        ("==1.0", "1", True),
        ("<=2", "2", True),
        ("*", "0.1", True),
        ("~=1.4", "1.9", True),
        ("~=1.4", "2.0", False),
        ("~=1.4.2", "1.4.9", True),
        ("~=1.4.2", "1.5", False),
    ],
)
def test_constraint_allows(spec, version, allowed):
    assert Constraint.parse(spec).allows(Version.parse(version)) is allowed


def test_compatible_release_needs_two_parts():
    with pytest.raises(VersionError):
        Constraint.parse("~=2")


def test_best_match_picks_newest_allowed():
    candidates = ["1.9", "1.10", "2.0", "1.2"]
    assert best_match(candidates, Constraint.parse("<2")) == "1.10"
    assert best_match(candidates, Constraint.parse(">3")) is None


def test_constraint_text_round_trip():
    assert str(Constraint.parse(" >=1.0 ,  !=1.3")) == ">=1.0, !=1.3"
    assert str(Constraint.parse("")) == "*"
