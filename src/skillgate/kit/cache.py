"""A per-process TTL cache with single-flight loads and safe invalidation.

Used where the hot path must not query the database per request (key
verification, connection status). Concurrent misses for one key share one
load; `forget()` during a load makes that load's result go uncached, so an
invalidation can never be overwritten by data read before it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class TTLCache(Generic[K, V]):
    def __init__(
        self, ttl: float, max_entries: int = 50_000, keep: Callable[[V], bool] | None = None
    ) -> None:
        """`keep`: whether a loaded value is kept (all are by default); one that is not is
        still shared by the loads waiting on it, and the next `get` loads again."""
        self.ttl = ttl
        self._max = max_entries
        self._keep = keep
        self._entries: dict[K, tuple[V, float]] = {}
        self._inflight: dict[K, asyncio.Future[V]] = {}
        self._generation = 0

    async def get(self, key: K, load: Callable[[], Awaitable[V]]) -> V:
        now = time.monotonic()
        entry = self._entries.get(key)
        if entry is not None and now - entry[1] < self.ttl:
            return entry[0]
        pending = self._inflight.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[V] = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        generation = self._generation
        try:
            value = await load()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters re-raise it
            raise
        finally:
            if self._inflight.get(key) is future:
                del self._inflight[key]
        future.set_result(value)
        if generation == self._generation and (self._keep is None or self._keep(value)):
            if len(self._entries) >= self._max:
                self._entries.clear()
            self._entries[key] = (value, now)
        return value

    def peek(self, key: K) -> V | None:
        """The fresh cached value, or None; never loads."""
        entry = self._entries.get(key)
        if entry is not None and time.monotonic() - entry[1] < self.ttl:
            return entry[0]
        return None

    def forget(self, key: K) -> None:

        self._generation += 1
        self._entries.pop(key, None)
        self._inflight.pop(key, None)

    def forget_where(self, predicate: Callable[[V], bool]) -> None:
        self._generation += 1
        for key, (value, _) in list(self._entries.items()):
            if predicate(value):
                del self._entries[key]
        self._inflight.clear()
