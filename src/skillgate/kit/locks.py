"""Single-flight locks: per process, and across processes when that is possible.

`KeyedLock` serialises coroutines of one process per key. `RedisLock` (SET NX
with a token, released by compare-and-delete) spans instances; `FileLock`
(flock) spans the workers of one box, for SQLite. PostgreSQL row locks are
taken in the transaction itself (`SELECT ... FOR UPDATE`).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
import secrets
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from skillgate.errors import ServiceUnavailable

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class KeyedLock:
    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)


@contextlib.asynccontextmanager
async def redis_lock(
    client: Any, name: str, ttl: float = 30.0, wait: float = 35.0
) -> AsyncIterator[None]:
    token = secrets.token_hex(16)
    deadline = time.monotonic() + wait
    try:
        while not await client.set(name, token, nx=True, px=int(ttl * 1000)):
            if time.monotonic() > deadline:
                raise ServiceUnavailable("Another instance holds this lock; retry shortly.")
            await asyncio.sleep(0.05)
    except ServiceUnavailable:
        raise
    except Exception as exc:
        raise ServiceUnavailable("The lock store (Redis) is unavailable; retry shortly.") from exc
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            await client.eval(_RELEASE, 1, name, token)


@contextlib.asynccontextmanager
async def file_lock(directory: Path, name: str) -> AsyncIterator[None]:
    path = directory / (hashlib.sha256(name.encode()).hexdigest()[:32] + ".lock")

    def open_lock_file() -> int:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)

    fd = await asyncio.to_thread(open_lock_file)
    try:
        await asyncio.to_thread(fcntl.flock, fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
