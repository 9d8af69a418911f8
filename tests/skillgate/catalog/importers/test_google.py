"""The Google Discovery importer on the mail fixture: nested resources, flatPath and {+name},
media upload exclusions, annotations.required, page tokens, scopes."""

from __future__ import annotations

import pytest

from skillgate.catalog.importers import DocumentError, Imported, import_discovery, integration_dict
from skillgate.catalog.importers.google import AUTHORIZE_URL, TOKEN_URL
from skillgate.catalog.importers.integration import choose_scopes
from tests.skillgate.catalog.importers.documents import by_name, params


def test_names_and_categories_follow_nested_resources(mail: Imported) -> None:
    found = {e["name"]: (e["category"], e["operation"]) for e in mail.endpoints}
    assert found["users_messages_attachments_get"] == (
        "users_messages_attachments",
        "mail.users.messages.attachments.get",
    )
    assert found["users_settings_update_vacation"] == (
        "users_settings",
        "mail.users.settings.updateVacation",
    )
    assert found["ping"] == ("mail", "mail.ping")  # a top-level method: the API's name
    # Depth first in document order, top-level methods last.
    assert [e["name"] for e in mail.endpoints][:3] == [
        "users_get_profile",
        "users_messages_list",
        "users_messages_send",
    ]
    assert mail.endpoints[-1]["name"] == "ping"


def test_paths_from_root_service_path_and_flat_path(mail: Imported) -> None:
    # Discovery's paths are relative to rootUrl + servicePath: that is the base URL.
    assert mail.base_url == "https://mail.googleapis.com/mail/v1"
    eps = by_name(mail)
    assert eps["users_messages_list"]["path"] == "/users/{userId}/messages"
    # flatPath replaces {+resourceName}: its segment becomes the parameter.
    contact = eps["contacts_get"]
    assert contact["path"] == "/people/{peopleId}"
    assert list(params(contact)) == ["peopleId", "fields"]
    assert params(contact)["peopleId"]["description"].startswith(
        "The peopleId part of resourceName"
    )
    # {+name} without a flatPath: one parameter spanning segments.
    copy = eps["contacts_copy"]
    assert copy["path"] == "/{name}:copy"
    assert params(copy)["name"]["multi_segment"] is True


def test_parameters_types_defaults_and_global_fields(mail: Imported) -> None:
    p = params(by_name(mail)["users_messages_list"])
    assert p["userId"]["example"] == "me"  # the documented default, as the example
    assert "default" not in p["userId"]
    assert p["maxResults"] == {
        "name": "maxResults",
        "type": "number",
        "in": "query",
        "description": "The maxResults parameter.",
        "default": 100,
    }
    assert p["includeSpamTrash"]["default"] is False
    assert (p["labelIds"]["type"], p["labelIds"]["items"]) == ("array", "string")
    assert p["fields"]["in"] == "query"
    assert "key" not in p
    assert "alt" not in p


def test_request_body_with_annotations_required_and_recursion(mail: Imported) -> None:
    p = params(by_name(mail)["users_messages_send"])
    assert p["raw"]["required"] is True
    assert p["raw"]["in"] == "body"
    assert "id" not in p  # "Output only."
    assert p["payload"]["type"] == "object"  # MessagePart holds MessageParts
    assert p["payload"]["description"] == "The parsed structure."


def test_media_upload_and_download(mail: Imported) -> None:
    skipped = {s.operation: s for s in mail.skipped}
    upload = skipped["mail.users.messages.send (media upload)"]
    assert (upload.method, upload.path) == ("POST", "/upload/mail/v1/users/{userId}/messages/send")
    assert "metadata-only call is kept" in upload.reason
    assert "users_messages_send" in by_name(mail)
    only = skipped["mail.files.upload"]
    assert only.path == "/files"
    assert only.reason == "needs a media upload; the executor sends JSON or form bodies only"
    assert any(n.startswith("mail.files.get: media download (alt=media)") for n in mail.notes)
    assert "files_get" in by_name(mail)


def test_pagination_and_reads(mail: Imported) -> None:
    eps = by_name(mail)
    assert eps["users_messages_list"]["pagination"] == {
        "style": "page_token",
        "param": "pageToken",
        "next": "nextPageToken",
        "items": "messages",
        "size_param": "maxResults",
        "max_size": 500,
    }
    # Discovery marks no method a read: a POST named query is a write until the
    # overlay's `reads` lists it with the reason.
    assert eps["users_messages_query"]["changes_data"] is True
    assert eps["users_messages_send"]["changes_data"] is True
    assert eps["users_settings_update_vacation"]["changes_data"] is True


def test_integration_scopes_auth_and_verify(mail: Imported) -> None:
    # Greedy cover: the full-access scope covers all but the settings and readonly-only methods.
    assert choose_scopes(mail) == [
        "https://mail.example.com/",
        "https://www.googleapis.com/auth/mail.readonly",
        "https://www.googleapis.com/auth/mail.settings",
    ]
    data = integration_dict(mail, slug="mail")
    assert data["name"] == "Mail"
    assert data["description"] == "Read and send mail in a mailbox."
    oauth = data["auth"]["oauth2"]
    assert (oauth["authorize_url"], oauth["token_url"]) == (AUTHORIZE_URL, TOKEN_URL)
    assert oauth["authorize_params"]["access_type"] == "offline"
    assert data["auth"]["token"]["label"] == "OAuth access token"
    assert data["verify"] == {"method": "GET", "path": "/users/me/profile"}


def test_not_a_discovery_document() -> None:
    with pytest.raises(DocumentError, match="not a Google API Discovery document"):
        import_discovery({"openapi": "3.0.0"}, slug="x")


def test_each_endpoint_keeps_the_scopes_its_method_accepts(mail: Imported) -> None:
    eps = by_name(mail)
    assert eps["users_get_profile"]["scopes"] == [
        "https://mail.example.com/",
        "https://www.googleapis.com/auth/mail.readonly",
    ]
    assert eps["users_settings_update_vacation"]["scopes"] == [
        "https://www.googleapis.com/auth/mail.settings"
    ]
    # What choose_scopes covers is exactly what the endpoints carry.
    assert mail.endpoint_scopes == {e["name"]: e["scopes"] for e in mail.endpoints}
