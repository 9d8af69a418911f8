"""The Redis client: short timeouts, one retry on a dead pooled connection.

A Redis restart leaves every pooled connection dead; the first command on each
fails with `ConnectionError` and is retried once, at once, on a new connection
(so the first burst after a restart has no errors). A hung Redis is not waited
for: connecting and each reply time out after `timeout` seconds (a timeout is
not retried), and the caller degrades as docs/configuration.md says.

The client library is imported when a client is made: a gateway without Redis does
not load it (~0.06 s of start-up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from redis.asyncio import Redis

HEALTH_CHECK_INTERVAL = 30  # seconds idle before a pooled connection is pinged on use


def new_redis(url: str | None, timeout: float) -> Redis | None:
    if not url:
        return None
    from redis.asyncio import from_url as redis_from_url
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    client: Redis = redis_from_url(
        url,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        socket_keepalive=True,
        retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
        health_check_interval=HEALTH_CHECK_INTERVAL,
    )
    return client
