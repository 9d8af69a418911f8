"""A TCP forwarder the tests control, to take a backing service away and back.

`stop()` closes the listening socket and drops every live connection (new
connections are refused), `start()` listens again on the same port, `drop()`
drops the live connections but keeps listening (what a restart looks like to
a client's pool), `hang()` keeps accepting but forwards nothing in either
direction (a hung server). It runs its own asyncio loop in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Iterator


class TcpProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._hung = False
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port: int = s.getsockname()[1]

    def _call(self, coro: object) -> None:
        asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=10)  # type: ignore[arg-type]

    def open(self) -> TcpProxy:
        self._thread.start()
        self.start()
        return self

    def close(self) -> None:
        self.stop()
        self._call(self._cancel_tasks())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        self.loop.close()

    def start(self) -> None:
        self._hung = False
        self._call(self._listen())

    def stop(self) -> None:
        self._call(self._stop())

    def drop(self) -> None:
        self._call(self._drop())

    def hang(self) -> None:
        self._hung = True

    async def _listen(self) -> None:
        if self._server is None:
            self._server = await asyncio.start_server(
                self._handle, "127.0.0.1", self.port, reuse_address=True
            )

    async def _stop(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        await self._drop()

    async def _cancel_tasks(self) -> None:
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _drop(self) -> None:
        for writer in list(self._writers):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        self._writers.clear()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            if self._hung:
                await reader.read()  # accept, answer nothing, until the client leaves
                return
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            self._writers.discard(writer)
            return
        self._writers.add(up_writer)
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )
        for w in (writer, up_writer):
            self._writers.discard(w)
            w.transport.abort()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            while self._hung:  # hold the bytes: the far side sees silence
                await asyncio.sleep(0.05)
                if writer.transport.is_closing():
                    return
            writer.write(data)
            await writer.drain()
        writer.transport.abort()


@contextlib.contextmanager
def tcp_proxy(host: str, port: int) -> Iterator[TcpProxy]:
    proxy = TcpProxy(host, port).open()
    try:
        yield proxy
    finally:
        proxy.close()
