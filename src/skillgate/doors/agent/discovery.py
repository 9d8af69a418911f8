"""Discovery: GET /v1/skills[/:integration[/:endpoint]], GET /v1/skills/search and
GET /v1/:integration/download. The answers are pre-rendered bytes (discovery.service)."""

from __future__ import annotations

from skillgate.discovery import arguments, confidence
from skillgate.discovery.arguments import SearchArgs
from skillgate.discovery.service import Discovery
from skillgate.doors.agent.query import Query, described
from skillgate.doors.agent.router import Call, Handler, Reply, Route
from skillgate.http.openapi import STRING, array, obj

_STATUS = {"type": "string", "enum": ["connected", "not_connected"]}
LISTING = obj(
    integrations=array(
        obj(
            slug=STRING,
            name=STRING,
            status=_STATUS,
            endpoints={"type": "integer"},
            description=STRING,
        )
    )
)
DETAIL = obj(
    integration=STRING,
    name=STRING,
    description=STRING,
    status=_STATUS,
    categories=array(
        obj(name=STRING, endpoints=array(obj(name=STRING, method=STRING, description=STRING)))
    ),
)
ENDPOINT = obj(
    name=STRING,
    method=STRING,
    category=STRING,
    description=STRING,
    parameters=array(obj(name=STRING, type=STRING, required={"type": "boolean"})),
    example=STRING,
    errors=array(obj(code={}, cause=STRING, fix=STRING)),
    integration=STRING,
    path=STRING,
    changes_data={"type": "boolean"},
)
SEARCH = obj(
    query=STRING,
    results=array(
        obj(
            integration=STRING,
            name=STRING,
            method=STRING,
            path=STRING,
            category=STRING,
            description=STRING,
            match=confidence.MATCH_SCHEMA,
            status=_STATUS,
        )
    ),
    no_match={"type": "boolean"},
)
MAX_ASKED = 4_096
SEARCH_QUERY = (
    described("q", arguments.QUERY, required=True),
    described("integration", arguments.INTEGRATION),
    described("limit", arguments.LIMIT),
)
BUNDLE = obj(slug=STRING, files=array(obj(file_path=STRING, content=STRING)))


def _search(discovery: Discovery) -> Handler:
    """GET /v1/skills/search's handler. It keeps the last query strings' checked values:
    an agent repeats a search, and parsing and checking costs more than the kept answer
    it leads to (discovery.search)."""
    asked: dict[bytes, SearchArgs] = {}

    async def search(call: Call) -> Reply:
        found = asked.get(call.query)
        if found is None:
            query = Query(call.query)
            found = SearchArgs(  # checked in this order: `limit` is text until the last
                arguments.query(query.required("q"), "q"),
                arguments.integration(query.get("integration")),
                arguments.limit(query.integer("limit", arguments.DEFAULT_LIMIT)),
            )
            if len(asked) >= MAX_ASKED:
                asked.clear()
            asked[call.query] = found
        return 200, await discovery.search(call.principal, found), None

    return search


def routes(discovery: Discovery) -> tuple[Route, ...]:
    async def list_integrations(call: Call) -> Reply:
        return 200, await discovery.listing(call.principal), None

    async def get_integration(call: Call) -> Reply:
        category = Query(call.query).text("category", max_length=64)
        slug = call.path["integration"]
        return 200, await discovery.integration(call.principal, slug, category), None

    async def get_endpoint(call: Call) -> Reply:
        path = call.path
        return (
            200,
            await discovery.endpoint(call.principal, path["integration"], path["endpoint"]),
            None,
        )

    async def download(call: Call) -> Reply:
        return 200, discovery.bundle(call.principal, call.path["integration"]), None

    return (
        Route(
            "GET", "/v1/skills", list_integrations, "List integrations", "discovery",
            response=LISTING, operation_id="list_integrations",
        ),
        # Before /v1/skills/{integration}, which would take `search` for a slug.
        Route(
            "GET", "/v1/skills/search", _search(discovery), "Search endpoints by what they do",
            "discovery", query=SEARCH_QUERY, response=SEARCH, operation_id="search_endpoints",
        ),
        Route(
            "GET", "/v1/skills/{integration}", get_integration, "An integration's endpoints",
            "discovery", response=DETAIL, query=(described("category", STRING),),
            operation_id="get_integration",
        ),
        Route(
            "GET", "/v1/skills/{integration}/{endpoint}", get_endpoint,
            "An endpoint's documentation", "discovery", response=ENDPOINT,
            operation_id="get_endpoint",
        ),
        # /v1/connections/{integration} has the same shape: a wrong method falls through.
        Route(
            "GET", "/v1/{integration}/download", download, "The integration's skill bundle",
            "discovery", owns=False, response=BUNDLE, operation_id="download_integration",
        ),
    )  # fmt: skip
