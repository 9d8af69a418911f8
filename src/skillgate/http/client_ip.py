"""Who is calling: the client address as uvicorn reports it (after trusted proxy headers)."""

from __future__ import annotations

from starlette.requests import Request


def client_ip(request: Request) -> str:
    return request.client.host if request.client else "unknown"
