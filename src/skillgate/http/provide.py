"""Routes receive the service they call, typed: `Keys = Annotated[ApiKeys, provided(ApiKeys)]`.

The composition root (`skillgate.gateway`) builds every service once and
registers it by its type on the app (`app.state.services`); a FastAPI route
declares the service it uses and gets that one instance. Nothing else is
reachable from a route: there is no bag of everything to reach into.
"""

from __future__ import annotations

from typing import Any, TypeVar

from fastapi import Depends, Request

T = TypeVar("T")
SERVICES = "services"  # the attribute on app.state


def services_of(request: Request) -> dict[type, Any]:
    found: dict[type, Any] = getattr(request.app.state, SERVICES)
    return found


def provided(kind: type[T]) -> Any:
    """A FastAPI dependency answering the app's one instance of `kind`."""

    # async on purpose: FastAPI runs a plain `def` dependency in a worker thread.
    async def get(request: Request) -> T:
        service: T = services_of(request)[kind]
        return service

    get.__name__ = f"provided_{kind.__name__}"
    return Depends(get)
