"""Ids: random ones are unique; execution ids also sort by creation time."""

from __future__ import annotations

import re
import time

from skillgate.db.base import new_id, new_sortable_id


def test_random_ids_are_prefixed_base62_and_unique() -> None:
    ids = {new_id("key") for _ in range(10_000)}
    assert len(ids) == 10_000
    assert all(re.fullmatch(r"key_[0-9A-Za-z]{20}", i) for i in ids)


def test_sortable_ids_follow_the_clock() -> None:
    earlier = [new_sortable_id("exe") for _ in range(100)]
    time.sleep(0.002)
    later = [new_sortable_id("exe") for _ in range(100)]
    assert max(earlier) < min(later)
    assert all(re.fullmatch(r"exe_[0-9A-Za-z]{20}", i) for i in earlier + later)
    assert len(set(earlier + later)) == 200
