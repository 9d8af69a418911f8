"""Issue 23.2: a ref, branch, tag or file path holding `/` reaches the upstream as the
path it names, every segment percent-encoded once.

Every shipped endpoint whose path parameter is a git ref, a branch or tag name,
`BASE...HEAD` or a file path runs against the real loopback upstream, which records
the raw path it received. `feature/é x` must arrive as `feature/%C3%A9%20x`, and
`feature%2Fé x` (a slash the caller encoded already) the same way, not as `%252F`.
A `..` segment is refused before anything is sent."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote, urlsplit

import pytest

from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Endpoint, Parameter
from tests.conftest import Harness
from tests.skillgate.executor.conftest import OpenWhole
from tests.upstream import Provider

# The upstream names GitHub (and any provider) gives such parameters: independent of
# how the importer recognises them, so this list is what the test holds it to.
SLASHED = frozenset({"ref", "branch", "tag", "path", "basehead", "dir", "tree_sha", "file_path"})
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
FILLER: dict[str, Any] = {"string": "x", "number": 1, "boolean": True, "array": ["x"]}


def _slashed(endpoint: Endpoint) -> Parameter | None:
    found = [p for p in endpoint.parameters if p.location == "path" and p.wire_name in SLASHED]
    return found[0] if found else None


def _cases(catalog: Catalog) -> list[tuple[str, Endpoint, Parameter]]:
    return [
        (slug, endpoint, param)
        for slug, integration in sorted(catalog.integrations.items())
        for endpoint in integration.endpoints
        if (param := _slashed(endpoint)) is not None
    ]


@pytest.fixture
async def gateway(open_whole: OpenWhole, whole: Catalog) -> AsyncIterator[tuple[Harness, str]]:
    async with open_whole(plan="unlimited", confirm="never") as (harness, full, _):
        for slug in sorted({slug for slug, _, _ in _cases(whole)}):
            await harness.connect_token(full, slug)
        yield harness, full


def _params(endpoint: Endpoint, slashed: Parameter, value: str) -> dict[str, Any]:
    params = {
        p.name: p.example if p.example is not None else FILLER.get(p.type, {})
        for p in endpoint.parameters
        if p.required
    }
    params[slashed.name] = value
    return params


def _expected(slug: str, catalog: Catalog, endpoint: Endpoint, params: dict[str, Any]) -> str:
    """The upstream path: each parameter's value encoded once, the slashed one's `/` kept."""
    wire = {p.wire_name: p for p in endpoint.parameters if p.location == "path"}

    def fill(match: re.Match[str]) -> str:
        param = wire[match.group(1)]
        text = str(params[param.name])
        if param.wire_name in SLASHED:
            return "/".join(quote(part, safe="") for part in text.split("/"))
        return quote(text, safe="")

    base = urlsplit(catalog.integrations[slug].base_url).path.rstrip("/")
    return base + _PLACEHOLDER.sub(fill, endpoint.path)


def _slashed_value(param: Parameter, slash: str) -> str:
    if param.wire_name == "basehead":
        return f"main...feature{slash}é x"
    return f"feature{slash}é x"


async def test_every_slashed_path_parameter_reaches_the_upstream_encoded_once(
    gateway: tuple[Harness, str], provider: Provider, whole: Catalog
) -> None:
    harness, full = gateway
    cases = _cases(whole)
    assert len(cases) >= 55, [e.name for _, e, _ in cases]  # GitHub's alone: 55
    wrong: list[str] = []
    for slug, endpoint, slashed in cases:
        for slash in ("/", "%2F", "%2f"):
            params = _params(endpoint, slashed, _slashed_value(slashed, slash))
            provider.clear()
            r = await harness.run(full, slug, endpoint.name, **params)
            sent = provider.api_requests()
            want = _expected(
                slug, whole, endpoint, _params(endpoint, slashed, _slashed_value(slashed, "/"))
            )
            got = (
                sent[0].path
                if len(sent) == 1
                else f"{len(sent)} requests, {r.status_code} {r.text[:200]}"
            )
            if (sent[0].method if sent else None, got) != (endpoint.method, want):
                wrong.append(f"{slug}.{endpoint.name} {slash}: {got} != {want}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    "value",
    ["heads/../../user", "heads/..%2F..%2Fuser", "/heads/main", "heads//main", "heads/./main"],
)
async def test_dot_and_empty_segments_are_refused_before_sending(
    gateway: tuple[Harness, str], provider: Provider, value: str
) -> None:
    harness, full = gateway
    provider.clear()
    r = await harness.run(full, "github", "git_get_ref", owner="o", repo="r", ref=value)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request"
    assert "ref" in r.json()["message"]
    assert provider.api_requests() == []
