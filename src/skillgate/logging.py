"""structlog JSON logs. Nothing here ever receives a key, password or token:
the access log carries method, path (without query string), status and timing.

Every line is scrubbed on its way out all the same (`skillgate.kit.redact`):
a structlog processor after the traceback is formatted, and a filter on every
standard-library handler (uvicorn, SQLAlchemy, asyncpg and asyncio log there).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
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


def scrub_handlers() -> None:
    """Put the filter on every handler that exists now (root's and named loggers')."""
    loggers: list[logging.Logger] = [logging.getLogger()]
    loggers += [
        lg for lg in logging.Logger.manager.loggerDict.values() if isinstance(lg, logging.Logger)
    ]
    for logger in loggers:
        for handler in logger.handlers:
            if _FILTER not in handler.filters:
                handler.addFilter(_FILTER)


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
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=False,
    )
    logging.basicConfig(level=level.upper(), stream=sys.stderr, format="%(message)s")
    for noisy in ("uvicorn.access", "aiosqlite", "sqlalchemy.engine"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    scrub_handlers()
