"""kit.memory: freed memory goes back to the system where the allocator allows it."""

from __future__ import annotations

import platform
import threading
from pathlib import Path

import pytest

from skillgate.kit import memory


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_memory_freed_in_a_thread_is_given_back() -> None:
    held: list[object] = []

    def build() -> None:  # as a reload does: many mid-sized objects, off the main thread
        held.extend({"k": "x" * 600, "n": i} for i in range(100_000))

    worker = threading.Thread(target=build)
    worker.start()
    worker.join()
    held.clear()
    before = _rss_kb()
    assert memory.give_back() is True
    assert _rss_kb() < before
