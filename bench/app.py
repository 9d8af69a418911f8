"""The real app plus a constant route: the baseline every ratio is measured against."""

from __future__ import annotations

from fastapi import FastAPI
from starlette.responses import Response

from skillgate.app import create_app

CONSTANT = b'{"ok":true}'


def app_factory() -> FastAPI:
    app = create_app()

    @app.get("/bench/constant", include_in_schema=False)
    async def constant() -> Response:
        return Response(CONSTANT, media_type="application/json")

    # First in the route list, like the API's own routes: a baseline registered after
    # the dashboard's pages would pay for matching them all and flatter every ratio.
    app.router.routes.insert(0, app.router.routes.pop())
    return app
