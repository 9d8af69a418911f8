"""Two processes logging to one stderr never mix their lines (issue 22, item 8).

The workers of `skillgate serve --workers 2` share one stderr. Before, a record left
in several writes (structlog's `print` wrote the newline apart; Python's buffer split
a long line) and 33 of 40,047 lines under load held two records. Now every record
is one `write(2)` of a whole line, and on a pipe the workers take a lock around
each write (a pipe keeps only writes up to PIPE_BUF bytes whole).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.process import clean_env

LINES = 1000
# Each process logs through skillgate.logging, structlog and the standard library,
# lines from 0 bytes of padding to 15 kB (past PIPE_BUF, like a traceback).
_WRITER = """
import logging, sys
import structlog
from skillgate import logging as sg_logging
sg_logging.configure("INFO", "json")
log = structlog.get_logger("lines")
std = logging.getLogger("lines.std")
who, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    pad = "x" * (2500 * (i % 7))
    if i % 5:
        log.info("line", who=who, i=i, pad=pad)
    else:
        std.warning('{"event": "std", "who": "%s", "i": %d, "pad": "%s"}', who, i, pad)
"""


def _records(data: bytes) -> list[dict[str, object]]:
    """Every line as one JSON object (fails on a line holding two records or a part)."""
    records = []
    for number, line in enumerate(data.split(b"\n")[:-1]):
        try:
            records.append(json.loads(line))
        except ValueError:
            pytest.fail(f"line {number} is not one JSON object: {line[:120]!r}...")
    return records


def _check(records: list[dict[str, object]]) -> None:
    for who in "ab":
        mine = sorted(int(str(r["i"])) for r in records if r.get("who") == who)
        assert mine == list(range(LINES)), who  # every record, whole, once


def _writers(stderr: int) -> list[subprocess.Popen[bytes]]:
    return [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, who, str(LINES)],
            stderr=stderr,
            stdout=subprocess.DEVNULL,
            env=clean_env(),
        )
        for who in "ab"
    ]


def test_two_processes_on_one_pipe_never_interleave() -> None:
    read, write = os.pipe()
    writers = _writers(write)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    _check(_records(data))


def test_two_processes_on_one_file_never_interleave(tmp_path: Path) -> None:
    path = tmp_path / "server.log"
    with path.open("wb") as log:  # as `2> server.log`: one open file, shared
        writers = _writers(log.fileno())
        assert [w.wait(timeout=120) for w in writers] == [0, 0]
    _check(_records(path.read_bytes()))
