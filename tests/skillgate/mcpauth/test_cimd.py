"""Clients by client ID metadata document: the `client_id` is the URL of a JSON document
the gateway fetches through its SSRF-safe outbound (public hosts only, size and time
caps, no redirects, cached). A loopback document server stands in for the client's
site, under the test-only `SKILLGATE_OAUTH_CIMD_ALLOW_LOOPBACK` (refused in production)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from skillgate.catalog.loader import Catalog
from skillgate.mcpauth.clients import ClientRefused, _check_document_url, document_client
from skillgate.settings import ConfigError, Settings, finalize
from tests.conftest import Harness, open_harness
from tests.skillgate.dashboard.conftest import Web
from tests.skillgate.mcpauth.conftest import REDIRECT, OAuthClient, mcp
from tests.upstream import Provider, Reply

PATH = "/clients/app.json"


def document(url: str, **changes: Any) -> dict[str, Any]:
    doc = {
        "client_id": url,
        "client_name": "Doc Client",
        "redirect_uris": [REDIRECT],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }
    doc.update(changes)
    return doc


@pytest.fixture
async def loopback_app(
    database_url: str, tmp_path: Path, test_catalog: Catalog
) -> AsyncIterator[Harness]:
    async with open_harness(
        database_url, tmp_path, test_catalog, oauth_cimd_allow_loopback=True
    ) as harness:
        yield harness


def fetches(provider: Provider, path: str = PATH) -> int:
    return sum(1 for r in provider.requests if r.path == path)


async def test_a_metadata_document_client_signs_in(
    loopback_app: Harness, provider_server: Provider
) -> None:
    provider_server.reset()
    url = provider_server.url + PATH
    provider_server.reply("GET", PATH, Reply(200, document(url)))
    browser = Web(loopback_app.client)
    assert (await browser.signup("doc@example.com")).status_code == 303
    client = OAuthClient(loopback_app.client, browser, client_id=url)
    page = await client.consent_page()
    assert page.status_code == 200, page.text[:300]
    assert "Doc Client" in page.text
    assert url in page.text  # "identified by" the document's address
    tokens = await client.tokens()
    assert (await mcp(loopback_app, tokens["access_token"])).status_code == 200
    refreshed = await client.refresh(tokens["refresh_token"])
    assert refreshed.status_code == 200, refreshed.text
    assert fetches(provider_server) == 1, "the document is cached"
    sent = next(r for r in provider_server.requests if r.path == PATH)
    assert sent.method == "GET"


@pytest.mark.parametrize(
    ("why", "changes"),
    [
        ("another client_id", {"client_id": "https://other.example/app.json"}),
        ("a client secret", {"client_secret": "s3cret"}),
        ("a secret-based method", {"token_endpoint_auth_method": "client_secret_post"}),
        ("no redirect URIs", {"redirect_uris": []}),
        ("a remote http redirect", {"redirect_uris": ["http://evil.example/cb"]}),
    ],
)
async def test_a_bad_document_is_refused(
    loopback_app: Harness, provider_server: Provider, why: str, changes: dict[str, Any]
) -> None:
    provider_server.reset()
    url = provider_server.url + PATH
    provider_server.reply("GET", PATH, Reply(200, document(url, **changes)))
    client = OAuthClient(loopback_app.client, web=None, client_id=url)  # type: ignore[arg-type]
    r = await client.client.get("/oauth/authorize", params=client.authorize_params())
    assert r.status_code == 400, (why, r.status_code)
    assert "not found" in r.json()["error_description"], why


async def test_an_oversized_or_redirecting_document_is_refused(
    loopback_app: Harness, provider_server: Provider
) -> None:
    provider_server.reset()
    url = provider_server.url + PATH
    big = document(url, padding="x" * 20_000)
    provider_server.reply("GET", PATH, Reply(200, big))
    client = OAuthClient(loopback_app.client, web=None, client_id=url)  # type: ignore[arg-type]
    r = await client.client.get("/oauth/authorize", params=client.authorize_params())
    assert r.status_code == 400
    moved = provider_server.url + "/clients/moved.json"
    provider_server.reply("GET", "/clients/moved.json", Reply(302, "", {"Location": url}))
    client.client_id = moved
    r = await client.client.get("/oauth/authorize", params=client.authorize_params())
    assert r.status_code == 400
    assert fetches(provider_server, "/clients/moved.json") == 1  # asked once, not followed


async def test_without_the_allowance_private_addresses_are_never_fetched(
    harness: Harness, provider_server: Provider
) -> None:
    """The default: http is refused before any request, and an https URL on a loopback
    or private address is refused by the outbound before connecting."""
    provider_server.reset()
    port = provider_server.url.rsplit(":", 1)[1]
    for url in (
        provider_server.url + PATH,
        f"https://127.0.0.1:{port}{PATH}",
        f"https://localhost:{port}{PATH}",
        "https://10.0.0.1/app.json",
        "https://169.254.169.254/latest/meta-data/",
    ):
        client = OAuthClient(harness.client, web=None, client_id=url)  # type: ignore[arg-type]
        r = await client.client.get("/oauth/authorize", params=client.authorize_params())
        assert r.status_code == 400, url
    assert provider_server.requests == []


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com",
        "https://example.com/",
        "https://user:pw@example.com/app.json",
        "https://example.com/app.json#x",
        "https://example.com/a/../app.json",
        "http://example.com/app.json",
    ],
)
def test_document_urls_the_spec_forbids(url: str) -> None:
    with pytest.raises(ClientRefused):
        _check_document_url(url, allow_loopback=False)


def test_a_document_names_its_own_url() -> None:
    url = "https://app.example/oauth/client.json"
    client = document_client(url, document(url, redirect_uris=["https://app.example/cb"]))
    assert client.client_id == url
    assert client.token_endpoint_auth_method == "none"
    with pytest.raises(ClientRefused, match="client_id"):
        document_client(url, document("https://app.example/other.json"))


def test_the_loopback_allowance_is_refused_in_production(tmp_path: Path) -> None:
    settings = Settings(
        env="production",
        database_url="sqlite+aiosqlite:///" + str(tmp_path / "x.db"),
        secret_key="s" * 40,
        encryption_keys="k1:" + "A" * 43 + "=",
        oauth_cimd_allow_loopback=True,
    )
    with pytest.raises(ConfigError, match="OAUTH_CIMD_ALLOW_LOOPBACK"):
        finalize(settings)
