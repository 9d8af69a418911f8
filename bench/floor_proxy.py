"""The floor for Python on this machine: raw ASGI + one pooled aiohttp client.

Receives a POST, sends one authenticated GET upstream, returns the body as
JSON. No routing, validation, auth or logging: what any gateway must exceed.
"""

from __future__ import annotations

import os
from typing import Any

import aiohttp

UPSTREAM = os.environ["FLOOR_UPSTREAM"]
session: aiohttp.ClientSession | None = None


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    global session
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=256))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                assert session is not None
                await session.close()
                await send({"type": "lifespan.shutdown.complete"})
                return
    more = True
    while more:
        message = await receive()
        more = message.get("more_body", False)
    assert session is not None
    async with session.get(UPSTREAM + "/users/x", headers={"Authorization": "Bearer t"}) as resp:
        body = await resp.read()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": b'{"status":200,"data":' + body + b"}"})
