"""The real app plus two constant routes: the baselines every ratio is measured against.

- `/bench/constant`: a FastAPI route, first in the route list (the issue's baseline:
  "the same app's constant-response route").
- `/bench/constant-raw`: raw ASGI inside the same `RequestContextMiddleware` as the
  API's hot routes (doors.agent), with no authentication: the stricter baseline,
  what a response costs before the route does any work.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from skillgate.app import create_app
from skillgate.http.middleware import RequestContextMiddleware

CONSTANT = b'{"ok":true}'
_HEADERS = [(b"content-type", b"application/json"), (b"content-length", b"11")]


async def _constant_raw(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": _HEADERS})
    await send({"type": "http.response.body", "body": CONSTANT})


class BenchApp:
    def __init__(self, app: FastAPI) -> None:
        self.app = app
        settings = app.state.gateway.settings
        self.raw = RequestContextMiddleware(
            _constant_raw, max_body=settings.max_request_bytes, metrics=app.state.gateway.metrics
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/bench/constant-raw":
            await self.raw(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def app_factory() -> BenchApp:
    app = create_app()

    @app.get("/bench/constant", include_in_schema=False)
    async def constant() -> Response:
        return Response(CONSTANT, media_type="application/json")

    # First in the route list, like the API's own routes: a baseline registered after
    # the dashboard's pages would pay for matching them all and flatter every ratio.
    app.router.routes.insert(0, app.router.routes.pop())
    return BenchApp(app)
