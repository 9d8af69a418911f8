"""GET /v1/me: the caller's profile, plan limits and the
key in use. No database query: everything comes from the verified (cached) key."""

from __future__ import annotations

from skillgate.doors.agent.router import Call, Reply, Route
from skillgate.http.openapi import NULLABLE_STRING, STRING, array, obj
from skillgate.me.schemas import profile_json
from skillgate.users.plans import Plans

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


def routes(plans: Plans) -> tuple[Route, ...]:
    async def me(call: Call) -> Reply:
        principal = call.principal
        return 200, profile_json(principal, plans.limits_for(principal.plan)), None

    return (
        Route(
            "GET",
            "/v1/me",
            me,
            "The caller's profile, plan and key",
            "profile",
            response=RESPONSE,
            operation_id="get_me",
        ),
    )
