"""All dashboard pages, as one router for `create_app` (via `skillgate.dashboard.install`)."""

from __future__ import annotations

from fastapi import APIRouter

from skillgate.dashboard import account, activity, consent, device, integrations, keys

router = APIRouter(include_in_schema=False)
for module in (account, keys, consent, integrations, device, activity):
    router.include_router(module.router)
