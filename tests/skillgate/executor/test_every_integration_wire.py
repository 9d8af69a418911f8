"""Every integration compiled from a pinned source, executed (issue 25, "no wrong wire
request"): its token is checked on the verify path, then each of its curated calls that
only reads is run with its documented example against a loopback upstream, and the
method and path received are the ones the pinned source gives the operation (read from
the stored copy by test_breadth_integrations' own reader, not from the compiled file)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import unquote

import pytest

from skillgate.catalog.examples import example_params
from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.catalog.sources import read_lock
from tests.conftest import Harness, open_harness
from tests.skillgate.executor.test_breadth_integrations import _source_call
from tests.upstream import Provider, serve_catalog

PER_INTEGRATION = 3  # curated reads run per integration


def _matches(template: str, path: str) -> bool:
    """Whether `path` is `template` filled: a `{name}` is one segment or more (Google's
    `{+name}` spans segments; its flat paths name the pieces)."""
    template = re.sub("/+", "/", template.split("?")[0])  # a server URL ending in `/`
    pattern = re.sub(r"\\\{[^}]+\\\}", "[^?]+", re.escape(template))
    return re.fullmatch(pattern, path.split("?")[0]) is not None


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog()


@pytest.fixture
async def gateway(
    database_url: str,
    tmp_path: Path,
    shipped: Catalog,
    provider: Provider,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[Harness, str]]:
    serve_catalog(provider, shipped, monkeypatch)
    if not database_url.startswith("sqlite"):
        pytest.skip("the wire does not depend on the database: SQLite's run covers it")
    async with open_harness(database_url, tmp_path, shipped) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        yield harness, full


async def test_each_sourced_integration_sends_what_its_source_says(
    gateway: tuple[Harness, str], provider: Provider, shipped: Catalog
) -> None:
    harness, full = gateway
    sourced = sorted({s.slug for s in read_lock()})
    checked: dict[str, int] = {}
    for slug in sourced:
        integration = shipped.integrations[slug]
        if integration.auth.token is None or integration.variables:
            continue  # connected by OAuth only, or a host the user gives: not here
        provider.clear()
        await harness.connect_token(full, slug)
        provider.clear()
        reads = [
            e
            for e in integration.endpoints
            if e.curated and e.operation and not e.mutates and e.base_url is None
        ][:PER_INTEGRATION]
        for endpoint in reads:
            params = {p.name: value for p, value in example_params(endpoint)}
            r = await harness.run(full, slug, endpoint.name, **params)
            assert r.status_code == 200, (slug, endpoint.name, r.text)
            [sent] = provider.api_requests()
            method, template = _source_call(slug, str(endpoint.operation))
            assert sent.method == method, (slug, endpoint.name)
            assert _matches(template, unquote(sent.path)), (slug, endpoint.name, sent.path)
            for p in endpoint.parameters:  # each path value where the source puts one
                if p.location == "path":
                    assert str(params[p.name]) in unquote(sent.path), (slug, p.name)
            provider.clear()
        checked[slug] = len(reads)
    # Every sourced integration a pasted token connects was called, each at least once.
    assert all(n >= 1 for n in checked.values()), checked
    assert len(checked) >= 30, sorted(set(sourced) - set(checked))
