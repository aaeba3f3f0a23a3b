import pytest

from accessctl import PermissionDenied, Resource

DOC = Resource("docs", "handbook")
ALICES_POST = Resource("posts", "p1", owner="alice")
BOBS_POST = Resource("posts", "p2", owner="bob")


@pytest.mark.parametrize(
    "username, action, resource, allowed",
    [
        ("alice", "read", DOC, True),
        ("alice", "write", DOC, True),
        ("bob", "write", DOC, False),
        ("alice", "edit", ALICES_POST, True),
        ("alice", "edit", BOBS_POST, False),
        ("carol", "edit", BOBS_POST, True),
        ("carol", "read", DOC, False),
    ],
    ids=[
        "editor-reads-doc",
        "editor-writes-doc",
        "viewer-cannot-write-doc",
        "owner-edits-own-post",
        "editor-cannot-edit-others-post",
        "moderator-edits-any-post",
        "moderator-cannot-read-doc",
    ],
)
def test_decisions(store, policy, username, action, resource, allowed):
    assert policy.can(store.get(username), action, resource) is allowed


def test_reason_names_the_owner(store, policy):
    decision = policy.decide(store.get("alice"), "edit", ALICES_POST)
    assert decision.reason == "alice owns posts p1"


def test_deny_rule_beats_admin(store, policy):
    store.grant("bob", "admin")
    bob = store.get("bob")
    assert policy.can(bob, "refund", Resource("billing", "inv-7"))
    assert not policy.can(bob, "delete", Resource("billing", "inv-7"))


def test_disabled_user_is_denied(store, policy):
    store.disable("alice")
    with pytest.raises(PermissionDenied, match="disabled"):
        policy.require(store.get("alice"), "read", DOC)
