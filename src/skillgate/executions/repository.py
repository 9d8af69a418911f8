"""The execution log's queries: one user's rows, newest first, keyset-paginated by
(created_at, id) with an opaque cursor (the API and the dashboard's Activity page);
and the calls per UTC day, integration and outcome (the Activity page's chart)."""

from __future__ import annotations

import base64
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, String, and_, case, func, literal_column, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.executions.models import Execution
from skillgate.kit.text import has_control


def encode_cursor(e: Execution) -> str:
    return base64.urlsafe_b64encode(f"{e.created_at.isoformat()}|{e.id}".encode()).decode()


def decode_cursor(value: str) -> tuple[datetime, str] | None:
    """The (created_at, id) a cursor stands for; None when it is not one of ours."""
    try:
        at, ident = base64.urlsafe_b64decode(value.encode()).decode().split("|", 1)
        if has_control(ident):
            return None
        return datetime.fromisoformat(at), ident
    except (ValueError, UnicodeDecodeError):
        return None


# Log "errors" that are not failures: a dry run (nothing sent), an idempotent replay
# (the stored answer of an earlier call, which its own status judges) and a held call
# sent when a person approved it (its status judges it too).
NOT_FAILURES = ("dry_run", "replayed", "approved")


def _succeeded() -> ColumnElement[bool]:
    """No gateway error and an upstream 2xx/3xx, or a dry run (the Activity page's
    "Succeeded")."""
    return or_(
        Execution.error == "dry_run",
        and_(
            or_(Execution.error.is_(None), Execution.error.in_(("replayed", "approved"))),
            Execution.upstream_status >= 200,
            Execution.upstream_status < 400,
        ),
    )


def _failed() -> ColumnElement[bool]:
    return or_(
        and_(Execution.error.is_not(None), Execution.error.not_in(NOT_FAILURES)),
        Execution.upstream_status >= 400,
    )


def _utc_day(dialect: str) -> ColumnElement[str]:
    """`YYYY-MM-DD` of `created_at` in UTC. SQLite stores naive UTC text, whose first ten
    characters are the day; PostgreSQL converts the timestamptz to UTC first, whatever
    the session's time zone."""
    if dialect == "postgresql":
        in_utc = func.timezone(literal_column("'UTC'"), Execution.created_at)
        return func.to_char(in_utc, literal_column("'YYYY-MM-DD'"), type_=String)
    return func.substr(Execution.created_at, 1, 10, type_=String)


@dataclass(frozen=True)
class DayCount:
    day: str  # YYYY-MM-DD, UTC
    integration: str
    ok: bool
    count: int


class ExecutionRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def page(
        self,
        user_id: str,
        *,
        limit: int,
        before: tuple[datetime, str] | None = None,
        integration: str | None = None,
        outcome: str | None = None,
        within: Collection[str] | None = None,
    ) -> tuple[Sequence[Execution], str | None]:
        """Up to `limit` of the user's executions, newest first, after `before`; and the
        cursor of the next page, None on the last. `within`: only these integrations (an
        API key's scopes), None for all."""
        stmt = select(Execution).where(Execution.user_id == user_id)
        if within is not None:
            stmt = stmt.where(Execution.integration.in_(sorted(within)))
        if before is not None:
            at, ident = before
            stmt = stmt.where(
                or_(
                    Execution.created_at < at,
                    and_(Execution.created_at == at, Execution.id < ident),
                )
            )
        if integration:
            stmt = stmt.where(Execution.integration == integration)
        if outcome == "success":
            stmt = stmt.where(_succeeded())
        elif outcome == "error":
            stmt = stmt.where(_failed())
        stmt = stmt.order_by(Execution.created_at.desc(), Execution.id.desc()).limit(limit + 1)
        rows = (await self.session.execute(stmt)).scalars().all()
        if len(rows) > limit:
            return rows[:limit], encode_cursor(rows[limit - 1])
        return rows, None

    async def between(
        self,
        user_id: str,
        *,
        since: datetime,
        until: datetime,
        limit: int,
        after: tuple[datetime, str] | None = None,
        within: Collection[str] | None = None,
    ) -> Sequence[Execution]:
        """Up to `limit` of the user's rows with since <= created_at < until, oldest
        first, after `after` (the export's keyset)."""
        stmt = select(Execution).where(
            Execution.user_id == user_id,
            Execution.created_at >= since,
            Execution.created_at < until,
        )
        if within is not None:
            stmt = stmt.where(Execution.integration.in_(sorted(within)))
        if after is not None:
            at, ident = after
            stmt = stmt.where(
                or_(
                    Execution.created_at > at,
                    and_(Execution.created_at == at, Execution.id > ident),
                )
            )
        stmt = stmt.order_by(Execution.created_at, Execution.id).limit(limit)
        return (await self.session.execute(stmt)).scalars().all()

    async def daily_counts(
        self,
        user_id: str,
        *,
        since: datetime,
        integration: str | None = None,
        outcome: str | None = None,
    ) -> list[DayCount]:
        """The user's calls from `since` on, counted per UTC day, integration and outcome
        (succeeded or not), with the same filters as `page`."""
        dialect = self.session.get_bind().dialect.name
        day = _utc_day(dialect).label("day")
        ok = case((_succeeded(), 1), else_=0).label("ok")
        stmt = select(day, Execution.integration, ok, func.count().label("n")).where(
            Execution.user_id == user_id, Execution.created_at >= since
        )
        if integration:
            stmt = stmt.where(Execution.integration == integration)
        if outcome == "success":
            stmt = stmt.where(_succeeded())
        elif outcome == "error":
            stmt = stmt.where(_failed())
        # By the labels: PostgreSQL would not match the expressions' separate parameters.
        stmt = stmt.group_by(day, Execution.integration, ok).order_by(
            day, Execution.integration, ok
        )
        rows = (await self.session.execute(stmt)).all()
        return [DayCount(str(d), str(i), bool(k), int(n)) for d, i, k, n in rows]
