"""Discovery routes: Bearer API key; responses are pre-rendered bytes."""

from __future__ import annotations

from fastapi import APIRouter, Response

from skillgate.auth.deps import ApiKeyAuth
from skillgate.http.state import State

router = APIRouter(prefix="/v1", tags=["discovery"])
JSON = "application/json"


def _scopes(principal: ApiKeyAuth) -> tuple[str, ...]:
    assert principal.key is not None
    return principal.key.scopes


@router.get("/skills")
async def list_integrations(principal: ApiKeyAuth, state: State) -> Response:
    connected = await state.statuses.connected(principal.user_id)
    return Response(state.rendered.listing(_scopes(principal), connected), media_type=JSON)


@router.get("/skills/{integration}")
async def get_integration(integration: str, principal: ApiKeyAuth, state: State) -> Response:
    rendered, access = state.rendered.integration(integration, _scopes(principal))
    connected = await state.statuses.connected(principal.user_id)
    status = "connected" if integration in connected else "not_connected"
    return Response(rendered.detail[(status, access)], media_type=JSON)


@router.get("/skills/{integration}/{endpoint}")
async def get_endpoint(
    integration: str, endpoint: str, principal: ApiKeyAuth, state: State
) -> Response:
    return Response(
        state.rendered.endpoint_doc(integration, endpoint, _scopes(principal)), media_type=JSON
    )


@router.get("/{integration}/download")
async def download(integration: str, principal: ApiKeyAuth, state: State) -> Response:
    rendered, access = state.rendered.integration(integration, _scopes(principal))
    return Response(rendered.bundles[access], media_type=JSON)
