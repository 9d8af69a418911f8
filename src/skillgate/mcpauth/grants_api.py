"""/oauth-grants: a person's connected apps (OAuth grants of /mcp) and each one's
policy, thin routes over `Grants`. A session or an access token only: an API key (or an
app's own token) cannot read or change a policy, its own included.

    GET    /oauth-grants                  the user's grants
    GET    /oauth-grants/{id}/policy      the grant's policy (null without one)
    PUT    /oauth-grants/{id}/policy      set it (the document /api-keys/{id}/policy takes)
    DELETE /oauth-grants/{id}/policy      remove it

Another user's grant is 404.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Response

from skillgate.api_keys.policy import PolicyDoc
from skillgate.auth.deps import TokenOrSession
from skillgate.db.session import DB
from skillgate.http.body import JSONRoute
from skillgate.http.provide import provided
from skillgate.kit.text import Text
from skillgate.mcpauth.schemas import GrantOut, GrantPolicy
from skillgate.mcpauth.service import Grants

router = APIRouter(prefix="/oauth-grants", tags=["oauth-grants"], route_class=JSONRoute)

GrantsDep = Annotated[Grants, provided(Grants)]


@router.get("", response_model=list[GrantOut])
async def list_grants(principal: TokenOrSession, db: DB, grants: GrantsDep) -> list[GrantOut]:
    return await grants.listing(db, principal)


@router.get("/{grant_id}/policy", response_model=GrantPolicy)
async def get_grant_policy(
    grant_id: Text, principal: TokenOrSession, db: DB, grants: GrantsDep
) -> GrantPolicy:
    return await grants.policy_for(db, principal, grant_id)


@router.put("/{grant_id}/policy", response_model=GrantPolicy)
async def put_grant_policy(
    grant_id: Text, body: PolicyDoc, principal: TokenOrSession, db: DB, grants: GrantsDep
) -> GrantPolicy:
    return await grants.put_policy_for(db, principal, grant_id, body)


@router.delete("/{grant_id}/policy", status_code=204, response_class=Response)
async def delete_grant_policy(
    grant_id: Text, principal: TokenOrSession, db: DB, grants: GrantsDep
) -> Response:
    await grants.delete_policy_for(db, principal, grant_id)
    return Response(status_code=204)
