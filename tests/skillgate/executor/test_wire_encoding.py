"""How request parameters and bodies are written on the wire (issue 25 item 2, the wire
half), checked against a loopback upstream that records exactly what it received and
read back with readers of its own (urllib's `parse_qsl`, the standard library's MIME
parser), never the executor's code:

- form bodies the way the source's `encoding` says: Stripe's `deepObject` (its
  shipped document: `line_items[0][price]`, `metadata[k]`, `expand[]`), OpenAPI's
  default `form` + explode for a string array (`tag_list=a&tag_list=b`, GitLab),
  dotted names sent as they are (`paypal.subject`, NetLicensing);
- optional deepObject query objects (`created[gte]=...`, Stripe) and a number given
  where the source also accepts one (`created=...`);
- multipart uploads (Asana's attachment, Box's avatar, shipped): a file parameter as
  text or base64 with a filename and type, the other fields as text parts; the upload
  cap answers 413 naming the parameter, malformed base64 400 naming it, nothing sent;
- a raw `application/octet-stream` body (Rumble's scan import): the file's bytes;
- a `multipart/related` body (Google Drive's, Cloud Storage's and Chat's uploads): the
  JSON metadata, then the file as its content type says, to the upload path with
  `uploadType=multipart`.

The GitLab, NetLicensing, FaceCheck and Rumble operations are excerpts of real documents
(tests/fixtures/importers/wire-excerpts.json, each citing its source file)."""

from __future__ import annotations

import base64
import email.parser
import email.policy
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
import yaml

from skillgate.catalog.importers import import_openapi, integration_dict
from skillgate.catalog.loader import SHIPPED_DIR, Catalog, load_catalog
from skillgate.executor import request as request_mod
from tests.conftest import FIXTURES, Harness, open_harness
from tests.upstream import Provider, Recorded

EXCERPTS = FIXTURES / "importers" / "wire-excerpts.json"
SHIPPED = (
    "stripe", "asana", "box", "google_drive", "google_cloud_storage", "google_chat", "bitbucket",
    "zoom",
)  # fmt: skip


@pytest.fixture(scope="module")
def wired(tmp_path_factory: pytest.TempPathFactory, provider_server: Provider) -> Catalog:
    """The shipped Stripe, Asana, Box, Google Drive, Cloud Storage, Chat, Bitbucket and Zoom
    files, and the excerpts imported as a user would (`skillgate catalog import openapi`),
    served by the loopback provider."""
    folder = tmp_path_factory.mktemp("wired")
    files = [SHIPPED_DIR / f"{slug}.yaml" for slug in SHIPPED]
    for slug, document in json.loads(EXCERPTS.read_text()).items():
        if slug.startswith("_"):
            continue
        imported = import_openapi(document, slug=slug)
        data = integration_dict(
            imported, slug=slug, base_url=provider_server.url, auth="bearer", verify_path="/me"
        )
        data["allow_private_network"] = True  # the loopback provider
        path = folder / f"{slug}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        files.append(path)
    return load_catalog(files, shipped=False)


async def _open(
    database_url: str,
    tmp_path: Path,
    wired: Catalog,
    provider: Provider,
    monkeypatch: pytest.MonkeyPatch,
    **settings: Any,
) -> AsyncIterator[tuple[Harness, str]]:
    for slug in SHIPPED:
        monkeypatch.setenv(f"SKILLGATE_{slug.upper()}_BASE_URL", provider.url)
    async with open_harness(database_url, tmp_path, wired, **settings) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        for slug in wired.integrations:
            await harness.connect_token(full, slug)
        provider.clear()
        yield harness, full


@pytest.fixture
async def gateway(
    database_url: str,
    tmp_path: Path,
    wired: Catalog,
    provider: Provider,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[Harness, str]]:
    async for opened in _open(database_url, tmp_path, wired, provider, monkeypatch):
        yield opened


