"""Discovery routes (raw ASGI, see http.fastpath): Bearer API key; responses are
pre-rendered bytes (discovery.rendered)."""

from __future__ import annotations

from starlette.types import Receive

from skillgate.http.fastpath import FastRoute, Reply
from skillgate.http.openapi import STRING, array, obj
from skillgate.http.state import AppState
from skillgate.kit.principal import Principal


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


# The caller's connection status, spliced into the endpoint's pre-rendered object
# (rendering each document per status would double a catalog of thousands).
_STATUS_TAIL = {True: b',"status":"connected"}', False: b',"status":"not_connected"}'}


async def get_endpoint(
    state: AppState, principal: Principal, params: tuple[str, ...], _: Receive
) -> Reply:
    doc = state.rendered.endpoint_doc(params[0], params[1], principal.scopes)
    connected = await state.statuses.connected(principal.user_id)
    return 200, doc[:-1] + _STATUS_TAIL[params[0] in connected], None


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
