"""Giving memory freed in bulk back to the system.

A catalog reload builds the new catalog, its rendered answers and its search index
in a worker thread while the old ones still serve, then drops the old ones. glibc's
allocator keeps what was freed in its arenas (one per thread that allocated), so each
reload left the process ~35 MB larger at 10,000 endpoints until it levelled off at
about twice the catalog's size; `malloc_trim` returns the free pages at once
(bench/scale_bench.py, "RSS after reloads"). Elsewhere than glibc it does nothing.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from functools import cache
from typing import Any


@cache
def _malloc_trim() -> Callable[[int], Any] | None:
    try:
        program = ctypes.CDLL(None)  # the process's own symbols, libc's among them
    except OSError:
        return None
    trim: Callable[[int], Any] | None = getattr(program, "malloc_trim", None)
    return trim


def give_back() -> bool:
    """Return the allocator's free memory to the system; whether it could."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
