"""The fixed-window primitive: window rollover, reset and retry-after arithmetic, release
never below 0; on the memory counter, and on Redis when SKILLGATE_TEST_REDIS_URL is set."""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import from_url as redis_from_url

from skillgate.errors import ServiceUnavailable
from skillgate.kit.ratecount import (
    Counter,
    MemoryCounter,
    RedisCounter,
    Window,
    new_counter,
    release,
    spend,
)

REDIS_URL = os.environ.get("SKILLGATE_TEST_REDIS_URL")
T0 = 1_800_000_000.0  # a multiple of 60 and of 3600: the start of a minute and an hour


@pytest.fixture(params=["memory", "redis"])
async def counter(request: pytest.FixtureRequest) -> AsyncIterator[Counter]:
    if request.param == "memory":
        yield MemoryCounter()
        return
    if not REDIS_URL:
        pytest.skip("needs SKILLGATE_TEST_REDIS_URL")
    client = redis_from_url(REDIS_URL)
    try:
        yield RedisCounter(client)
    finally:
        await client.aclose()


def _subject() -> str:
    """A subject of its own: keys in a shared Redis outlive a test (they expire)."""
    return secrets.token_hex(6)


def test_keys_name_the_window_and_its_number() -> None:
    assert Window("rl", 30, 60).key("key_1:minute", T0 + 59.9) == f"sg:rl:key_1:minute:{30_000_000}"
    assert Window("rl", 30, 60).key("key_1:minute", T0 + 60) == f"sg:rl:key_1:minute:{30_000_001}"
    assert Window("signin:acct", 10, 900).key("d", 1800.0) == "sg:signin:acct:d:2"


def test_reset_counts_whole_seconds_to_the_window_end_never_early() -> None:
    window = Window("w", 1, 60)
    assert window.reset(T0) == 60  # at the very start: the whole window
    assert window.reset(T0 + 0.2) == 60  # 59.8 s left: rounded up, not down
    assert window.reset(T0 + 10) == 50
    assert window.reset(T0 + 59.5) == 1
    assert window.reset(T0 + 59.999) == 1  # never 0


async def test_counts_within_a_window_and_refuses_past_the_limit(counter: Counter) -> None:
    window, who = Window("test:w", 3, 60), _subject()
    spent = [await spend(counter, [(window, who)], now=T0 + 10) for _ in range(4)]
    assert [s.counts[0].hits for s in spent] == [1, 2, 3, 4]
    assert [s.counts[0].remaining for s in spent] == [2, 1, 0, 0]
    assert [s.allowed for s in spent] == [True, True, True, False]
    assert [s.retry_after for s in spent] == [0, 0, 0, 50]
    assert spent[-1].counts[0].refused
    assert not spent[-2].counts[0].refused
    assert spent[0].keys == [window.key(who, T0 + 10)]


async def test_a_new_window_starts_from_zero(counter: Counter) -> None:
    window, who = Window("test:roll", 2, 60), _subject()
    for _ in range(3):
        last = await spend(counter, [(window, who)], now=T0 + 59)
    assert not last.allowed
    assert last.retry_after == 1
    rolled = await spend(counter, [(window, who)], now=T0 + 60)
    assert rolled.allowed
    assert rolled.counts[0].hits == 1
    assert rolled.counts[0].reset == 60


async def test_several_windows_answer_each_and_the_worst_retry_after(counter: Counter) -> None:
    minute, hour = Window("test:m", 1, 60), Window("test:h", 2, 3600)
    who = _subject()
    now = T0 + 30  # 30 s left in the minute, 3570 s in the hour
    first = await spend(counter, [(minute, who), (hour, who)], now=now)
    assert first.allowed
    assert [(c.hits, c.remaining, c.reset) for c in first.counts] == [(1, 0, 30), (1, 1, 3570)]
    second = await spend(counter, [(minute, who), (hour, who)], now=now)
    assert [c.refused for c in second.counts] == [True, False]
    assert second.retry_after == 30  # only the minute refused
    third = await spend(counter, [(minute, who), (hour, who)], now=now)
    assert [c.refused for c in third.counts] == [True, True]
    assert third.retry_after == 3570  # the longest wait among the refused windows


async def test_subjects_count_apart(counter: Counter) -> None:
    window, one, other = Window("test:s", 1, 60), _subject(), _subject()
    assert (await spend(counter, [(window, one)], now=T0)).allowed
    assert not (await spend(counter, [(window, one)], now=T0)).allowed
    assert (await spend(counter, [(window, other)], now=T0)).allowed


async def test_release_gives_back_what_was_spent(counter: Counter) -> None:
    window, who = Window("test:rel", 2, 60), _subject()
    await spend(counter, [(window, who)], now=T0)
    reserved = await spend(counter, [(window, who)], now=T0)
    await release(counter, reserved)
    assert await counter.count(reserved.keys) == [1]
    assert (await spend(counter, [(window, who)], now=T0)).counts[0].hits == 2


async def test_release_gives_back_one_hit_and_never_goes_below_zero(counter: Counter) -> None:
    key, gone = f"sg:test:release:{_subject()}", f"sg:test:gone:{_subject()}"
    assert await counter.hit([(key, 60), (key, 60)]) == [1, 2]
    await counter.release([key, gone])
    assert await counter.count([key, gone]) == [1, 0]
    await counter.release([key])
    await counter.release([key, gone])  # nothing left to give back
    assert await counter.count([key, gone]) == [0, 0]
    assert await counter.hit([(key, 60), (gone, 60)]) == [1, 1]


async def test_redis_down_is_503_never_a_skipped_limit() -> None:
    client = redis_from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    try:
        counter = new_counter(client)
        assert isinstance(counter, RedisCounter)
        with pytest.raises(ServiceUnavailable):
            await spend(counter, [(Window("test:down", 1, 60), "x")])
        with pytest.raises(ServiceUnavailable):
            await counter.release(["sg:test:down:x"])
    finally:
        await client.aclose()


def test_without_redis_the_counter_is_this_process_memory() -> None:
    assert isinstance(new_counter(None), MemoryCounter)
