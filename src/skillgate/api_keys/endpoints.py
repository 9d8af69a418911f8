"""/api-keys: thin routes over the ApiKeys service. Accepts an API key, access token or
session; a key's policy (/api-keys/{id}/policy) an access token or session only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from fastapi import APIRouter, Response

from skillgate.api_keys.policy import PolicyDoc
from skillgate.api_keys.schemas import ApiKeyOut, CreateKeyRequest, CreateKeyResponse, KeyPolicy
from skillgate.api_keys.service import ApiKeys
from skillgate.auth.deps import KeyTokenOrSession, TokenOrSession
from skillgate.db.session import DB
from skillgate.http.body import JSONRoute
from skillgate.http.provide import provided
from skillgate.kit.text import Text

router = APIRouter(prefix="/api-keys", tags=["api-keys"], route_class=JSONRoute)

Keys = Annotated[ApiKeys, provided(ApiKeys)]


@router.get("", response_model=list[ApiKeyOut])
async def list_keys(principal: KeyTokenOrSession, db: DB, keys: Keys) -> Sequence[ApiKeyOut]:
    return await keys.listing(db, principal)


@router.post("", status_code=201, response_model=CreateKeyResponse)
async def create_key(
    body: CreateKeyRequest, principal: KeyTokenOrSession, db: DB, keys: Keys
) -> CreateKeyResponse:
    return await keys.create_for(db, principal, body)


@router.delete("/{key_id}", status_code=204, response_class=Response)
async def revoke_key(key_id: Text, principal: KeyTokenOrSession, db: DB, keys: Keys) -> Response:
    await keys.revoke_for(db, principal, key_id)
    return Response(status_code=204)


@router.get("/{key_id}/policy", response_model=KeyPolicy)
async def get_policy(key_id: Text, principal: TokenOrSession, db: DB, keys: Keys) -> KeyPolicy:
    return await keys.policy_for(db, principal, key_id)


@router.put("/{key_id}/policy", response_model=KeyPolicy)
async def put_policy(
    key_id: Text, body: PolicyDoc, principal: TokenOrSession, db: DB, keys: Keys
) -> KeyPolicy:
    return await keys.put_policy_for(db, principal, key_id, body)


@router.delete("/{key_id}/policy", status_code=204, response_class=Response)
async def delete_policy(key_id: Text, principal: TokenOrSession, db: DB, keys: Keys) -> Response:
    await keys.delete_policy_for(db, principal, key_id)
    return Response(status_code=204)
