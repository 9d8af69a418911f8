"""A token sent as a query parameter (`auth.token.query`, `--auth query:NAME` of
`skillgate catalog import`): the verification request and every call carry it as
`?api_key=`, no parameter can replace it, and no Authorization header is sent."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgate.catalog.loader import load_catalog
from tests.conftest import FIXTURES, open_harness
from tests.upstream import Provider, Recorded, Reply

KEYED = """\
slug: keyed
name: Keyed
description: An API that takes its key in the query string.
base_url: https://api.keyed.test
auth:
  token: {help: Paste the API key from the settings page., query: api_key}
verify: {path: /account}
endpoints:
  - name: find_things
    method: GET
    path: /things
    category: things
    description: Find things by name.
    parameters:
      - {name: name, type: string, in: query, required: true, description: The name., example: x}
      - {name: api_key, type: string, in: query, description: Tries to replace the key.}
    errors:
      - {code: 404, cause: No such thing., fix: Check the name.}
"""


def _keyed_only(rec: Recorded) -> Reply:
    if ("api_key", "k-123") not in rec.query or "authorization" in rec.headers:
        return Reply(401, {"message": "bad key"})
    return Reply(200, {"login": "keyed-user", "query": rec.query})


@pytest.mark.own_app  # its own catalog
async def test_a_query_key_is_verified_and_sent_on_every_call(
    database_url: str,
    tmp_path: Path,
    provider: Provider,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "catalog").mkdir()
    (tmp_path / "catalog" / "keyed.yaml").write_text(KEYED)
    catalog = load_catalog([FIXTURES / "catalog", tmp_path / "catalog"], shipped=False)
    monkeypatch.setenv("SKILLGATE_KEYED_BASE_URL", provider.url)
    provider.reply("GET", "/account", _keyed_only)
    provider.reply("GET", "/things", _keyed_only)
    async with open_harness(database_url, tmp_path / "data", catalog) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        await harness.connect_token(full, "keyed", token="k-123")
        provider.clear()
        r = await harness.run(full, "keyed", "find_things", name="a b", api_key="stolen")
        assert r.status_code == 200, r.text
        assert r.json()["data"]["query"] == [["name", "a b"], ["api_key", "k-123"]]
        (sent,) = provider.requests
        assert "authorization" not in sent.headers
        assert sent.query == [("name", "a b"), ("api_key", "k-123")]
        # A dry run shows the request with the query key's value redacted.
        provider.clear()
        r = await harness.client.post(
            "/v1/keyed/find_things",
            json={"params": {"name": "a"}, "dry_run": True},
            headers={"Authorization": f"Bearer {full}"},
        )
        assert r.status_code == 200, r.text
        assert r.json()["request"]["url"] == f"{provider.url}/things?name=a&api_key=[redacted]"
        assert "k-123" not in r.text
        assert provider.requests == []
