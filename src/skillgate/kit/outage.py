"""A backing service (database, Redis) is down: 503, not 500, and a quiet log.

`classify(exc)` recognises an exception (or anything in its cause/context
chain) as an outage of a known kind and returns the `ServiceUnavailable` to
answer (with `Retry-After`); None for anything else, which stays a 500 with
its traceback. A `ServiceUnavailable` raised with a backing service's error as
its cause (the Redis rate limiter's, the Redis lock's) is that kind of outage
too. `report(exc, request_id)` does the same and logs the outage
through `OUTAGES`: one line per failure kind per interval, without a
traceback, with the number of repeats it held back. Every error boundary
(the JSON API's handlers, the request middleware, the raw routes, the
dashboard) calls `report`; the service recovers by itself once the backend is
back (the PostgreSQL pool pings before use, Redis retries a dead connection).
"""

from __future__ import annotations

import logging
import socket
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass

import structlog
from sqlalchemy import exc as sa_exc

from skillgate.errors import ServiceUnavailable
from skillgate.kit.redact import redact

LOG_INTERVAL = 10.0
log = structlog.get_logger("skillgate.outage")

MESSAGES = {
    "database": "The database is unavailable; retry shortly.",
    "redis": "A backing store (Redis) is unavailable; retry shortly.",
    "network": "A backing service is unavailable; retry shortly.",
}


@dataclass(frozen=True)
class Outage:
    kind: str  # database, redis, network
    error: ServiceUnavailable
    cause: BaseException  # the exception that identified it (named in the log)


def chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and len(seen) < 16:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _database(exc: BaseException) -> bool:
    if isinstance(exc, sa_exc.DBAPIError):
        return exc.connection_invalidated or isinstance(
            exc, (sa_exc.OperationalError, sa_exc.InterfaceError)
        )
    if isinstance(exc, (sa_exc.TimeoutError, sqlite3.OperationalError)):  # pool checkout
        return True
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - a server install always has it
        return False
    return isinstance(
        exc,
        (
            asyncpg.PostgresConnectionError,
            asyncpg.InterfaceError,
            asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, cannot connect now
            asyncpg.exceptions.InsufficientResourcesError,  # too many connections
        ),
    )


def _redis(exc: BaseException) -> bool:
    try:
        from redis import exceptions as redis_exc
    except ImportError:  # pragma: no cover
        return False
    return isinstance(exc, (redis_exc.ConnectionError, redis_exc.TimeoutError))


def _kind(exc: BaseException) -> str | None:
    if _database(exc):
        return "database"
    if _redis(exc):
        return "redis"
    if isinstance(exc, (ConnectionError, TimeoutError, socket.gaierror)):
        return "network"
    return None


def outage(exc: BaseException) -> Outage | None:
    """The outage `exc` stands for. A `ServiceUnavailable` raised on purpose keeps its
    own message; its kind is the backing service in its cause chain (a Redis error
    behind the rate limiter's 503), else "unavailable" (a 503 of the gateway's own:
    too many pending sign-ins, a lock held elsewhere)."""
    for link in chain(exc):
        kind = _kind(link)
        if kind is not None:
            answer = exc if isinstance(exc, ServiceUnavailable) else None
            return Outage(kind, answer or ServiceUnavailable(MESSAGES[kind]), link)
    if isinstance(exc, ServiceUnavailable):
        return Outage("unavailable", exc, exc)
    return None


def classify(exc: BaseException) -> ServiceUnavailable | None:
    """The 503 to answer when `exc` says a backing service is down; else None."""
    found = outage(exc)
    return found.error if found is not None else None


class ThrottledLog:
    """At most one line per key per `interval` seconds, counting what it held back."""

    def __init__(self, interval: float = LOG_INTERVAL) -> None:
        self.interval = interval
        self._next: dict[str, float] = {}
        self._suppressed: dict[str, int] = {}

    def error(self, key: str, event: str, **fields: object) -> bool:
        """Log unless this key logged less than `interval` ago; True when it logged."""
        return self._log(logging.ERROR, key, event, fields)

    def warning(self, key: str, event: str, **fields: object) -> bool:
        """`error`, at warning level."""
        return self._log(logging.WARNING, key, event, fields)

    def _log(self, level: int, key: str, event: str, fields: dict[str, object]) -> bool:
        now = time.monotonic()
        if now < self._next.get(key, 0.0):
            self._suppressed[key] = self._suppressed.get(key, 0) + 1
            return False
        self._next[key] = now + self.interval
        log.log(level, event, suppressed=self._suppressed.pop(key, 0), **fields)
        return True


OUTAGES = ThrottledLog()


def report(exc: BaseException, request_id: str = "-") -> ServiceUnavailable | None:
    """`classify`, and log the outage (throttled, no traceback) when a backing service
    failed (a 503 of the gateway's own making is not logged here)."""
    found = outage(exc)
    if found is None:
        return None
    if found.kind not in MESSAGES:
        return found.error
    cause = found.cause
    name = f"{type(cause).__module__}.{type(cause).__qualname__}"
    first_line = (str(cause).strip().splitlines() or [""])[0][:200]
    OUTAGES.error(
        f"{found.kind}:{name}",
        "backing service unavailable",
        kind=found.kind,
        error=name,
        detail=redact(first_line),
        request_id=request_id,
    )
    return found.error
