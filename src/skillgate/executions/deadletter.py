"""Rows the database refuses are set aside, never retried in a loop, never lost.

A batch the database refuses for its content (PostgreSQL's SQLSTATE classes 22,
data exception, and 23, integrity constraint violation; SQLite's IntegrityError
and DataError; a value no encoding can carry) is split in halves until each
refused row stands alone (`store`): the other rows are stored and each refused
row is appended, as one spool line, to `<spool>/dead-letter/refused.jsonl`
(0600, one `write(2)` in append mode, shared by the processes of one data
directory). A spool file that cannot be read, or holds lines that are not rows,
is moved whole to `<spool>/dead-letter/` by the replay (`move_aside`). Both are
counted (`skillgate_execution_log_dead_letter_total`, metrics) and logged: one
line per kind of event and error per 10 s (`kit.outage.ThrottledLog`, which
counts what it held back in `suppressed`).

Any other failure (an outage, a missing table) is not the rows' fault: the
caller keeps them queued and spooled and retries.

To retry kept rows after repairing them, move the file back into the spool
directory under a name matching `executions-*.jsonl`: the next replay inserts
what the database now accepts and sets the rest aside again.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import orjson
import structlog

from skillgate.executions.sinks import Row, Sink
from skillgate.kit import outage
from skillgate.metrics import Metrics

log = structlog.get_logger(__name__)
DIRECTORY = "dead-letter"
ROWS_FILE = "refused.jsonl"
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC
_DATA_CLASSES = ("22", "23")  # SQLSTATE: data exception, integrity constraint violation


def _iso(value: object) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(type(value).__name__)


def encode(row: Sequence[object]) -> bytes:
    """A row as one spool line. orjson, and the standard library's escaping JSON for
    text orjson refuses (a lone surrogate), so that even such a row is kept."""
    try:
        return orjson.dumps(row) + b"\n"
    except orjson.JSONEncodeError:
        return json.dumps(row, default=_iso).encode() + b"\n"


def refused(exc: BaseException) -> bool:
    """The database (or its driver) refused the rows' content, not an outage."""
    for link in outage.chain(exc):
        state = getattr(link, "sqlstate", None)
        if isinstance(state, str) and state[:2] in _DATA_CLASSES:
            return True
        if isinstance(
            link, sqlite3.IntegrityError | sqlite3.DataError | orjson.JSONEncodeError | UnicodeError
        ):
            return True
    return False


def describe(exc: BaseException) -> dict[str, str]:
    """The log fields naming a failure: its class, SQLSTATE and first line (no values:
    the database hides parameters, and rows carry no secrets)."""
    links = list(outage.chain(exc))
    cause = links[-1]
    state = next((s for s in (getattr(x, "sqlstate", None) for x in links) if s), "")
    first = (str(cause).strip().splitlines() or [""])[0][:200]
    name = f"{type(cause).__module__}.{type(cause).__qualname__}"
    return {"error": name, "sqlstate": str(state), "detail": first}


class DeadLetter:
    def __init__(self, spool_dir: Path | None, metrics: Metrics | None = None) -> None:
        self.directory = spool_dir / DIRECTORY if spool_dir is not None else None
        self.metrics = metrics if metrics is not None else Metrics()
        self._unsaved: list[Row] = []  # refused rows the file could not take yet
        self._log = outage.ThrottledLog()  # a line per kind per 10 s, repeats counted

    @property
    def pending(self) -> bool:
        """Refused rows not yet in the file (its disk was full): keep the spool."""
        return bool(self._unsaved)

    def keep(self, row: Row, exc: BaseException) -> None:
        """Append a refused row to the file (or hold it until the file takes it)."""
        self.metrics.dead_letter("row")
        described = describe(exc)
        self._log.warning(
            f"refused:{described['error']}",
            "execution log row refused by the database; kept in the dead-letter file",
            id=row[0],
            file=str(self.directory / ROWS_FILE) if self.directory else None,
            **described,
        )
        self._unsaved.append(row)
        self.save()

    def save(self) -> None:
        """Write the held rows to the file; those it cannot take stay held."""
        if not self._unsaved:
            return
        if self.directory is None:  # no spool: the log line is all that is kept
            self._unsaved.clear()
            return
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(self.directory / ROWS_FILE, _FLAGS, 0o600)
        except OSError as exc:
            self._failed(exc)
            return
        try:
            while self._unsaved:
                line = encode(self._unsaved[0])
                if os.write(fd, line) != len(line):
                    raise OSError("short write")
                self._unsaved.pop(0)
        except OSError as exc:
            self._failed(exc)
        finally:
            os.close(fd)

    def move_aside(self, path: Path, reason: str) -> None:
        """Move a spool file that could not be read whole into the dead-letter directory."""
        self.metrics.dead_letter("file")
        assert self.directory is not None
        target = self.directory / path.name
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.rename(path, target)
        except OSError as exc:  # left in place: the next replay tries again
            self._failed(exc)
            return
        self._log.warning(
            "moved",
            "execution log spool file set aside in the dead-letter directory",
            file=str(target),
            reason=reason,
        )

    def _failed(self, exc: OSError) -> None:
        self._log.warning(
            "unavailable",
            "execution log dead-letter file unavailable; will retry",
            directory=str(self.directory),
            error=str(exc),
        )


async def store(sink: Sink, rows: list[Row], dead: DeadLetter) -> BaseException | None:
    """Insert `rows`, setting aside those the database refuses (halving the batch until
    each refused row is alone). None when done; the exception when the database is
    unavailable, so that the caller keeps every row for a retry (rows already stored
    meanwhile are ignored then: their ids are known)."""
    try:
        await sink.insert(rows)
    except Exception as exc:
        if not refused(exc):
            return exc
        if len(rows) == 1:
            dead.keep(rows[0], exc)
            return None
    else:
        return None
    half = len(rows) // 2
    failed = await store(sink, rows[:half], dead)
    return failed if failed is not None else await store(sink, rows[half:], dead)
