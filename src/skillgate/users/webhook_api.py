"""/notification-webhook: the signed-in person's approval webhook (docs/execution.md,
"Notification webhook"), what the dashboard's Approvals page sets, by API. A session
or an access token only: an agent's API key cannot point a person's notifications
elsewhere.

    GET    /notification-webhook   the URL, when it was set, the last delivery; 404 when
                                   none is set (the secret is never shown again)
    PUT    /notification-webhook   {"webhook_url": "https://..."}: set (or replace) it;
                                   answers the new signing secret, once
    DELETE /notification-webhook   stop the notifications (204, also when none was set)
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field

from skillgate.auth.deps import TokenOrSession
from skillgate.errors import NotFound
from skillgate.http.body import JSONRoute
from skillgate.http.provide import provided
from skillgate.kit.text import Text
from skillgate.kit.webhooks import MAX_URL
from skillgate.users.webhook import Webhooks, shown

router = APIRouter(prefix="/notification-webhook", tags=["approvals"], route_class=JSONRoute)
Hooks = Annotated[Webhooks, provided(Webhooks)]


class WebhookIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    webhook_url: Text = Field(max_length=MAX_URL * 2)


class WebhookOut(BaseModel):
    webhook_url: str
    created_at: datetime
    last_delivery: dict[str, Any] | None = None


class WebhookCreated(WebhookOut):
    secret: str  # `whsec_...`: shown in this answer only


@router.get("", response_model=WebhookOut)
async def get_webhook(principal: TokenOrSession, hooks: Hooks) -> WebhookOut:
    row = await hooks.get(principal.user_id)
    if row is None:
        raise NotFound("No notification webhook is set.")
    last = shown(await hooks.last_delivery(principal.user_id))
    return WebhookOut(webhook_url=row.url, created_at=row.created_at, last_delivery=last)


@router.put("", response_model=WebhookCreated)
async def put_webhook(
    body: WebhookIn, principal: TokenOrSession, hooks: Hooks, response: Response
) -> WebhookCreated:
    secret = await hooks.save(principal.user_id, body.webhook_url)
    row = await hooks.get(principal.user_id)
    assert row is not None
    response.headers["Cache-Control"] = "no-store"
    return WebhookCreated(webhook_url=row.url, created_at=row.created_at, secret=secret)


@router.delete("", status_code=204, response_class=Response)
async def delete_webhook(principal: TokenOrSession, hooks: Hooks) -> Response:
    await hooks.remove(principal.user_id)
    return Response(status_code=204)
