"""Discovery routes: Bearer API key; responses are pre-rendered bytes.

Hot paths: each handler takes only the Request and authenticates on its first
line (`require_api_key`), which skips FastAPI's dependency solving.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from skillgate.auth.deps import require_api_key
from skillgate.http.state import get_state

router = APIRouter(prefix="/v1", tags=["discovery"])
JSON = "application/json"


@router.get("/skills")
async def list_integrations(request: Request) -> Response:
    principal = await require_api_key(request)
    state = get_state(request)
    connected = await state.statuses.connected(principal.user_id)
    return Response(state.rendered.listing(principal.scopes, connected), media_type=JSON)


@router.get("/skills/{integration}")
async def get_integration(request: Request) -> Response:
    principal = await require_api_key(request)
    state = get_state(request)
    slug = request.path_params["integration"]
    rendered, access = state.rendered.integration(slug, principal.scopes)
    connected = await state.statuses.connected(principal.user_id)
    status = "connected" if slug in connected else "not_connected"
    return Response(rendered.detail[(status, access)], media_type=JSON)


@router.get("/skills/{integration}/{endpoint}")
async def get_endpoint(request: Request) -> Response:
    principal = await require_api_key(request)
    params = request.path_params
    doc = get_state(request).rendered.endpoint_doc(
        params["integration"], params["endpoint"], principal.scopes
    )
    return Response(doc, media_type=JSON)


@router.get("/{integration}/download")
async def download(request: Request) -> Response:
    principal = await require_api_key(request)
    state = get_state(request)
    rendered, access = state.rendered.integration(
        request.path_params["integration"], principal.scopes
    )
    return Response(rendered.bundles[access], media_type=JSON)
