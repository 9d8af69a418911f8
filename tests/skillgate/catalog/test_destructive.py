"""Which endpoints are destructive: derived from the method and the verbs of the name or
the provider's operation id, overridable in a catalog file or an overlay."""

from __future__ import annotations

import pytest

from skillgate.catalog.destructive import derive, words
from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.catalog.models import Endpoint


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog()


@pytest.mark.parametrize(
    ("method", "name", "operation", "expected"),
    [
        ("GET", "delete_history", None, False),  # a read is never destructive
        ("DELETE", "remove_label", None, True),  # a delete always is
        ("POST", "send_message", "gmail.users.messages.send", True),
        ("POST", "merge_pull_request", "pulls/merge", True),
        ("POST", "post_refunds", "PostRefunds", True),  # the plural of a verb
        ("POST", "create_issue", "issues/create", False),
        ("PATCH", "update_task", None, False),
        ("POST", "archive_issue", None, False),  # reversible
        ("POST", "gists_create", "gists/create", False),
    ],
)
def test_derive(method: str, name: str, operation: str | None, expected: bool) -> None:
    assert derive(method, name, operation) is expected


def test_words_split_every_identifier_style() -> None:
    assert words("PostChargesChargeRefund") >= {"post", "charges", "charge", "refund"}
    assert words("gmail.users.messages.send") >= {"gmail", "messages", "message", "send"}
    assert words("repos/merge-upstream") >= {"repos", "merge", "upstream"}


def test_the_shipped_catalog(shipped: Catalog) -> None:
    def flag(slug: str, name: str) -> bool | None:
        endpoint = shipped.endpoint(slug, name)
        assert endpoint is not None, (slug, name)
        return endpoint.destructive

    for slug, name in (
        ("gmail", "send_message"),
        ("gmail", "trash_message"),
        ("github", "merge_pull_request"),
        ("slack", "delete_message"),  # a POST
        ("stripe", "create_refund"),
        ("sendgrid", "send_mail"),
        ("github", "repos_transfer"),
    ):
        assert flag(slug, name) is True, (slug, name)
    for slug, name in (
        ("github", "create_issue"),
        ("slack", "post_message"),
        ("linear", "archive_issue"),
        ("stripe", "post_refunds_refund"),  # the overlay says: an update of metadata
        ("google_calendar", "list_events"),
    ):
        assert flag(slug, name) is False, (slug, name)
    every = [e for slug in shipped.slugs for e in shipped.get(slug).endpoints]  # type: ignore[union-attr]
    assert all(isinstance(e.destructive, bool) for e in every)


def test_a_file_can_say_either_way() -> None:
    base = {
        "method": "DELETE",
        "path": "/x",
        "category": "things",
        "description": "Remove a thing from the list.",
        "parameters": [],
        "errors": [{"code": 404, "cause": "No such thing.", "fix": "Check it."}],
    }
    assert Endpoint.model_validate({**base, "name": "remove_thing"}).destructive is True
    kept = Endpoint.model_validate({**base, "name": "remove_thing", "destructive": False})
    assert kept.destructive is False
    post = {**base, "method": "POST", "name": "launch_rocket", "destructive": True}
    assert Endpoint.model_validate(post).destructive is True
