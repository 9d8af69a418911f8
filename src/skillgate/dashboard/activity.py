"""Activity: the viewer's execution log, newest first, filtered and paginated, under a
chart of the calls per day (last 14 days, UTC) by integration and outcome, with the
same filters.

    GET /activity?integration=<slug>&outcome=success|error&cursor=<opaque>
    GET /activity/export?since=<date>&until=<date>   JSON lines, streamed (a download)

Shows what ran, never parameter values or tokens (the log does not hold them).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from skillgate.api_keys.service import ApiKeys
from skillgate.catalog.loader import Catalog
from skillgate.dashboard import web
from skillgate.dashboard.activity_chart import build_chart, window_start
from skillgate.dashboard.route import DashboardRoute
from skillgate.dashboard.viewer import SignedIn
from skillgate.db.base import utcnow
from skillgate.db.session import DB
from skillgate.executions.models import Execution
from skillgate.executions.schemas import decision_of
from skillgate.executions.service import EXPORT_DAYS, JSONL, ExecutionLog, export_range
from skillgate.executor.approvals import Approvals
from skillgate.http.provide import provided
from skillgate.mcpauth.service import Grants

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)

PAGE_SIZE = 50
OUTCOMES = (("", "Any outcome"), ("success", "Succeeded"), ("error", "Failed"))
BAD_CURSOR = "This page link is not valid; start from the newest entries."

Log = Annotated[ExecutionLog, provided(ExecutionLog)]
Keys = Annotated[ApiKeys, provided(ApiKeys)]
Integrations = Annotated[Catalog, provided(Catalog)]
Held = Annotated[Approvals, provided(Approvals)]
Apps = Annotated[Grants, provided(Grants)]


@dataclass(frozen=True)
class ActivityRow:
    execution: Execution
    key_label: str

    @property
    def ok(self) -> bool:
        status = self.execution.upstream_status
        return self.execution.error is None and status is not None and 200 <= status < 400

    @property
    def dry_run(self) -> bool:
        """A dry run sent nothing: neither a success nor a failure."""
        return self.execution.error == "dry_run"

    @property
    def badge(self) -> str:
        """The result badge's class: good, neutral (a dry run) or bad."""
        return "good" if self.ok else ("neutral" if self.dry_run else "bad")

    @property
    def decision(self) -> str:
        """The decision and, on a person's or the clock's, who made it."""
        e = self.execution
        word = decision_of(e.error)
        return f"{word} by {e.decided_by}" if e.decided_by else word

    @property
    def result(self) -> str:
        e = self.execution
        if self.dry_run:
            return "Dry run"
        if e.error:
            return e.error + (f" (HTTP {e.upstream_status})" if e.upstream_status else "")
        return f"HTTP {e.upstream_status}" if e.upstream_status is not None else "—"


@router.get("/activity")
async def activity_page(
    request: Request,
    viewer: SignedIn,
    db: DB,
    log: Log,
    keys: Keys,
    catalog: Integrations,
    held: Held,
    apps: Apps,
) -> Response:
    await held.expire_overdue(viewer.user_id)  # each logged once, before the page reads
    query = request.query_params
    integration = query.get("integration", "")
    integration = integration if integration in catalog.slugs else ""
    outcome = query.get("outcome", "")
    outcome = outcome if outcome in ("success", "error") else ""
    cursor = query.get("cursor", "")[:200]
    rows, next_cursor = await log.page(
        db,
        viewer.user_id,
        limit=PAGE_SIZE,
        cursor=cursor or None,
        bad_cursor=BAD_CURSOR,
        integration=integration or None,
        outcome=outcome or None,
    )
    today = utcnow().date()
    counts = await log.daily_counts(
        db,
        viewer.user_id,
        since=window_start(today),
        integration=integration or None,
        outcome=outcome or None,
    )
    labels = {k.id: f"{k.name} ({k.key_prefix}…)" for k in await keys.list_for(db, viewer.user_id)}
    labels.update(  # a connected app's calls carry its grant's id
        {g.id: f"{g.client_name} (app)" for g in await apps.list_for(db, viewer.user_id)}
    )
    filters = {k: v for k, v in (("integration", integration), ("outcome", outcome)) if v}
    older = "/activity?" + urlencode({**filters, "cursor": next_cursor}) if next_cursor else None
    newest = ("/activity?" + urlencode(filters)) if cursor else None
    names = {i.slug: i.name for i in catalog.integrations.values()}
    context = {
        "viewer": viewer,
        "nav": "activity",
        "rows": [ActivityRow(e, labels.get(e.key_id or "", "—")) for e in rows],
        "names": names,
        "integration_choices": sorted(names.items(), key=lambda item: item[1].lower()),
        "outcome_choices": OUTCOMES,
        "selected": {"integration": integration, "outcome": outcome},
        "older": older,
        "newest": newest,
        "chart": build_chart(counts, names, today),
        "filtered": bool(filters),
        "export": {
            "since": (today - timedelta(days=EXPORT_DAYS)).isoformat(),
            "until": (today + timedelta(days=1)).isoformat(),
        },
    }
    return web.render(request, "activity.html", context)


@router.get("/activity/export")
async def activity_export(request: Request, viewer: SignedIn, log: Log, held: Held) -> Response:
    """The viewer's rows in [since, until) as a JSON lines download, streamed."""
    query = request.query_params
    export_range(query.get("since"), query.get("until"), utcnow())  # 400 first
    await held.expire_overdue(viewer.user_id)
    since, until = export_range(query.get("since"), query.get("until"), utcnow())
    name = f"skillgate-activity-{since:%Y%m%d}-{until:%Y%m%d}.jsonl"
    return StreamingResponse(
        log.export(viewer.user_id, since=since, until=until),
        media_type=JSONL,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
