"""Per-key rate limits by plan: a per-minute and a per-day fixed window.

In memory by default (per process: with several workers or instances set
SKILLGATE_REDIS_URL); in Redis when configured, so every instance spends one
budget. Answers carry `RateLimit-Policy` and `RateLimit` (IETF httpapi
draft syntax) and, when refused, 429 `rate_limited` with `Retry-After`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

from skillgate.errors import RateLimited, ServiceUnavailable

WINDOWS = (("minute", 60), ("day", 86_400))


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    headers: dict[str, str]
    retry_after: int = 0


_UNLIMITED = Verdict(True, {})


class Counter(Protocol):
    async def hit(self, keys: list[tuple[str, int]]) -> list[int]:
        """Increment each (key, ttl) and return the new counts."""

    async def count(self, keys: list[str]) -> list[int]:
        """The current counts, without incrementing."""

    async def release(self, keys: list[str]) -> None:
        """Give back one hit on each key still in its window (never below 0)."""


class MemoryCounter:
    def __init__(self) -> None:
        self._counts: dict[str, tuple[int, float]] = {}
        self._sweep_at = time.monotonic() + 60

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


class RedisCounter:
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
            raise ServiceUnavailable(
                "The rate-limit store (Redis) is unavailable; retry shortly."
            ) from exc
        return [int(results[i * 2]) for i in range(len(keys))]

    async def count(self, keys: list[str]) -> list[int]:
        try:
            values = await self._redis.mget(keys)
        except Exception as exc:
            raise ServiceUnavailable(
                "The rate-limit store (Redis) is unavailable; retry shortly."
            ) from exc
        return [int(v) if v is not None else 0 for v in values]

    async def release(self, keys: list[str]) -> None:
        try:
            await self._redis.eval(_RELEASE, len(keys), *keys)
        except Exception as exc:
            raise ServiceUnavailable(
                "The rate-limit store (Redis) is unavailable; retry shortly."
            ) from exc


class RateLimiter:
    def __init__(self, counter: Counter) -> None:
        self.counter = counter

    async def check(self, key_id: str, per_minute: int | None, per_day: int | None) -> Verdict:
        if per_minute is None and per_day is None:
            return _UNLIMITED
        limits = [
            (name, seconds, limit)
            for (name, seconds), limit in zip(WINDOWS, (per_minute, per_day), strict=True)
            if limit is not None
        ]
        if not limits:
            return Verdict(True, {})
        now = time.time()
        keys = []
        for name, seconds, _ in limits:
            window = int(now // seconds)
            keys.append((f"sg:rl:{key_id}:{name}:{window}", seconds))
        counts = await self.counter.hit(keys)
        policy = ", ".join(f'"{n}";q={q};w={s}' for n, s, q in limits)
        worst: tuple[int, int, str] | None = None  # (remaining, reset, name)
        refused_reset = 0
        for (name, seconds, limit), count in zip(limits, counts, strict=True):
            reset = int(seconds - (now % seconds)) or 1
            remaining = max(0, limit - count)
            if count > limit:
                refused_reset = max(refused_reset, reset)
            if worst is None or remaining < worst[0]:
                worst = (remaining, reset, name)
        assert worst is not None
        headers = {
            "RateLimit-Policy": policy,
            "RateLimit": f'"{worst[2]}";r={worst[0]};t={worst[1]}',
        }
        if refused_reset:
            return Verdict(False, headers, refused_reset)
        return Verdict(True, headers)

    async def enforce(self, key_id: str, per_minute: int | None, per_day: int | None) -> Verdict:
        verdict = await self.check(key_id, per_minute, per_day)
        if not verdict.allowed:
            raise RateLimited(
                f"Rate limit reached for this API key; retry in {verdict.retry_after} s "
                "or upgrade the plan.",
                retry_after=verdict.retry_after,
                headers=verdict.headers,
            )
        return verdict
