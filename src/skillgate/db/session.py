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

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.http.provide import services_of

_ON_COMMIT = "skillgate.on_commit"


def on_commit(session: AsyncSession, callback: Callable[[], None]) -> None:
    """Run `callback` once the surrounding request transaction has committed."""
    session.info.setdefault(_ON_COMMIT, []).append(callback)


async def insert_new(session: AsyncSession, row: object) -> bool:
    """Insert `row` in a savepoint; False (nothing inserted, the transaction still usable)
    when a unique key already holds it."""
    try:
        async with session.begin_nested():
            session.add(row)
    except IntegrityError:
        return False
    return True


async def commit(session: AsyncSession) -> None:
    """Commit and run the `on_commit` callbacks (also used by CLI commands)."""
    await session.commit()
    for callback in session.info.pop(_ON_COMMIT, []):
        callback()


@contextlib.asynccontextmanager
async def unit_of_work(maker: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """A session whose transaction commits when the block ends without an error (then
    the `on_commit` callbacks run) and rolls back when it raises: one per request."""
    async with maker() as session:
        try:
            yield session
        except BaseException:
            session.info.pop(_ON_COMMIT, None)
            await session.rollback()
            raise
        else:
            await commit(session)


async def get_db(request: Request) -> AsyncIterator[AsyncSession]:
    maker: async_sessionmaker[AsyncSession] = services_of(request)[async_sessionmaker]
    async with unit_of_work(maker) as session:
        yield session


DB = Annotated[AsyncSession, Depends(get_db, scope="function")]
