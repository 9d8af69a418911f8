"""Device authorization routes. Every answer carries `Cache-Control: no-store`.

POST /auth/device/code       none                 start: device_code, user_code, ...
POST /auth/device/token      none                 poll: pending | slow_down | complete
POST /auth/device/authorize  access token/session approve a user code (the browser call)

`svc` sends JSON; a standard RFC 8628 client sends a form and is answered as the
RFC says (`device.rfc8628`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.auth.deps import TokenOrSession
from skillgate.db.session import DB
from skillgate.device import rfc8628
from skillgate.device.openapi import AUTHORIZED, CODE_ANSWER, CODE_EXTRA, TOKEN_ANSWER, TOKEN_EXTRA
from skillgate.device.schemas import DeviceAnswer, DeviceAuthorized
from skillgate.device.service import DeviceFlow
from skillgate.errors import BadRequest, SkillGateError
from skillgate.http.body import JSONRoute, loads
from skillgate.http.client_ip import client_ip
from skillgate.http.handlers import describe_validation, error_response
from skillgate.http.provide import provided
from skillgate.kit.text import Text

router = APIRouter(prefix="/auth/device", tags=["device"], route_class=JSONRoute)
_CODE_BODY = 'Send no body, or {"client_name": "<up to 100 characters>"}.'
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}

Flow = Annotated[DeviceFlow, provided(DeviceFlow)]


class CodeBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    client_name: Text | None = Field(default=None, max_length=100)
    client_id: Text | None = Field(default=None, max_length=100)  # an RFC 8628 client's


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


def _json(answer: DeviceAnswer) -> JSONResponse:
    return JSONResponse(answer.body(), headers=NO_STORE)


@router.post("/code", openapi_extra=CODE_EXTRA, responses=CODE_ANSWER)
async def device_code(request: Request, db: DB, flow: Flow) -> Response:
    with _no_store():
        if rfc8628.is_form(request):
            fields = await rfc8628.form_fields(request)
            name = _client_name(fields.get("client_name") or fields.get("client_id"))
        else:
            name = _json_client_name(await request.body())
        return _json(await flow.start(db, name, client_ip(request)))


def _client_name(value: object) -> str | None:
    try:
        return CodeBody.model_validate({"client_name": value}).client_name
    except ValidationError as exc:
        raise BadRequest(describe_validation(list(exc.errors()))) from None


def _json_client_name(body: bytes) -> str | None:
    """`client_name` (or an RFC client's `client_id`) of a JSON body, which may be empty."""
    if not body.strip():
        return None
    try:
        data = CodeBody.model_validate(loads(body))
    except ValidationError as exc:
        errors = list(exc.errors())
        if not all(e.get("loc") for e in errors):
            raise BadRequest(_CODE_BODY) from None
        raise BadRequest(describe_validation(errors)) from None
    except ValueError:
        raise BadRequest(_CODE_BODY) from None
    return data.client_name or data.client_id


@router.post("/token", openapi_extra=TOKEN_EXTRA, responses=TOKEN_ANSWER)
async def device_token(request: Request, db: DB, flow: Flow) -> Response:
    with _no_store():
        form = rfc8628.is_form(request)
        if form:
            fields: Any = await rfc8628.form_fields(request)
        else:
            try:
                fields = await request.json()
            except ValueError:
                raise BadRequest('Send {"device_code": "<40 hex characters>"}.') from None
        if form or (isinstance(fields, dict) and "grant_type" in fields):
            return await _standard_poll(db, flow, fields)
        code = fields.get("device_code") if isinstance(fields, dict) else None
        return _json(await flow.poll(db, code))  # svc: the spec's answers


async def _standard_poll(db: AsyncSession, flow: DeviceFlow, fields: dict[str, Any]) -> Response:
    """A standard client's poll (`device.rfc8628`): every refusal a 400 with the RFC's code."""
    try:
        rfc8628.check_grant(fields)
        poll = await flow.poll(db, fields.get("device_code"))
    except SkillGateError as exc:
        raise rfc8628.as_oauth_error(exc) from None
    answer = rfc8628.token_answer(poll)
    if isinstance(answer, SkillGateError):
        answer.headers = {**answer.headers, **NO_STORE}
        return error_response(answer)
    return JSONResponse(answer, headers=NO_STORE)


@router.post("/authorize", responses=AUTHORIZED)
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
