from __future__ import annotations

import asyncio

import pytest

from skillgate.kit.cache import TTLCache


async def test_concurrent_misses_share_one_load() -> None:
    cache: TTLCache[str, int] = TTLCache(ttl=60)
    calls = 0

    async def load() -> int:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.01)
        return 7

    results = await asyncio.gather(*(cache.get("k", load) for _ in range(50)))
    assert results == [7] * 50
    assert calls == 1
    assert await cache.get("k", load) == 7
    assert calls == 1


async def test_forget_during_a_load_is_not_undone_by_it() -> None:
    cache: TTLCache[str, str] = TTLCache(ttl=60)
    started = asyncio.Event()
    release = asyncio.Event()

    async def slow_stale() -> str:
        started.set()
        await release.wait()
        return "stale"

    task = asyncio.create_task(cache.get("k", slow_stale))
    await started.wait()
    cache.forget("k")  # e.g. the key was revoked while the lookup was running
    release.set()
    assert await task == "stale"

    async def fresh() -> str:
        return "fresh"

    assert await cache.get("k", fresh) == "fresh"


async def test_expired_entries_reload_and_errors_propagate() -> None:
    cache: TTLCache[str, int] = TTLCache(ttl=0)
    values = iter([1, 2])

    async def load() -> int:
        return next(values)

    assert await cache.get("k", load) == 1
    assert await cache.get("k", load) == 2

    async def boom() -> int:
        raise RuntimeError("db down")

    with pytest.raises(RuntimeError):
        await cache.get("x", boom)


async def test_a_value_not_kept_is_shared_then_loaded_again() -> None:
    """`keep`: a value it refuses (a connection not found) serves the loads waiting on it
    and is read again by the next `get`, within the TTL."""
    cache: TTLCache[str, int | None] = TTLCache(ttl=60, keep=lambda v: v is not None)
    values = iter([None, 3])
    calls = 0

    async def load() -> int | None:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.01)
        return next(values)

    assert await asyncio.gather(cache.get("k", load), cache.get("k", load)) == [None, None]
    assert calls == 1
    assert await cache.get("k", load) == 3
    assert await cache.get("k", load) == 3
    assert calls == 2
