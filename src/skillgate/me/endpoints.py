"""GET /v1/me (raw ASGI, see http.fastpath): the caller's profile, plan limits and the
key in use. No database query: everything comes from the verified (cached) key."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson
from starlette.types import Receive

from skillgate.http.fastpath import FastRoute, Reply
from skillgate.http.openapi import NULLABLE_STRING, STRING, array, obj
from skillgate.http.state import AppState
from skillgate.kit.principal import Principal


def _iso(value: datetime | None) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


async def me(state: AppState, principal: Principal, _: tuple[str, ...], __: Receive) -> Reply:
    key = principal.key
    assert key is not None
    body: dict[str, Any] = {
        "id": principal.user_id,
        "email": principal.email,
        "display_name": principal.display_name,
        "plan": principal.plan,
        "limits": state.limits_for(principal.plan).as_dict(),
        "api_key": {
            "id": key.key_id,
            "name": key.name,
            "key_prefix": key.key_prefix,
            "scopes": list(key.scopes),
            "expires_at": _iso(key.expires_at),
        },
    }
    return 200, orjson.dumps(body), None


_LIMIT = {"type": ["integer", "null"]}
RESPONSE = obj(
    id=STRING,
    email=STRING,
    display_name=STRING,
    plan=STRING,
    limits=obj(max_api_keys=_LIMIT, requests_per_minute=_LIMIT, requests_per_day=_LIMIT),
    api_key=obj(
        id=STRING,
        name=STRING,
        key_prefix=STRING,
        scopes=array(STRING),
        expires_at=NULLABLE_STRING,
    ),
)
ROUTES = (
    FastRoute(
        "GET", "/v1/me", me, "The caller's profile, plan and key", "profile", response=RESPONSE
    ),
)
