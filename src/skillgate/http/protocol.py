"""The HTTP/1.1 protocol `skillgate serve` gives uvicorn: httptools with a deadline
for the request head.

uvicorn closes idle keep-alive connections but waits forever for a request
line and headers that never finish (one stalled socket per connection slot).
Here a timer starts when a connection opens and when a new request begins,
and closes the connection if the headers are not complete within
`SKILLGATE_HEADER_TIMEOUT` seconds. The body has its own limit, enforced with
a 408 by `RequestContextMiddleware` (`SKILLGATE_BODY_TIMEOUT`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from skillgate.settings import get_settings


class TimedHttpToolsProtocol(HttpToolsProtocol):
    header_timeout: float | None = None  # read from the settings at the first connection

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if TimedHttpToolsProtocol.header_timeout is None:
            TimedHttpToolsProtocol.header_timeout = get_settings().header_timeout
        self._head_timer: asyncio.TimerHandle | None = None

    def _arm_head_timer(self) -> None:
        if self._head_timer is None and self.header_timeout is not None:
            self._head_timer = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def _disarm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_timer()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm_head_timer()

    def on_headers_complete(self) -> None:
        self._disarm_head_timer()
        super().on_headers_complete()
