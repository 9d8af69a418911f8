"""`/mcp` checks where a browser request came from (issue 22, item 6), as the MCP
specification's Streamable HTTP security warning asks: a present `Origin` not on the
allow-list is 403 with a JSON-RPC error (before the key or the method is looked at);
no `Origin` (every non-browser client) passes. And only `application/json` bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from skillgate.catalog.loader import Catalog
from skillgate.errors import ConfigError
from skillgate.kit.origins import OriginPolicy, origin_of
from tests.conftest import Harness, bearer, make_settings, open_harness

LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


async def _mcp(harness: Harness, key: str | None, **headers: str) -> httpx.Response:
    sent = {**HEADERS, **(bearer(key) if key else {}), **headers}
    return await harness.client.post("/mcp", json=LIST, headers=sent)


def _refused_origin(r: httpx.Response) -> None:
    assert r.status_code == 403, (r.status_code, r.text[:200])
    body: dict[str, Any] = r.json()
    assert body["jsonrpc"] == "2.0"
    assert body["id"] is None
    assert body["error"]["code"] == -32600
    assert "SKILLGATE_MCP_ALLOWED_ORIGINS" in body["error"]["message"]


async def test_a_foreign_origin_is_403_and_no_origin_passes(harness: Harness) -> None:
    await harness.user(plan="pro")
    key, _ = await harness.key()
    assert (await _mcp(harness, key)).status_code == 200  # no Origin: a non-browser client
    # The server's own public origin (SKILLGATE_BASE_URL, http://127.0.0.1:8000 here),
    # however a browser spells it.
    for own in ("http://127.0.0.1:8000", "HTTP://127.0.0.1:8000"):
        r = await _mcp(harness, key, Origin=own)
        assert r.status_code == 200, (own, r.text[:200])
        assert len(r.json()["result"]["tools"]) == 5
    foreign = [
        "https://evil.example",
        "http://testserver",  # the request's own Host: under DNS rebinding, the attacker's
        "http://127.0.0.1:8001",
        "https://127.0.0.1:8000",
        "null",
        "",
    ]
    for origin in foreign:
        _refused_origin(await _mcp(harness, key, Origin=origin))
    # Before the key and the method: nothing else is said to a foreign page.
    _refused_origin(await _mcp(harness, None, Origin="https://evil.example"))
    _refused_origin(await _mcp(harness, "sk_not_a_key", Origin="https://evil.example"))
    r = await harness.client.get("/mcp", headers={"Origin": "https://evil.example"})
    _refused_origin(r)


async def test_the_allowed_origins_setting(
    database_url: str, tmp_path: Path, test_catalog: Catalog
) -> None:
    allowed = "http://localhost:6274, https://app.example.com:443"
    async with open_harness(
        database_url,
        tmp_path,
        test_catalog,
        base_url="https://gw.example.com",
        mcp_allowed_origins=allowed,
    ) as harness:
        await harness.user(plan="pro")
        key, _ = await harness.key()
        for origin in (
            "http://localhost:6274",
            "https://app.example.com",
            "https://gw.example.com",  # the server's own origin is always allowed
            "https://GW.example.com:443",
        ):
            r = await _mcp(harness, key, Origin=origin)
            assert r.status_code == 200, (origin, r.text[:200])
        for origin in ("http://localhost:6275", "http://app.example.com", "http://127.0.0.1:8000"):
            _refused_origin(await _mcp(harness, key, Origin=origin))


async def test_a_star_allows_any_origin(
    database_url: str, tmp_path: Path, test_catalog: Catalog
) -> None:
    async with open_harness(
        database_url, tmp_path, test_catalog, mcp_allowed_origins="*"
    ) as harness:
        await harness.user(plan="pro")
        key, _ = await harness.key()
        r = await _mcp(harness, key, Origin="https://anyone.example")
        assert r.status_code == 200, r.text[:200]


@pytest.mark.parametrize(
    "entry", ["evil.example", "https://app.example.com/mcp", "ftp://x.example", "https://a:b@x"]
)
def test_a_bad_allowed_origin_stops_the_start_up(tmp_path: Path, entry: str) -> None:
    settings = make_settings("sqlite+aiosqlite://", tmp_path, mcp_allowed_origins=entry)
    with pytest.raises(ConfigError) as refused:
        settings.mcp_origins()
    assert "SKILLGATE_MCP_ALLOWED_ORIGINS" in str(refused.value)
    assert repr(entry) in str(refused.value)


def test_the_served_address_is_an_own_origin_unless_a_wildcard(tmp_path: Path) -> None:
    """Without SKILLGATE_BASE_URL the links name the address `skillgate serve` listens
    on, so a page from there may call /mcp too; a wildcard host is no such origin."""
    served = make_settings("sqlite+aiosqlite://", tmp_path, served_on="http://127.0.0.1:18100")
    assert served.mcp_origins().allows(b"http://127.0.0.1:18100")
    assert not served.mcp_origins().allows(b"http://127.0.0.1:8000")
    wildcard = make_settings("sqlite+aiosqlite://", tmp_path, served_on="http://0.0.0.0:18100")
    assert not wildcard.mcp_origins().allows(b"http://0.0.0.0:18100")
    named = make_settings(
        "sqlite+aiosqlite://",
        tmp_path,
        base_url="https://gw.example.com",
        served_on="http://127.0.0.1:18100",
    )
    assert named.mcp_origins().allows(b"https://gw.example.com")
    assert not named.mcp_origins().allows(b"http://127.0.0.1:18100")


def test_origins_compare_as_rfc_6454_origins() -> None:
    assert origin_of("HTTPS://Example.COM:443/") == "https://example.com"
    assert origin_of("http://[::1]:8000") == "http://[::1]:8000"
    assert origin_of("http://x.example:99999") is None
    assert origin_of("null") is None
    policy = OriginPolicy.parse(None, own=("https://gw.example.com/some/path", None))
    assert policy.allows(None)
    assert policy.allows(b"https://gw.example.com")
    assert not policy.allows(b"https://gw.example.com.evil.example")


@pytest.mark.parametrize(
    "kind", ["application/json-seq", "application/jsonx", "text/plain", "application/x-json"]
)
async def test_a_body_not_sent_as_application_json_is_415(harness: Harness, kind: str) -> None:
    await harness.user(plan="pro")
    key, _ = await harness.key()
    r = await harness.client.post(
        "/mcp",
        content=b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}',
        headers={**HEADERS, **bearer(key), "Content-Type": kind},
    )
    assert r.status_code == 415, (kind, r.status_code, r.text[:200])
    assert r.json()["error"] == "unsupported_media_type"


@pytest.mark.parametrize("kind", ["application/json", "application/json; charset=utf-8"])
async def test_application_json_with_parameters_is_taken(harness: Harness, kind: str) -> None:
    await harness.user(plan="pro")
    key, _ = await harness.key()
    r = await harness.client.post(
        "/mcp",
        content=b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}',
        headers={**HEADERS, **bearer(key), "Content-Type": kind},
    )
    assert r.status_code == 200, (kind, r.text[:200])
