"""Discovery routes (raw ASGI, see http.fastpath): Bearer API key; responses are
pre-rendered bytes (discovery.rendered)."""

from __future__ import annotations

from starlette.types import Receive

from skillgate.auth.deps import Principal
from skillgate.http.fastpath import FastRoute, Reply
from skillgate.http.openapi import STRING, array, obj
from skillgate.http.state import AppState


async def list_integrations(
    state: AppState, principal: Principal, _: tuple[str, ...], __: Receive
) -> Reply:
    connected = await state.statuses.connected(principal.user_id)
    return 200, state.rendered.listing(principal.scopes, connected), None


async def get_integration(
    state: AppState, principal: Principal, params: tuple[str, ...], _: Receive
) -> Reply:
    slug = params[0]
    rendered, access = state.rendered.integration(slug, principal.scopes)
    connected = await state.statuses.connected(principal.user_id)
    status = "connected" if slug in connected else "not_connected"
    return 200, rendered.detail[(status, access)], None


async def get_endpoint(
    state: AppState, principal: Principal, params: tuple[str, ...], _: Receive
) -> Reply:
    return 200, state.rendered.endpoint_doc(params[0], params[1], principal.scopes), None


async def download(
    state: AppState, principal: Principal, params: tuple[str, ...], _: Receive
) -> Reply:
    rendered, access = state.rendered.integration(params[0], principal.scopes)
    return 200, rendered.bundles[access], None


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
BUNDLE = obj(slug=STRING, files=array(obj(file_path=STRING, content=STRING)))

ROUTES = (
    FastRoute(
        "GET", "/v1/skills", list_integrations, "List integrations", "discovery",
        response=LISTING,
    ),
    FastRoute(
        "GET", "/v1/skills/{integration}", get_integration, "An integration's endpoints",
        "discovery", response=DETAIL,
    ),
    FastRoute(
        "GET", "/v1/skills/{integration}/{endpoint}", get_endpoint,
        "An endpoint's documentation", "discovery", response=ENDPOINT,
    ),
    # /v1/connections/{integration} has the same shape: a wrong method falls through.
    FastRoute(
        "GET", "/v1/{integration}/download", download, "The integration's skill bundle",
        "discovery", owns=False, response=BUNDLE,
    ),
)  # fmt: skip
