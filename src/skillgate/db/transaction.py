"""A transaction's life outside any web framework: commit then the `on_commit` callbacks,
a unit of work, an insert that may find its key taken. The request's own transaction
(db/session.py) and the CLI's commands (cli/context.py) both use it; it imports nothing
of FastAPI, so a CLI command starts without loading the web stack.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

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
