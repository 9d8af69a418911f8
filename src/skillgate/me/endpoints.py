"""GET /v1/me: the caller's profile, plan limits and the key in use. No database query:
everything comes from the verified (cached) key."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response

from skillgate.auth.deps import require_api_key
from skillgate.http.state import get_state

router = APIRouter(prefix="/v1", tags=["profile"])


def _iso(value: datetime | None) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


@router.get("/me")
async def me(request: Request) -> Response:
    principal = await require_api_key(request)
    key = principal.key
    assert key is not None
    body: dict[str, Any] = {
        "id": principal.user_id,
        "email": principal.email,
        "display_name": principal.display_name,
        "plan": principal.plan,
        "limits": get_state(request).limits_for(principal.plan).as_dict(),
        "api_key": {
            "id": key.key_id,
            "name": key.name,
            "key_prefix": key.key_prefix,
            "scopes": list(key.scopes),
            "expires_at": _iso(key.expires_at),
        },
    }
    return Response(orjson.dumps(body), media_type="application/json")
