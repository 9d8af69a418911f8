"""Device authorization routes. Every answer carries `Cache-Control: no-store`.

POST /auth/device/code       none                 start: device_code, user_code, ...
POST /auth/device/token      none                 poll: pending | slow_down | complete
POST /auth/device/authorize  access token/session approve a user code (the browser call)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from skillgate.auth.deps import TokenOrSession
from skillgate.db.session import DB
from skillgate.device.schemas import Answer, DeviceAuthorized
from skillgate.device.service import DeviceFlow
from skillgate.errors import BadRequest, SkillGateError
from skillgate.http.body import JSONRoute, loads
from skillgate.http.client import client_ip
from skillgate.http.handlers import describe_validation
from skillgate.http.provide import provided
from skillgate.kit.text import Text

router = APIRouter(prefix="/auth/device", tags=["device"], route_class=JSONRoute)
_CODE_BODY = 'Send no body, or {"client_name": "<up to 100 characters>"}.'
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}

Flow = Annotated[DeviceFlow, provided(DeviceFlow)]


class CodeBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    client_name: Text | None = Field(default=None, max_length=100)


class AuthorizeBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    user_code: Text = Field(max_length=64)
    create_api_key: bool = False


@contextlib.contextmanager
def _no_store() -> Iterator[None]:
    """Errors raised inside carry Cache-Control: no-store too."""
    try:
        yield
    except SkillGateError as exc:
        exc.headers = {**exc.headers, **NO_STORE}
        raise


def _json(answer: Answer) -> JSONResponse:
    return JSONResponse(answer.body(), headers=NO_STORE)


def _body(properties: dict[str, Any], required: bool) -> dict[str, Any]:
    """The JSON body a route reads itself, for /openapi.json."""
    schema = {"type": "object", "properties": properties}
    content = {"application/json": {"schema": schema}}
    return {"requestBody": {"required": required, "content": content}}


@router.post(
    "/code", openapi_extra=_body({"client_name": {"type": "string", "maxLength": 100}}, False)
)
async def device_code(request: Request, db: DB, flow: Flow) -> Response:
    with _no_store():
        body = await request.body()
        name = None
        if body.strip():
            try:
                name = CodeBody.model_validate(loads(body)).client_name
            except ValidationError as exc:
                errors = list(exc.errors())
                if not all(e.get("loc") for e in errors):
                    raise BadRequest(_CODE_BODY) from None
                raise BadRequest(describe_validation(errors)) from None
            except ValueError:
                raise BadRequest(_CODE_BODY) from None
        return _json(await flow.start(db, name, client_ip(request)))


@router.post("/token", openapi_extra=_body({"device_code": {"type": "string"}}, True))
async def device_token(request: Request, db: DB, flow: Flow) -> Response:
    with _no_store():
        try:
            body = await request.json()
        except ValueError:
            raise BadRequest('Send {"device_code": "<40 hex characters>"}.') from None
        code = body.get("device_code") if isinstance(body, dict) else None
        return _json(await flow.poll(db, code))


@router.post("/authorize")
async def device_authorize(
    body: AuthorizeBody, request: Request, principal: TokenOrSession, db: DB, flow: Flow
) -> Response:
    with _no_store():
        await flow.authorize(
            db,
            principal.user_id,
            body.user_code,
            client_ip(request),
            create_key=body.create_api_key,
        )
        return _json(DeviceAuthorized())
