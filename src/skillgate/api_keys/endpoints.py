"""/api-keys: thin routes over ApiKeyService. Accepts an API key, access token or session."""

from __future__ import annotations

from fastapi import APIRouter, Response

from skillgate.api_keys.schemas import ApiKeyOut, CreateKeyRequest, CreateKeyResponse
from skillgate.api_keys.scopes import require_key_manager
from skillgate.api_keys.service import ApiKeyService
from skillgate.auth.deps import KeyTokenOrSession
from skillgate.db.session import DB, on_commit
from skillgate.http.body import JSONRoute
from skillgate.http.state import State
from skillgate.kit.text import Text

router = APIRouter(prefix="/api-keys", tags=["api-keys"], route_class=JSONRoute)


@router.get("", response_model=list[ApiKeyOut])
async def list_keys(principal: KeyTokenOrSession, db: DB, state: State) -> list[ApiKeyOut]:
    require_key_manager(principal)
    keys = await ApiKeyService(db, state.pepper).list(principal.user_id)
    return [ApiKeyOut.of(k) for k in keys]


@router.post("", status_code=201, response_model=CreateKeyResponse)
async def create_key(
    body: CreateKeyRequest, principal: KeyTokenOrSession, db: DB, state: State
) -> CreateKeyResponse:
    require_key_manager(principal)
    key, full_key = await ApiKeyService(db, state.pepper).create(
        principal.user_id,
        body.name,
        body.scopes,
        state.catalog.slugs,
        body.expires_at,
        parent_scopes=principal.key.scopes if principal.key is not None else None,
    )
    return CreateKeyResponse.of(key, full_key)


@router.delete("/{key_id}", status_code=204, response_class=Response)
async def revoke_key(key_id: Text, principal: KeyTokenOrSession, db: DB, state: State) -> Response:
    require_key_manager(principal)
    key = await ApiKeyService(db, state.pepper).revoke(principal.user_id, key_id)
    # Forget the cached key only once the revocation is durable.
    on_commit(db, lambda: state.verifier.forget_key(key.id))
    return Response(status_code=204)
