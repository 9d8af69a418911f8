"""Endpoint tools (`?tools=endpoints`) declare the source's answer shape (issue 27 item
3): the envelope whose `data` is the compact 2xx schema the pinned source documents.
Through the official MCP client against a real server on the shipped catalog, GitHub
pointed at the loopback provider: the tool lists the source's fields, and the client's
own check of structured content against outputSchema passes for an answer that fits,
one that strays from the document (the gateway says where: schema_mismatch), one cut
to the output budget, and an upstream error."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from skillgate.catalog import response_schemas
from skillgate.catalog.loader import load_catalog
from skillgate.doors.mcp import conform, outputs, schemas
from tests.process import clean_env, serve
from tests.skillgate.doors.mcp.conftest import Gateway, mcp_client, operator
from tests.upstream import Provider, Reply

ISSUE_PATH = "/repos/octo/hello/issues/7"
TOOL = "github__get_issue"
ARGS = {"owner": "octo", "repo": "hello", "issue_number": 7}


def _data_schema(tool: Any) -> dict[str, Any]:
    """The `data` schema an endpoint tool's output schema holds answers to."""
    branches = tool.output_schema["anyOf"]
    return next(b["properties"]["data"] for b in branches if "properties" in b)


def test_a_real_endpoint_declares_the_fields_its_source_documents() -> None:
    catalog = load_catalog()
    github = catalog.integrations["github"]
    repo = next(e for e in github.endpoints if e.operation == "repos/get")
    data = _data_schema(schemas.endpoint_tool(github, repo))
    assert {"id", "full_name", "private", "owner"} <= set(data["properties"])
    assert data["properties"]["id"] == {"type": "integer"}
    assert data["properties"]["description"] == {"type": ["string", "null"]}  # nullable
    assert "login" in data["properties"]["owner"]["properties"]
    assert "$ref" not in str(data)
    # An endpoint whose source documents no JSON answer declares the envelope alone.
    sample = next(e for e in github.endpoints if response_schemas.schema_of("github", e) is None)
    assert schemas.endpoint_tool(github, sample).output_schema == outputs.ENVELOPE


@pytest.fixture(scope="module")
def shipped(
    tmp_path_factory: pytest.TempPathFactory, provider_server: Provider
) -> Iterator[Gateway]:
    """A server on the shipped catalog, GitHub's API at the loopback provider; a user with
    GitHub connected and a key for it."""
    provider_server.reset()
    cwd = tmp_path_factory.mktemp("shipped")
    env = clean_env(SKILLGATE_GITHUB_BASE_URL=provider_server.url, SKILLGATE_LOG_LEVEL="WARNING")
    user = ["--email", "out@example.com"]
    made = operator(
        cwd, env, ["db", "upgrade"],
        ["users", "create", *user, "--password", "password123", "--plan", "unlimited"],
        ["connections", "set", *user, "--integration", "github", "--access-token", "good-token"],
        ["keys", "create", *user, "--name", "k", "--scopes", "github"],
    )  # fmt: skip
    key = json.loads(made[-1])["full_key"]
    with serve(cwd, env=env) as server:
        yield Gateway(server, {"github": key}, cwd, env)


async def test_the_sdk_client_checks_real_answers_against_the_declared_shape(
    shipped: Gateway, provider_server: Provider
) -> None:
    url = shipped.mcp_url + "?tools=endpoints&integration=github&category=issues"
    fits = {"id": 1, "number": 7, "title": "Bug", "state": "open", "user": {"login": "octo"}}
    strays = {"id": "not-a-number", "number": 7, "title": "Bug"}
    large = {**fits, "body": "x" * 100_000}
    async with mcp_client(url, shipped.keys["github"]) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        answers = []
        for reply in (Reply(200, fits), Reply(200, strays), Reply(200, large), Reply(404, {})):
            provider_server.reply("GET", ISSUE_PATH, reply)
            answers.append(await client.call_tool(TOOL, ARGS))  # the SDK checks each
    ok, off, cut, missing = answers
    data = _data_schema(listed[TOOL])
    assert {"number", "title", "state", "user", "labels"} <= set(data["properties"])
    assert ok.is_error is False
    assert ok.structured_content == {"status": 200, "data": fits}
    assert off.is_error is False
    assert off.structured_content["data"] == strays  # type: ignore[index]
    assert off.structured_content["schema_mismatch"].startswith("data.id: ")  # type: ignore[index]
    # The schema is not vacuous: the stray data without the gateway's note would fail it.
    check = Draft202012Validator(listed[TOOL].output_schema)
    assert not check.is_valid({"status": 200, "data": strays})
    assert check.is_valid({"status": 200, "data": fits})
    assert cut.is_error is False
    assert cut.structured_content["truncated"] is True  # type: ignore[index]
    assert missing.is_error is True
    assert missing.structured_content["status"] == 404  # type: ignore[index]
    sent = provider_server.api_requests()[-1]
    assert (sent.path, sent.headers["authorization"]) == (ISSUE_PATH, "Bearer good-token")


_SAMPLES: dict[str, list[Any]] = {
    "string": ["s", 1, None],
    "integer": [3, 2.0, 2.5, True, "3"],
    "number": [1.5, 4, False, "x"],
    "boolean": [True, 0, None],
    "null": [None, 0, ""],
    "object": [{}, [], "x"],
    "array": [[], {}, 0],
}


def _instances(schema: dict[str, Any], rng: random.Random, depth: int = 0) -> Any:
    """A value for `schema`, each leaf one of its type's samples (fitting or not)."""
    kind = schema.get("type")
    kinds = [kind] if isinstance(kind, str) else (kind or ["string"])
    chosen = rng.choice(kinds)
    if chosen == "object" and "properties" in schema and rng.random() < 0.9:
        props = schema["properties"]
        return {k: _instances(v, rng, depth + 1) for k, v in props.items() if rng.random() < 0.7}
    if chosen == "array" and "items" in schema and rng.random() < 0.9:
        return [_instances(schema["items"], rng, depth + 1) for _ in range(rng.randint(0, 3))]
    samples = _SAMPLES[chosen]
    return samples[0] if rng.random() < 0.9 else rng.choice(samples)


@pytest.mark.parametrize("slug", ["github", "stripe", "google_drive", "outlook", "square"])
def test_the_gateway_check_agrees_with_jsonschema_on_the_shipped_schemas(slug: str) -> None:
    """conform.mismatch (the door's own walk) says what jsonschema says, on every
    schema of these integrations, for values that fit and values that stray."""
    rng = random.Random(slug)
    keys = list(response_schemas._of_integration(slug))
    assert keys
    fits = strays = 0
    for key in keys:
        schema = response_schemas.schema_by_key(slug, key)
        assert schema is not None
        check = Draft202012Validator(schema)
        for _ in range(4):
            value = _instances(schema, rng)
            ok = conform.mismatch(schema, value) is None
            assert ok == check.is_valid(value), (key, value)
            fits, strays = fits + ok, strays + (not ok)
    assert fits > 0
    assert strays > 0