async def _sent(
    gateway: tuple[Harness, str], provider: Provider, slug: str, endpoint_: str, **params: Any
) -> Recorded:
    harness, full = gateway
    provider.clear()
    r = await harness.run(full, slug, endpoint_, **params)
    assert r.status_code == 200, r.text
    [sent] = provider.api_requests()
    return sent


def _form(sent: Recorded) -> list[tuple[str, str]]:
    assert sent.headers["content-type"] == "application/x-www-form-urlencoded"
    return parse_qsl(sent.body.decode(), keep_blank_values=True, strict_parsing=True)


def _file(data: bytes, **named: str) -> dict[str, str]:
    """A file parameter's object form: its bytes in base64, and `filename`, `content_type`."""
    return {"base64": base64.b64encode(data).decode(), **named}


def _parts(sent: Recorded) -> list[tuple[str, str | None, str | None, bytes]]:
    """(name, filename, content type, content) of each part, by the stdlib MIME reader."""
    kind = sent.headers["content-type"]
    assert kind.startswith("multipart/form-data; boundary=")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {kind}\r\n\r\n".encode() + sent.body
    )
    assert message.is_multipart()
    out = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        filename = part.get_filename()
        ctype = part.get("Content-Type")
        content = part.get_payload(decode=True)
        out.append((str(name), filename, None if ctype is None else str(ctype), content))
    return out


# ---------------------------------------------------------------- Stripe (deepObject)


