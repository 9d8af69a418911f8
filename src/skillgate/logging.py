"""structlog JSON logs. Nothing here ever receives a key, password or token:
the access log carries method, path (without query string), status and timing.

Every line is scrubbed on its way out all the same (`skillgate.kit.redact`):
a structlog processor after the traceback is formatted, and a filter on every
standard-library handler (uvicorn, SQLAlchemy, asyncpg and asyncio log there).

Each record, structlog's or the standard library's, leaves in one `write(2)` of
a complete line (`LineStream`): the workers of `skillgate serve --workers N`
share one stderr, and a line written in pieces (Python's text layer splits a
long one, `print` writes the newline apart) could be cut by another worker's.
One write to a file is never interleaved with another process's; on a pipe the
workers also take a lock around each write (see `LineStream`).
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import logging
import os
import stat
import sys
from collections.abc import MutableMapping
from select import PIPE_BUF
from typing import Any

import structlog

from skillgate.kit.redact import redact, redact_value


def redact_event(_: Any, __: str, event_dict: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """structlog processor: every string value of the event, traceback included."""
    for key, value in event_dict.items():
        event_dict[key] = redact_value(value)
    return event_dict


class RedactingFilter(logging.Filter):
    """Scrubs a standard-library record in place: its message, traceback and stack."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "_skillgate_redacted", False):
            return True
        if record.name == "uvicorn.access":  # its formatter reads the arguments
            record.args = redact_value(record.args)
        else:  # merged first: a pattern may span the message and an argument
            try:
                message = record.getMessage()
            except Exception:  # a bad format string: keep what is there, scrubbed
                message = f"{record.msg} {record.args}"
            record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        record._skillgate_redacted = True
        return True


_FILTER = RedactingFilter()


class LineStream:
    """A text stream for log records: each `write(text)` (a whole line) goes to stderr's
    file descriptor in one `os.write`, unbuffered (looping only on a partial write).
    Whatever stderr is at the time (a test's capture without a descriptor gets a plain
    `write`).

    On a pipe, the kernel keeps a write of up to PIPE_BUF bytes whole, but may let
    another process's write into a longer one (a traceback) while it waits for the
    reader. So on a pipe each process also takes a `flock` on a descriptor of its own
    for the pipe: shared for a short line (short lines never wait for each other),
    exclusive for a long one."""

    def __init__(self) -> None:
        self._fd = -1  # the stderr descriptor `_lock` is for
        self._lock = -1  # our own open file description of that pipe; -1: not a pipe
        os.register_at_fork(after_in_child=self._forget)  # a child opens its own

    def write(self, text: str) -> int:
        stream = sys.stderr
        try:
            fd = stream.fileno()
        except (AttributeError, ValueError, io.UnsupportedOperation):
            stream.write(text)
            return len(text)
        stream.flush()  # what was written to sys.stderr itself goes first
        data = text.encode("utf-8", "backslashreplace")
        lock = self._lock if fd == self._fd else self._open_lock(fd)
        try:
            if lock >= 0:
                fcntl.flock(lock, fcntl.LOCK_EX if len(data) > PIPE_BUF else fcntl.LOCK_SH)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        except OSError:  # stderr closed or full: a log line is not worth a failed request
            pass
        finally:
            if lock >= 0:
                fcntl.flock(lock, fcntl.LOCK_UN)
        return len(text)

    def flush(self) -> None:
        return None

    def _open_lock(self, fd: int) -> int:
        """A descriptor of our own for the pipe `fd` is, to lock (a descriptor shared with
        another process would share its flock too); -1 when `fd` is not a pipe."""
        if self._lock >= 0:
            os.close(self._lock)
        self._fd, self._lock = fd, -1
        with contextlib.suppress(OSError):
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                flags = os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC
                self._lock = os.open(f"/proc/self/fd/{fd}", flags)
        return self._lock

    def _forget(self) -> None:
        if self._lock >= 0:  # the parent's stays open (and its lock held) in the parent
            os.close(self._lock)
        self._fd = self._lock = -1


STDERR = LineStream()


def scrub_handlers() -> None:
    """Put the filter on every handler that exists now (root's and named loggers'), and
    send those writing to stderr (uvicorn's) through `STDERR`: one write a record."""
    loggers: list[logging.Logger] = [logging.getLogger()]
    loggers += [
        lg for lg in logging.Logger.manager.loggerDict.values() if isinstance(lg, logging.Logger)
    ]
    for logger in loggers:
        for handler in logger.handlers:
            if _FILTER not in handler.filters:
                handler.addFilter(_FILTER)
            if isinstance(handler, logging.StreamHandler) and handler.stream in (
                sys.stderr,
                sys.__stderr__,
            ):
                handler.setStream(STDERR)


def configure(level: str = "INFO", fmt: str = "json") -> None:
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            redact_event,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
        ),
        logger_factory=structlog.WriteLoggerFactory(STDERR),  # type: ignore[arg-type]
        cache_logger_on_first_use=False,
    )
    logging.basicConfig(level=level.upper(), stream=STDERR, format="%(message)s")
    for noisy in ("uvicorn.access", "aiosqlite", "sqlalchemy.engine"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    scrub_handlers()
