"""Per-key rate limits by plan: a per-minute and a per-day fixed window.

Counted with the kit's fixed-window primitive (skillgate.kit.ratecount): in
memory by default (per process: with several workers or instances set
SKILLGATE_REDIS_URL); in Redis when configured, so every instance spends one
budget. Keys are `sg:rl:{key_id}:minute:{n}` and `sg:rl:{key_id}:day:{n}`.
Answers carry `RateLimit-Policy` and `RateLimit` (IETF httpapi draft syntax)
and, when refused, 429 `rate_limited` with `Retry-After`.
"""

from __future__ import annotations

from dataclasses import dataclass

from skillgate.errors import RateLimited
from skillgate.kit.ratecount import Counter, Window, spend

WINDOWS = (("minute", 60), ("day", 86_400))


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    headers: dict[str, str]
    retry_after: int = 0


_UNLIMITED = Verdict(True, {})


@dataclass(frozen=True)
class _Policy:
    windows: tuple[tuple[str, Window], ...]  # (label, window)
    header: str  # RateLimit-Policy


class PlanLimiter:
    def __init__(self, counter: Counter) -> None:
        self.counter = counter
        self._policies: dict[tuple[int | None, int | None], _Policy] = {}

    def _policy(self, per_minute: int | None, per_day: int | None) -> _Policy:
        found = self._policies.get((per_minute, per_day))
        if found is None:
            windows = tuple(
                (label, Window("rl", limit, seconds))
                for (label, seconds), limit in zip(WINDOWS, (per_minute, per_day), strict=True)
                if limit is not None
            )
            header = ", ".join(f'"{n}";q={w.limit};w={w.seconds}' for n, w in windows)
            found = self._policies[(per_minute, per_day)] = _Policy(windows, header)
        return found

    async def check(self, key_id: str, per_minute: int | None, per_day: int | None) -> Verdict:
        if per_minute is None and per_day is None:
            return _UNLIMITED
        policy = self._policy(per_minute, per_day)
        spent = await spend(
            self.counter, [(window, f"{key_id}:{label}") for label, window in policy.windows]
        )
        # The header names the window with the least left (the first one on a tie).
        counts = spent.counts
        worst = 0
        for i in range(1, len(counts)):
            if counts[i].remaining < counts[worst].remaining:
                worst = i
        label, count = policy.windows[worst][0], counts[worst]
        headers = {
            "RateLimit-Policy": policy.header,
            "RateLimit": f'"{label}";r={count.remaining};t={count.reset}',
        }
        if not spent.allowed:
            return Verdict(False, headers, spent.retry_after)
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
