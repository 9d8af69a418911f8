"""The request owns the transaction: one commit on success, a rollback on error.

Services `flush()`; they never commit. The dependency runs with
`scope="function"`, so the commit happens before the response is sent: a
client never sees 2xx for a write that did not land. Work that must follow a
durable commit (dropping a cache entry) is registered with `on_commit`.

Five components own short transactions of their own instead, each opened on
the session maker they were built with, because their write must land (or
hold its lock) independently of the request around it:

- `Confirmations` (executor/confirmations.py): a confirmation token stored,
  and redeemed by one conditional UPDATE;
- `Idempotency` (executor/idempotency.py): a key claimed, its answer stored,
  its claim released;
- `Refresher` (connections/refresh.py): the row lock, the refreshed token
  and the `reconnect_required` mark, in a `unit_of_work` whose `on_commit`
  drops this instance's cached credentials;
- `UsageRecorder` (api_keys/usage.py): `last_used_at`, from a background task;
- the execution log's sinks (executions/sinks.py): each batch of rows.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.db.transaction import commit, insert_new, on_commit, unit_of_work
from skillgate.http.provide import services_of

__all__ = ["DB", "commit", "get_db", "insert_new", "on_commit", "unit_of_work"]


async def get_db(request: Request) -> AsyncIterator[AsyncSession]:
    maker: async_sessionmaker[AsyncSession] = services_of(request)[async_sessionmaker]
    async with unit_of_work(maker) as session:
        yield session


DB = Annotated[AsyncSession, Depends(get_db, scope="function")]
