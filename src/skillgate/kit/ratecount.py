"""Fixed-window counting, in memory or in Redis: the one primitive behind every limit.

A `Window` is a budget (`limit` hits per `seconds`, aligned to the clock);
`spend()` counts one hit for each (window, subject) pair and answers every
count with its remaining budget and reset, plus the retry-after of the worst
refused one. Keys are `sg:{name}:{subject}:{int(now // seconds)}`, so a new
window starts a new key and the old one expires on its own.

    spent = await spend(counter, [(PER_ACCOUNT, digest), (PER_IP, ip)])
    if not spent.allowed: ... spent.retry_after ...
    await release(counter, spent)   # give the hits back (never below 0)

The counter is per process in memory (`MemoryCounter`) or shared by every
instance in Redis (`RedisCounter`, used when SKILLGATE_REDIS_URL is set). Users:
the plan limits (skillgate.users.limiter), sign-in and sign-up
(skillgate.auth.throttle), device-code starts and wrong user codes
(skillgate.device.service).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from skillgate.errors import ServiceUnavailable


class Counter(Protocol):
    async def hit(self, keys: list[tuple[str, int]]) -> list[int]:
        """Increment each (key, ttl) and return the new counts."""

    async def count(self, keys: list[str]) -> list[int]:
        """The current counts, without incrementing."""

    async def release(self, keys: list[str]) -> None:
        """Give back one hit on each key still in its window (never below 0)."""


@dataclass(frozen=True)
class Window:
    name: str  # the key's namespace, e.g. "signin:acct"
    limit: int  # hits allowed per window; one more is refused
    seconds: int

    def key(self, subject: str, now: float) -> str:
        return f"sg:{self.name}:{subject}:{int(now // self.seconds)}"

    def reset(self, now: float) -> int:
        """Whole seconds until this window ends: 1..seconds, never early."""
        return math.ceil(self.seconds - now % self.seconds)


class Count(NamedTuple):
    window: Window
    hits: int  # in this window, this one included
    reset: int  # seconds until the window ends

    @property
    def remaining(self) -> int:
        return max(0, self.window.limit - self.hits)

    @property
    def refused(self) -> bool:
        return self.hits > self.window.limit


class Spent(NamedTuple):
    counts: tuple[Count, ...]
    retry_after: int  # the longest reset among refused counts; 0 when all allowed
    hit: list[tuple[str, int]]  # (key, ttl) as counted

    @property
    def allowed(self) -> bool:
        return self.retry_after == 0

    @property
    def keys(self) -> list[str]:
        """What `release` gives back."""
        return [key for key, _ in self.hit]


async def spend(
    counter: Counter, checks: Sequence[tuple[Window, str]], now: float | None = None
) -> Spent:
    """Count one hit on each (window, subject); refused when any count passes its limit."""
    if now is None:
        now = time.time()
    hit = [(window.key(subject, now), window.seconds) for window, subject in checks]
    hits = await counter.hit(hit)
    counts = []
    retry_after = 0  # the longest wait among the refused windows
    for (window, _), n in zip(checks, hits, strict=True):
        reset = window.reset(now)
        if n > window.limit and reset > retry_after:
            retry_after = reset
        counts.append(Count(window, n, reset))
    return Spent(tuple(counts), retry_after, hit)


async def release(counter: Counter, spent: Spent) -> None:
    """Give back the hits `spent` counted (those still in their window; never below 0)."""
    await counter.release(spent.keys)


class MemoryCounter:
    """Per process: with several workers or instances, use Redis."""

    def __init__(self) -> None:
        self._counts: dict[str, tuple[int, float]] = {}
        self._sweep_at = time.monotonic() + 60

    def clear(self) -> None:
        """Forget every count (a fresh process, without restarting one)."""
        self._counts.clear()

    async def hit(self, keys: list[tuple[str, int]]) -> list[int]:
        now = time.monotonic()
        if now > self._sweep_at:
            self._counts = {k: v for k, v in self._counts.items() if v[1] > now}
            self._sweep_at = now + 60
        out = []
        for key, ttl in keys:
            count, expires = self._counts.get(key, (0, now + ttl))
            if expires <= now:
                count, expires = 0, now + ttl
            self._counts[key] = (count + 1, expires)
            out.append(count + 1)
        return out

    async def count(self, keys: list[str]) -> list[int]:
        now = time.monotonic()
        out = []
        for key in keys:
            count, expires = self._counts.get(key, (0, now))
            out.append(count if expires > now else 0)
        return out

    async def release(self, keys: list[str]) -> None:
        now = time.monotonic()
        for key in keys:
            count, expires = self._counts.get(key, (0, now))
            if count > 0 and expires > now:
                self._counts[key] = (count - 1, expires)


# DECR only a key that still exists and is above 0: a key that expired meanwhile must
# not come back as -1 without a TTL (a free guess that never expires).
_RELEASE = """
for _, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0')
  if n > 0 then redis.call('DECR', key) end
end
return 0
"""
_DOWN = "The rate-limit store (Redis) is unavailable; retry shortly."


class RedisCounter:
    """Shared by every instance; a Redis failure is 503 (a limit is never skipped)."""

    def __init__(self, client: Any) -> None:
        self._redis = client

    async def hit(self, keys: list[tuple[str, int]]) -> list[int]:
        try:
            pipe = self._redis.pipeline(transaction=False)
            for key, ttl in keys:
                pipe.incr(key)
                pipe.expire(key, ttl + 5, nx=True)
            results = await pipe.execute()
        except Exception as exc:  # redis.RedisError, ConnectionError, TimeoutError
            raise ServiceUnavailable(_DOWN) from exc
        return [int(results[i * 2]) for i in range(len(keys))]

    async def count(self, keys: list[str]) -> list[int]:
        try:
            values = await self._redis.mget(keys)
        except Exception as exc:
            raise ServiceUnavailable(_DOWN) from exc
        return [int(v) if v is not None else 0 for v in values]

    async def release(self, keys: list[str]) -> None:
        try:
            await self._redis.eval(_RELEASE, len(keys), *keys)
        except Exception as exc:
            raise ServiceUnavailable(_DOWN) from exc


def new_counter(redis_client: Any) -> Counter:
    """Redis when the app has a client, else this process's memory."""
    return RedisCounter(redis_client) if redis_client is not None else MemoryCounter()
