"""Connecting: pasted tokens (verified first), OAuth with state + PKCE, the CLI flow."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import select, update

from skillgate.auth.sessions import COOKIE_NAME, WebSessions
from skillgate.catalog.loader import Catalog
from skillgate.connections import stored
from skillgate.connections.models import Connection
from skillgate.connections.service import Connections
from skillgate.db.session import commit
from skillgate.kit.vault import Binding, Vault, VaultError
from tests.conftest import Harness, bearer, open_harness
from tests.upstream import Provider

pytestmark = pytest.mark.usefixtures("provider")


async def test_pasted_token_is_verified_before_it_is_stored(
    harness: Harness, provider: Provider
) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await harness.client.put(
        "/v1/connections/sample", json={"token": "wrong"}, headers=bearer(full)
    )
    assert r.status_code == 400
    assert "did not accept" in r.json()["message"]
    listed = (await harness.client.get("/v1/connections", headers=bearer(full))).json()
    assert listed == {"connections": []}
    r = await harness.client.put(
        "/v1/connections/sample", json={"token": "good-token"}, headers=bearer(full)
    )
    assert r.status_code == 200
    doc = r.json()
    assert doc["status"] == "connected"
    assert doc["account"] == "octo-user"
    assert "good-token" not in r.text
    listed = await harness.client.get("/v1/connections", headers=bearer(full))
    assert "good-token" not in listed.text
    skills = (await harness.client.get("/v1/skills", headers=bearer(full))).json()
    assert {i["slug"]: i["status"] for i in skills["integrations"]}["sample"] == "connected"
    r = await harness.client.delete("/v1/connections/sample", headers=bearer(full))
    assert r.status_code == 204
    r = await harness.run(full, "sample", "get_user", username="x")
    assert r.status_code == 403


async def test_ciphertext_is_bound_to_its_connection(harness: Harness) -> None:
    await harness.user("a@example.com", plan="pro")
    await harness.user("b@example.com", plan="pro")
    for email in ("a@example.com", "b@example.com"):
        full, _ = await harness.key(email)
        await harness.connect_token(full)
    async with harness.sessionmaker() as s:
        a, b = (await s.execute(select(Connection).order_by(Connection.created_at))).scalars().all()
        vault: Vault = harness.vault
        with pytest.raises(VaultError):
            vault.open(a.credentials, Binding(b.id, b.user_id, b.integration))
        await s.execute(
            update(Connection).where(Connection.id == b.id).values(credentials=a.credentials)
        )
        await commit(s)
        harness.service(Connections).changed(b.user_id, "sample")
    full_b, _ = await harness.key("b@example.com")
    r = await harness.run(full_b, "sample", "get_user", username="x")
    assert r.status_code == 403  # refuses to use someone else's secret
    assert r.json()["error"] == "integration_not_connected"
    assert "good-token" not in r.text


async def test_key_rotation_reencrypts_under_the_newest_key(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    await harness.connect_token(full)
    old_ring = harness.settings.encryption_keys
    new_ring = "k2:" + base64.urlsafe_b64encode(b"n" * 32).decode() + "," + old_ring
    async with harness.sessionmaker() as s:
        moved = await stored.reencrypt_all(s, Vault(new_ring))
        await commit(s)
        assert moved == 1
        row = (await s.execute(select(Connection))).scalar_one()
        assert Vault(new_ring).key_id_of(row.credentials) == "k2"
        only_new = "k2:" + base64.urlsafe_b64encode(b"n" * 32).decode()
        assert stored.open_credentials(Vault(only_new), row).access_token == "good-token"


async def _browser(harness: Harness, user_id: str) -> None:
    async with harness.sessionmaker() as s:
        st = harness.settings
        token, _ = await WebSessions(st.session_idle_ttl, st.session_absolute_ttl).create(
            s, user_id
        )
        await commit(s)
    harness.client.cookies.set(COOKIE_NAME, token)


async def test_cli_initiated_oauth_flow(harness: Harness, provider: Provider) -> None:
    user = await harness.user()
    full, _ = await harness.key()
    r = await harness.client.post(
        "/v1/connect", json={"integration": "oauthy"}, headers=bearer(full)
    )
    assert r.status_code == 201
    started = r.json()
    assert set(started) == {"id", "integration", "connect_url", "expires_in"}
    status = (await harness.client.get(f"/v1/connect/{started['id']}", headers=bearer(full))).json()
    assert status == {"id": started["id"], "integration": "oauthy", "status": "pending"}

    anonymous = await harness.client.get(
        urlsplit(started["connect_url"]).path + "?" + urlsplit(started["connect_url"]).query
    )
    assert anonymous.status_code == 303
    assert "/login?next=" in anonymous.headers["location"]

    await _browser(harness, user.id)
    try:
        url = urlsplit(started["connect_url"])
        r = await harness.client.get(f"{url.path}?{url.query}")
        assert r.status_code == 303
        to_provider = urlsplit(r.headers["location"])
        assert f"{to_provider.scheme}://{to_provider.netloc}" == provider.url
        q = {k: v[0] for k, v in parse_qs(to_provider.query).items()}
        assert q["client_id"] == "client-123"
        assert q["response_type"] == "code"
        assert q["code_challenge_method"] == "S256"
        assert q["scope"] == "read write"
        assert q["redirect_uri"].endswith("/connect/oauthy/callback")
        code = provider.issue_code(q["code_challenge"])
        # A forged state is refused and connects nothing.
        r = await harness.client.get(
            "/connect/oauthy/callback", params={"code": code, "state": "forged"}
        )
        assert r.status_code == 303
        assert "error=" in r.headers["location"]
        r = await harness.client.get(
            "/connect/oauthy/callback", params={"code": code, "state": q["state"]}
        )
        assert r.status_code == 303
        assert r.headers["location"].endswith("/integrations/oauthy?connected=1")
    finally:
        harness.client.cookies.clear()
    exchange = provider.token_requests[-1]
    assert exchange["grant_type"] == "authorization_code"
    challenge = (
        base64.urlsafe_b64encode(hashlib.sha256(exchange["code_verifier"].encode()).digest())
        .rstrip(b"=")
        .decode()
    )
    assert challenge == q["code_challenge"]
    status = (await harness.client.get(f"/v1/connect/{started['id']}", headers=bearer(full))).json()
    assert status["status"] == "connected"
    r = await harness.run(full, "oauthy", "get_thing", thing_id="t1")
    assert r.json()["status"] == 200


@pytest.mark.own_app  # settings of its own: no OAuth client id
async def test_unconfigured_oauth_says_so_up_front(
    database_url: str, tmp_path: Path, test_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SKILLGATE_OAUTHY_CLIENT_ID")
    async with open_harness(database_url, tmp_path, test_catalog) as harness:
        await harness.user()
        full, _ = await harness.key()
        r = await harness.client.post(
            "/v1/connect", json={"integration": "oauthy"}, headers=bearer(full)
        )
    assert r.status_code == 400
    assert "SKILLGATE_OAUTHY_CLIENT_ID" in r.json()["message"]


async def test_connect_requests_are_private(harness: Harness) -> None:
    await harness.user("a@example.com")
    await harness.user("b@example.com")
    a, _ = await harness.key("a@example.com")
    b, _ = await harness.key("b@example.com")
    started = (
        await harness.client.post("/v1/connect", json={"integration": "sample"}, headers=bearer(a))
    ).json()
    theirs = await harness.client.get(f"/v1/connect/{started['id']}", headers=bearer(b))
    missing = await harness.client.get("/v1/connect/cnr_nope", headers=bearer(b))
    assert theirs.status_code == missing.status_code == 404
    assert theirs.json() == missing.json()
