"""All dashboard pages, as one router for `create_app` (via `skillgate.dashboard.install`)."""

from __future__ import annotations

from fastapi import APIRouter

from skillgate.dashboard import (
    account,
    activity,
    approvals,
    consent,
    device,
    integrations,
    keys,
    policies,
)

router = APIRouter(include_in_schema=False)
for module in (account, keys, policies, consent, approvals, integrations, device, activity):
    router.include_router(module.router)
