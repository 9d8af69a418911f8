"""Exit codes and the one error type every command raises.

    CliError            -> one line on stderr, exit `code`
     |- usage / input   -> ExitCode.FAILURE (1): the caller must change something
     |- refused         -> ExitCode.FAILURE (1): invalid key, unknown integration, 4xx
     `- unavailable     -> ExitCode.UNAVAILABLE (2): network, timeout, 5xx; retry later

The spec's table: 0 success, 1 client-side problem, 2 network or server
problem; 130 when interrupted (Ctrl-C), as shells do.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    FAILURE = 1
    UNAVAILABLE = 2
    INTERRUPTED = 130


class CliError(Exception):
    """A failure the user or agent can act on; `message` says what to do next."""

    def __init__(self, message: str, code: ExitCode = ExitCode.FAILURE, error: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        # A snake_case name for JSON output (`svc run` prints one on every failure).
        self.error = error or ("unavailable" if code == ExitCode.UNAVAILABLE else "failed")


LOGIN_HINT = "run `svc login`"


def one_line(text: str) -> str:
    """Collapse whitespace so a message is always exactly one line."""
    return " ".join(text.split())
