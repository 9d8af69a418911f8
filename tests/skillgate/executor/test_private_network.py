"""The executor calls a loopback, private or link-local address (169.254.169.254
included) only for an integration whose catalog file allows it, or whose host the
operator set (SKILLGATE_<SLUG>_BASE_URL): an IP literal is refused before connecting,
a name resolving to such an address when it is resolved. Against the real loopback
provider, so a refusal is seen as no request arriving."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import yaml

from skillgate.catalog.loader import load_catalog
from skillgate.connections import stored
from skillgate.connections.credentials import Credentials
from skillgate.db.session import commit
from tests.conftest import FIXTURES, Harness, open_harness, state_of
from tests.upstream import Provider

pytestmark = pytest.mark.usefixtures("provider")


def _integration(tmp: Path, slug: str, base_url: str, *, allow: bool = False) -> Path:
    data = yaml.safe_load((FIXTURES / "catalog" / "sample.yaml").read_text())
    data.update(slug=slug, name=slug.title(), base_url=base_url)
    if allow:
        data["allow_private_network"] = True
    path = tmp / f"{slug}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.fixture
async def lan(
    database_url: str, tmp_path: Path, provider: Provider
) -> AsyncIterator[tuple[Harness, str]]:
    port = provider.url.rsplit(":", 1)[1]
    files = tmp_path / "catalog"
    files.mkdir()
    _integration(files, "loopback", provider.url)  # http://127.0.0.1:<port>
    _integration(files, "named", f"http://localhost:{port}")  # a name, resolved to 127.0.0.1
    _integration(files, "metadata", "http://169.254.169.254/latest")
    _integration(files, "allowed", provider.url, allow=True)
    catalog = load_catalog([files], shipped=False)
    async with open_harness(database_url, tmp_path, catalog) as harness:
        user = await harness.user(plan="pro")
        full, _ = await harness.key()
        async with harness.sessionmaker() as session:
            for slug in catalog.slugs:
                creds = Credentials(access_token="good-token")
                await stored.store(session, harness.vault, user.id, slug, "token", creds)
            await commit(session)
        for slug in catalog.slugs:
            state_of(harness.app).connections.changed(user.id, slug)
        yield harness, full


@pytest.mark.parametrize("slug", ["loopback", "named", "metadata"])
async def test_a_private_address_is_refused_without_the_catalogs_leave(
    lan: tuple[Harness, str], provider: Provider, slug: str
) -> None:
    harness, full = lan
    provider.clear()
    r = await harness.run(full, slug, "get_user", username="x")
    assert r.status_code == 502
    body = r.json()
    assert body["error"] == "upstream_unavailable"
    assert "private, loopback or link-local address" in body["message"]
    assert "allow_private_network: true" in body["message"]
    assert provider.api_requests() == []  # nothing left the gateway


async def test_the_catalogs_leave_lets_it_through(
    lan: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = lan
    provider.clear()
    r = await harness.run(full, "allowed", "get_user", username="x")
    assert r.status_code == 200, r.text
    assert r.json() == {"status": 200, "data": {"ok": True, "path": "/users/x"}}
    [sent] = provider.api_requests()
    assert sent.path == "/users/x"


async def test_a_token_is_not_verified_against_a_private_address(
    lan: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = lan
    provider.clear()
    r = await harness.client.put(
        "/v1/connections/loopback",
        json={"token": "good-token"},
        headers={"Authorization": f"Bearer {full}"},
    )
    assert r.status_code == 502
    assert "allow_private_network" in r.json()["message"]
    assert provider.api_requests() == []
