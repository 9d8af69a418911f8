"""Declarative base, id generation and the UTC timestamp column type."""

from __future__ import annotations

import random
import secrets
import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, MetaData
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

from skillgate.kit import base62

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


_fast_random = random.Random(secrets.randbits(128))


def new_id(prefix: str, length: int = 20) -> str:
    """A prefixed random id (`usr_...`, `key_...`): readable in logs, ~119 bits.

    One OS-random draw converted to base62 (20 `secrets.choice` calls cost
    ~100 us, a noticeable share of a proxied request).
    """
    return prefix + "_" + base62.encode(secrets.randbits(128), length)


_last_stamp: tuple[int, str] = (-1, "")


def new_sortable_id(prefix: str) -> str:
    """`prefix_` + 8 base62 characters of the millisecond clock + 12 random ones.

    Ids made later sort later, so rows inserted at a high rate (the execution
    log) append to the end of the primary-key index instead of landing on
    random pages. Unique, not secret: the tail comes from a seeded PRNG.
    Made once per execution: the clock part is reused within a millisecond.
    """
    global _last_stamp
    stamp = int(time.time() * 1000)
    if stamp != _last_stamp[0]:
        _last_stamp = (stamp, base62.encode(stamp, 8))
    return prefix + "_" + _last_stamp[1] + base62.encode(_fast_random.getrandbits(72), 12)


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend (SQLite stores them naive)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        parsed: datetime = datetime.fromisoformat(value) if isinstance(value, str) else value
        if parsed.tzinfo is None:
            return parsed.replace(tzinfo=UTC)
        return parsed.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
