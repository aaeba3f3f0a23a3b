import pytest

from accessctl import Role, RoleError, grants


@pytest.mark.parametrize(
    "granted, needed, expected",
    [
        ("docs:read", "docs:read", True),
        ("docs:read", "docs:write", False),
        ("docs:*", "docs:write", True),
        ("docs:*", "docsets:write", False),
        ("*", "billing:delete", True),
        ("posts:edit:own", "posts:edit", False),
    ],
)
def test_grants(granted, needed, expected):
    assert grants(granted, needed) is expected


def test_inherited_permissions(registry):
    assert registry.effective_permissions("editor") == {
        "docs:write",
        "posts:edit:own",
        "docs:read",
        "profile:read",
        "comments:write",
    }


def test_permissions_for_several_roles(registry):
    assert registry.permissions_for(["viewer", "admin"]) == {"docs:read", "profile:read", "comments:write", "*"}


def test_unknown_role(registry):
    with pytest.raises(RoleError):
        registry.effective_permissions("owner")


def test_duplicate_role_is_rejected(registry):
    with pytest.raises(RoleError):
        registry.add(Role("viewer"))
