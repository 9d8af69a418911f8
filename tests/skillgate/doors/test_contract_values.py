"""One source for each contract value (issue 24.2): the agent door's /openapi.json and
the MCP door's tools state the same run options, search arguments and slug length,
each from one definition, and that definition is what the checks enforce."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import skillgate
from skillgate.catalog.models import NAME_MAX, NAME_RE, SLUG_MAX, SLUG_RE
from skillgate.connections.models import Connection, ConnectRequest
from skillgate.discovery import arguments
from skillgate.doors.mcp import schemas
from skillgate.errors import BadRequest
from skillgate.executions.models import Execution
from skillgate.executor import options
from skillgate.http.middleware import request_id
from tests.conftest import Harness

SRC = Path(skillgate.__file__).resolve().parent
MCP_TOOLS = {tool.name: tool.input_schema for tool in schemas.GENERIC_TOOLS}


async def _agent_operations(harness: Harness) -> dict[str, dict[str, Any]]:
    r = await harness.client.get("/openapi.json")
    assert r.status_code == 200
    paths = r.json()["paths"]
    return {
        "execute": paths["/v1/{integration}/{endpoint}"]["post"],
        "search": paths["/v1/skills/search"]["get"],
        "executions": paths["/v1/executions"]["get"],
    }


def _parameters(operation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p["schema"] for p in operation["parameters"]}


def _described(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k != "description"}


async def test_both_doors_state_the_same_options_search_and_slug(harness: Harness) -> None:
    ops = await _agent_operations(harness)
    body = ops["execute"]["requestBody"]["content"]["application/json"]["schema"]["properties"]
    run = MCP_TOOLS[schemas.RUN_SKILL_WRITE]["properties"]
    # The run options: one schema (executor.options), the idempotency key a header there.
    assert {name: body[name] for name in options.NAMES} == options.SCHEMA
    assert {name: run[name] for name in options.NAMES} == options.SCHEMA
    assert set(run) == {"integration", "endpoint", "params", *options.NAMES, "idempotency_key"}
    # run_skill (calls that change nothing): the same, without what only a write needs.
    reads = MCP_TOOLS[schemas.RUN_SKILL]["properties"]
    assert {k: v for k, v in run.items() if k not in ("confirm", "idempotency_key")} == reads
    key = _parameters(ops["execute"])["Idempotency-Key"]
    assert key == run["idempotency_key"] == options.KEY_SCHEMA
    # The search: the query string's q/integration/limit are search_skills' arguments.
    query = _parameters(ops["search"])
    search = MCP_TOOLS[schemas.SEARCH_SKILLS]["properties"]
    assert query["q"] == _described(search["query"]) == arguments.QUERY
    assert query["integration"] == _described(search["integration"]) == arguments.INTEGRATION
    assert query["limit"] == search["limit"] == arguments.LIMIT
    # A slug's longest, wherever a door takes one.
    assert _parameters(ops["executions"])["integration"]["maxLength"] == SLUG_MAX
    for name, schema in MCP_TOOLS.items():
        if "integration" in schema["properties"]:
            assert schema["properties"]["integration"]["maxLength"] == SLUG_MAX, name
        if "endpoint" in schema["properties"]:
            assert schema["properties"]["endpoint"]["maxLength"] == NAME_MAX, name


def test_the_option_schema_states_what_parse_accepts() -> None:
    paging = options.SCHEMA["paginate"]["properties"]
    for name in ("max_items", "max_pages"):
        low, high = paging[name]["minimum"], paging[name]["maximum"]
        parsed = options.parse({"paginate": {name: high}})
        assert parsed.paginate is not None
        assert getattr(parsed.paginate, name) == high
        for bad in (low - 1, high + 1):
            with pytest.raises(BadRequest, match=f"paginate.{name}"):
                options.parse({"paginate": {name: bad}})
    fields = options.SCHEMA["fields"]
    assert options.parse({"fields": ["a"] * fields["maxItems"]}).fields is not None
    for bad in ([], ["a"] * (fields["maxItems"] + 1)):
        with pytest.raises(BadRequest, match="fields"):
            options.parse({"fields": bad})
    least = options.SCHEMA["max_bytes"]["minimum"]
    assert options.parse({"max_bytes": least}, max_bytes_cap=least).max_bytes == least
    with pytest.raises(BadRequest, match="max_bytes"):
        options.parse({"max_bytes": least - 1}, max_bytes_cap=least)
    longest = options.KEY_SCHEMA["maxLength"]
    assert options.idempotency_key("k" * longest) == "k" * longest
    with pytest.raises(BadRequest, match="Idempotency-Key"):
        options.idempotency_key("k" * (longest + 1))


def test_the_search_schemas_state_what_the_check_accepts() -> None:
    most, longest = arguments.LIMIT["maximum"], arguments.QUERY["maxLength"]
    slug = arguments.INTEGRATION["maxLength"]
    found = arguments.checked("q" * longest, "s" * slug, most)
    assert found == arguments.SearchArgs("q" * longest, "s" * slug, most)
    assert arguments.checked("q") == arguments.SearchArgs("q", None, arguments.LIMIT["default"])
    for query, integration, limit in (
        ("q" * (longest + 1), None, 1),
        ("q", "s" * (slug + 1), 1),
        ("q", "", 1),
        ("q", None, 0),
        ("q", None, most + 1),
        ("", None, 1),
    ):
        with pytest.raises(arguments.OutOfBounds):
            arguments.checked(query, integration, limit)
    with pytest.raises(BadRequest, match="non-blank"):
        arguments.checked("   ")


def test_a_slug_and_a_name_have_one_longest() -> None:
    assert SLUG_RE.match("s" * SLUG_MAX)
    assert not SLUG_RE.match("s" * (SLUG_MAX + 1))
    assert NAME_RE.match("n" * NAME_MAX)
    assert not NAME_RE.match("n" * (NAME_MAX + 1))
    assert Execution.__table__.c.integration.type.length == SLUG_MAX
    assert Execution.__table__.c.endpoint.type.length == NAME_MAX
    assert Connection.__table__.c.integration.type.length == SLUG_MAX
    assert ConnectRequest.__table__.c.integration.type.length == SLUG_MAX


# A bound written as a number in a door's schema or check: it belongs to a named
# definition below the doors (catalog.models, discovery.arguments, executor.options...).
_BOUND = re.compile(
    r'"(maxLength|maximum|maxItems)":\s*\d|\.(text|integer)\("\w+",\s*\d|_text\(args,\s*"\w+",\s*\d'
)


@pytest.mark.parametrize(
    "path", sorted((SRC / "doors").rglob("*.py")), ids=lambda p: p.relative_to(SRC).as_posix()
)
def test_no_door_writes_a_bound_as_a_number(path: Path) -> None:
    found = [line.strip() for line in path.read_text().splitlines() if _BOUND.search(line)]
    assert found == [], found


def test_the_request_id_has_one_reader() -> None:
    assert request_id({"type": "http", "state": {"request_id": "abcdefgh12"}}) == "abcdefgh12"
    assert request_id({"type": "http"}) == "-"
    readers = [
        path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*.py")
        if re.search(r"""get\(\s*["']request_id["']""", path.read_text())
    ]
    assert readers == ["http/middleware.py"]