async def test_stripe_nested_objects_and_arrays_go_in_brackets(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    sent = await _sent(
        gateway,
        provider,
        "stripe",
        "create_checkout_session",
        mode="payment",
        success_url="https://example.com/ok",
        line_items=[{"price": "price_1", "quantity": 2}, {"price": "price_2", "quantity": 1}],
        metadata={"order": "42", "note": "a&b=c"},
        payment_method_types=["card", "link"],
        expand=["customer"],
        consent_collection_promotions="auto",  # a field split out before: unchanged
    )
    assert (sent.method, sent.path) == ("POST", "/v1/checkout/sessions")
    assert sorted(_form(sent)) == sorted(
        [
            ("mode", "payment"),
            ("success_url", "https://example.com/ok"),
            ("line_items[0][price]", "price_1"),
            ("line_items[0][quantity]", "2"),
            ("line_items[1][price]", "price_2"),
            ("line_items[1][quantity]", "1"),
            ("metadata[order]", "42"),
            ("metadata[note]", "a&b=c"),
            ("payment_method_types[]", "card"),
            ("payment_method_types[]", "link"),
            ("expand[]", "customer"),
            ("consent_collection[promotions]", "auto"),
        ]
    )


async def test_stripe_payment_link_now_imported_and_nested_three_deep(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    # Skipped before (a required array of objects could not be form-encoded).
    sent = await _sent(
        gateway,
        provider,
        "stripe",
        "post_payment_links",
        line_items=[{"price": "price_1", "quantity": 1, "adjustable_quantity": {"enabled": True}}],
        after_completion={"type": "redirect", "redirect": {"url": "https://example.com/x"}},
    )
    assert _form(sent) == [
        ("after_completion[type]", "redirect"),
        ("after_completion[redirect][url]", "https://example.com/x"),
        ("line_items[0][price]", "price_1"),
        ("line_items[0][quantity]", "1"),
        ("line_items[0][adjustable_quantity][enabled]", "true"),
    ]


async def test_stripe_an_empty_object_is_an_empty_value_that_unsets_it(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    # Stripe: "All keys can be unset by posting an empty value to `metadata`."
    sent = await _sent(
        gateway, provider, "stripe", "update_customer", customer="cus_1", metadata={}
    )
    assert _form(sent) == [("metadata", "")]


async def test_stripe_optional_deep_object_in_the_query(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    sent = await _sent(
        gateway, provider, "stripe", "list_customers", created={"gte": 1700000000, "lt": 1800000000}
    )
    assert sent.query == [("created[gte]", "1700000000"), ("created[lt]", "1800000000")]
    # The source also takes a number (`anyOf: [object, integer]`): sent as it is.
    sent = await _sent(gateway, provider, "stripe", "list_customers", created=1700000000)
    assert sent.query == [("created", "1700000000")]
    sent = await _sent(gateway, provider, "stripe", "get_apps_secrets", scope={"type": "account"})
    assert ("scope[type]", "account") in sent.query


# ---------------------------------------------------------------- other real documents


async def test_a_string_array_with_no_encoding_is_repeated_keys(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    # GitLab's `tag_list` (no `encoding` given: OpenAPI's default, style form, explode)
    sent = await _sent(
        gateway, provider, "gitlab", "put_v3_runners_id", id=7, tag_list=["linux", "docker"],
        active=False,
    )  # fmt: skip
    assert (sent.method, sent.path) == ("PUT", "/v3/runners/7")
    assert _form(sent) == [("active", "false"), ("tag_list", "linux"), ("tag_list", "docker")]


async def test_a_dotted_form_name_is_sent_as_it_is(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    sent = await _sent(
        gateway, provider, "netlicensing", "update_payment_method", paymentMethodNumber="PM1",
        paypal_subject="shop@example.com", active=True,
    )  # fmt: skip
    assert sent.path == "/paymentmethod/PM1"
    assert _form(sent) == [("active", "true"), ("paypal.subject", "shop@example.com")]


# ---------------------------------------------------------------- multipart uploads


async def test_multipart_text_file_and_fields(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    sent = await _sent(
        gateway, provider, "asana", "create_attachment_for_object",
        file="hello, asana\n", parent="1204", name="notes.txt", opt_pretty=True,
    )  # fmt: skip
    assert (sent.method, sent.path) == ("POST", "/attachments")
    assert sent.query == [("opt_pretty", "true")]
    parts = {p[0]: p for p in _parts(sent)}
    assert parts["file"] == ("file", "file", 'text/plain; charset="utf-8"', b"hello, asana\n")
    assert parts["parent"][1:] == (None, None, b"1204")
    assert parts["name"][3] == b"notes.txt"


async def test_multipart_base64_file_with_name_and_type(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    png = bytes(range(256)) * 3  # binary, every byte value
    sent = await _sent(
        gateway, provider, "box", "post_users_id_avatar", user_id="12345",
        pic=_file(png, filename="me.png", content_type="image/png"),
    )  # fmt: skip
    assert (sent.method, sent.path) == ("POST", "/users/12345/avatar")
    assert _parts(sent) == [("pic", "me.png", "image/png", png)]
    assert sent.headers["content-length"] == str(len(sent.body))


async def test_a_binary_body_is_the_file_itself(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    # Rumble's scan import: `application/octet-stream`, `format: binary`
    data = b"\x1f\x8b\x08\x00" + bytes(range(200))
    site = "0a1b2c3d-0000-4000-8000-000000000001"
    sent = await _sent(
        gateway, provider, "rumble", "import_scan_data", site_id=site,
        body=_file(data, filename="scan.gz"),
    )  # fmt: skip
    assert (sent.method, sent.path) == ("PUT", f"/org/sites/{site}/import")
    assert sent.headers["content-type"] == "application/octet-stream"
    assert sent.body == data


PDF = b"%PDF-1.4\n" + bytes(range(256))
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))


@pytest.mark.parametrize(
    ("slug", "endpoint_", "params", "path", "parts"),
    [
        # The document gives `file` as a plain string (its description: an RFC 2388
        # upload); the overlay marks it a file, so it is a part with a filename.
        (
            "stripe", "post_files",
            {"purpose": "dispute_evidence",
             "file": _file(PDF, filename="receipt.pdf", content_type="application/pdf")},
            "/v1/files",
            [("file", "receipt.pdf", "application/pdf", PDF),
             ("purpose", None, None, b"dispute_evidence")],
        ),
        # The same, in Zoom's virtual-background upload.
        (
            "zoom", "upload_v_buser",
            {"userId": "me", "file": _file(PNG, filename="office.png", content_type="image/png")},
            "/users/me/settings/virtual_backgrounds",
            [("file", "office.png", "image/png", PNG)],
        ),
        # The document describes a multipart POST of `files` fields but declares no body.
        (
            "bitbucket", "post_repositories_workspace_repo_slug_downloads",
            {"workspace": "acme", "repo_slug": "web", "files": _file(PNG, filename="build.zip")},
            "/repositories/acme/web/downloads",
            [("files", "build.zip", "application/octet-stream", PNG)],
        ),
    ],
)  # fmt: skip
async def test_an_upload_the_document_misdeclares_is_a_file_part(
    gateway: tuple[Harness, str],
    provider: Provider,
    slug: str,
    endpoint_: str,
    params: dict[str, Any],
    path: str,
    parts: list[tuple[str, str | None, str | None, bytes]],
) -> None:
    sent = await _sent(gateway, provider, slug, endpoint_, **params)
    assert (sent.method, sent.path) == ("POST", path)
    assert _parts(sent) == parts


def test_a_binary_body_carries_its_files_type() -> None:
    """DocuSign's profile image (the document declares no body): the image's bytes, with
    the type the agent gave; text is text/plain."""
    docusign = load_catalog([SHIPPED_DIR / "docusign.yaml"], shipped=False)  # it alone
    endpoint = docusign.endpoint("docusign", "user_profile_image_put_user_profile_image")
    assert endpoint is not None
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(64))
    given = {"accountId": "a1", "userId": "u1", "body": _file(png, content_type="image/png")}
    req = request_mod.build(endpoint, "https://demo.docusign.net/restapi", given, {}, None)
    assert (req.method, req.url) == (
        "PUT", "https://demo.docusign.net/restapi/v2.1/accounts/a1/users/u1/profile/image"
    )  # fmt: skip
    assert (req.headers["Content-Type"], req.body) == ("image/png", png)
    text = request_mod.build(endpoint, "https://d.test", {**given, "body": "hi"}, {}, None)
    assert (text.headers["Content-Type"], text.body) == ("text/plain; charset=utf-8", b"hi")


async def test_a_related_body_is_the_metadata_then_the_file(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    pdf = b"%PDF-1.4\n" + bytes(range(256)) * 2  # every byte value
    sent = await _sent(
        gateway, provider, "google_drive", "upload_file", name="flyer.pdf",
        parents=["0Bfolder"], file=_file(pdf, content_type="application/pdf"),
    )  # fmt: skip
    assert (sent.method, sent.path) == ("POST", "/files")  # the operator's base: the provider
    assert ("uploadType", "multipart") in sent.query
    kind = sent.headers["content-type"]
    assert kind.startswith("multipart/related; boundary=")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {kind}\r\n\r\n".encode() + sent.body
    )
    metadata, media = message.iter_parts()
    assert metadata.get_content_type() == "application/json"
    assert json.loads(metadata.get_payload(decode=True)) == {
        "name": "flyer.pdf", "parents": ["0Bfolder"]
    }  # fmt: skip
    assert media.get_content_type() == "application/pdf"
    assert media.get_payload(decode=True) == pdf
    assert sent.headers["content-length"] == str(len(sent.body))


async def test_a_cloud_storage_upload_names_the_object_in_its_metadata(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    sent = await _sent(
        gateway, provider, "google_cloud_storage", "objects_insert", bucket="acme-exports",
        name_body="reports/q3.csv", contentType="text/csv", file="id,total\n1,9.50\n",
    )  # fmt: skip
    assert (sent.method, sent.path) == ("POST", "/b/acme-exports/o")
    assert ("uploadType", "multipart") in sent.query
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {sent.headers['content-type']}\r\n\r\n".encode() + sent.body
    )
    metadata, media = message.iter_parts()
    assert json.loads(metadata.get_payload(decode=True)) == {
        "name": "reports/q3.csv", "contentType": "text/csv"
    }  # fmt: skip
    assert media.get_payload(decode=True) == b"id,total\n1,9.50\n"


@pytest.mark.parametrize(
    ("slug", "endpoint_", "params", "url"),
    [
        (
            "google_drive", "upload_file", {"file": "hi"},
            "https://www.googleapis.com/upload/drive/v3/files?uploadType=multipart",
        ),
        (
            "google_cloud_storage", "objects_insert", {"bucket": "b1", "file": "hi"},
            "https://storage.googleapis.com/upload/storage/v1/b/b1/o?uploadType=multipart",
        ),
        (
            "google_chat", "media_upload", {"spacesId": "AAA", "file": "hi", "filename": "a.txt"},
            "https://chat.googleapis.com/upload/v1/spaces/AAA/attachments:upload?uploadType=multipart",
        ),
    ],
)  # fmt: skip
def test_a_google_upload_goes_to_its_upload_path(
    wired: Catalog, slug: str, endpoint_: str, params: dict[str, Any], url: str
) -> None:
    """Without an operator's base URL: Google's upload path, not the metadata one (which
    takes no content)."""
    endpoint = wired.endpoint(slug, endpoint_)
    assert endpoint is not None
    assert endpoint.base_url is not None
    assert request_mod.build(endpoint, endpoint.base_url, params, {}, None).url == url


@pytest.mark.parametrize(
    ("pic", "status", "message"),
    [
        ({"base64": "not base64!"}, 400, "pic.base64: is not valid base64."),
        ({"base64": "aGk=", "text": "hi"}, 400, "pic: a file is its text, or an object with"),
        ({"base64": "aGk=", "filename": 'a"b'}, 400, "pic.filename: "),
        ({"base64": "aGk=", "content_type": "image/png\r\nX: y"}, 400, "pic.content_type: "),
        (5, 400, "pic: a file is a string (its text) or an object with `base64`."),
    ],
)
async def test_a_malformed_file_is_refused_naming_it(
    gateway: tuple[Harness, str], provider: Provider, pic: Any, status: int, message: str
) -> None:
    harness, full = gateway
    r = await harness.run(full, "box", "post_users_id_avatar", user_id="1", pic=pic)
    assert r.status_code == status, r.text
    assert message in r.json()["message"]
    assert provider.api_requests() == []


async def test_an_upload_over_the_cap_is_413_naming_the_field(
    database_url: str,
    tmp_path: Path,
    wired: Catalog,
    provider: Provider,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async for harness, full in _open(
        database_url, tmp_path, wired, provider, monkeypatch, max_upload_bytes=2048
    ):
        big = base64.b64encode(b"x" * 2049).decode()
        r = await harness.run(full, "box", "post_users_id_avatar", user_id="1", pic={"base64": big})
        assert r.status_code == 413, r.text
        assert r.json()["error"] == "payload_too_large"
        assert r.json()["message"].startswith("pic: the file is 2,049 bytes; uploads are capped")
        assert provider.api_requests() == []
        ok = await harness.run(full, "box", "post_users_id_avatar", user_id="1", pic="y" * 2048)
        assert ok.status_code == 200, ok.text


async def test_the_endpoint_doc_shows_a_file_and_how_to_pass_it(
    gateway: tuple[Harness, str],
) -> None:
    harness, full = gateway
    r = await harness.client.get(
        "/v1/skills/box/post_users_id_avatar", headers={"Authorization": f"Bearer {full}"}
    )
    assert r.status_code == 200
    [pic] = [p for p in r.json()["parameters"] if p["name"] == "pic"]
    assert pic["type"] == "string"
    assert pic["file"] is True
    assert '{"base64": ...' in pic["description"]
    assert "@./path" in pic["description"]
    assert r.json()["body"] == "multipart"


async def test_a_dry_run_shows_the_form_body_as_sent(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    r = await harness.client.post(
        "/v1/stripe/update_customer",
        json={"params": {"customer": "cus_1", "metadata": {"a": "1"}}, "dry_run": True},
        headers={"Authorization": f"Bearer {full}"},
    )
    assert r.status_code == 200, r.text
    request = r.json()["request"]
    assert urlsplit(request["url"]).path == "/v1/customers/cus_1"
    assert request["body"] == "metadata%5Ba%5D=1"
    assert provider.api_requests() == []
