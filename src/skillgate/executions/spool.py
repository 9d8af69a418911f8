"""The execution log's write-ahead file: a crashed or killed process loses no row.

Each writer (one per server process) appends every row, as one JSON line, to a
file of its own, `<data_dir>/spool/executions-<pid>-<random>.jsonl` (0600,
O_APPEND), before queueing it; the file is emptied whenever the queue has been
written to the database. The writer holds an exclusive `flock` on its file for
its whole life, so a file whose lock is free belongs to a dead process: any
writer may then insert its rows (inserts ignore ids already stored) and delete it.
A row the database refuses, or a file that cannot be read whole, goes to the
dead-letter directory (executions.deadletter) and the replay goes on.

A row reaches the kernel with one `write(2)` before the request is answered, so it
survives the process (kill -9, a crash, the OOM killer). It is not fsynced: a power
loss or a kernel crash can lose what the kernel had not written to disk yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import secrets
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
import structlog

from skillgate.executions import deadletter
from skillgate.executions.sinks import COLUMNS, Row, Sink
from skillgate.kit import outage

log = structlog.get_logger(__name__)
PATTERN = "executions-*.jsonl"
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC


class Spool:
    """This process's file: append a row, empty it, close (and remove) it."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path: Path | None = None
        self._fd = -1
        self._dirty = False
        self._failing = False

    def open(self) -> None:
        """Create, lock, then give the file the name other writers look for: a file is
        never visible to them unlocked (they would take it for a dead writer's)."""
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        name = f"executions-{os.getpid()}-{secrets.token_hex(4)}.jsonl"
        hidden = self.directory / f".{name}.new"
        fd = os.open(hidden, _FLAGS, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.rename(hidden, self.directory / name)
        except OSError:
            os.close(fd)
            with contextlib.suppress(OSError):
                hidden.unlink()
            raise
        self._fd, self.path = fd, self.directory / name

    @property
    def is_open(self) -> bool:
        return self._fd >= 0

    def append(self, row: Row) -> None:
        """One small write(2) of one line: in the kernel before the request is answered."""
        line = deadletter.encode(row)
        if self._failing:  # after a short write: start on a line of our own
            line = b"\n" + line
        try:
            written = os.write(self._fd, line)
        except OSError as exc:  # disk full, ...: the row is still queued
            written, error = 0, str(exc)
        else:
            error = "short write"
        self._dirty = True
        if written == len(line):
            self._failing = False
            return
        if not self._failing:
            log.warning("execution log spool write failed", error=error)
        self._failing = True

    def truncate(self) -> None:
        """Every row in the file is in the database: start the file again."""
        if self._dirty:
            os.ftruncate(self._fd, 0)
            self._dirty = False

    def close(self, *, remove: bool) -> None:
        if self._fd < 0:
            return
        if remove and self.path is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
        os.close(self._fd)  # releases the lock: a kept file is replayed by the next writer
        self._fd = -1


def _parse(data: bytes) -> tuple[list[Row], int]:
    """The rows of a file, and how many lines could not be read (a torn last line)."""
    rows: list[Row] = []
    bad = 0
    for line in data.split(b"\n"):
        if not line:
            continue
        try:
            values: list[Any] = orjson.loads(line)
            if len(values) == len(COLUMNS) - 2:  # written before approval_id, decided_by
                values[-1:-1] = [None, None]
            if len(values) != len(COLUMNS):
                raise ValueError(line)
            rows.append((*values[:-1], datetime.fromisoformat(values[-1])))
        except (ValueError, TypeError, IndexError):
            bad += 1
    return rows, bad


@contextlib.contextmanager
def _claimed(path: Path) -> Iterator[int | None]:
    """The file's descriptor when its writer is gone (its lock taken by us), else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:  # replayed and removed by another writer meanwhile
        yield None
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # its writer is alive
            yield None
            return
        yield fd
    finally:
        os.close(fd)


def _read(fd: int) -> bytes:
    with os.fdopen(os.dup(fd), "rb") as f:
        return f.read()


def _files(directory: Path, own: Path | None) -> list[Path]:
    return [p for p in sorted(directory.glob(PATTERN)) if p != own]


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


async def replay(
    directory: Path, sink: Sink, *, own: Path | None, batch: int, dead: deadletter.DeadLetter
) -> int:
    """Insert the rows of dead writers' files, then delete the files. Returns the rows
    inserted (already stored ones included). Rows the database refuses go to the
    dead-letter file; a file that cannot be read, or holds lines that are not rows, is
    moved to the dead-letter directory (after its readable rows are stored); either way
    the next file is replayed. While the database is unavailable the files stay."""
    replayed = 0
    for path in await asyncio.to_thread(_files, directory, own):
        with _claimed(path) as fd:
            if fd is None:
                continue
            try:
                data = await asyncio.to_thread(_read, fd)
            except OSError as exc:
                dead.move_aside(path, f"unreadable: {exc}")
                continue
            rows, bad = _parse(data)
            for start in range(0, len(rows), batch):
                failed = await deadletter.store(sink, rows[start : start + batch], dead)
                if failed is not None:
                    outage.OUTAGES.warning(
                        "execution-log-replay",
                        "execution log replay failed; will retry",
                        file=path.name,
                        **deadletter.describe(failed),
                    )
                    return replayed
            if bad:
                dead.move_aside(path, f"{bad} unreadable lines")
            else:
                _remove(path)
            replayed += len(rows)
            log.info("execution log replayed", file=path.name, rows=len(rows), unreadable=bad)
    return replayed
