"""What /openapi.json says about the device routes, which read their bodies themselves
(JSON for `svc`, a form for a standard RFC 8628 client) and answer typed JSON."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from skillgate.device.rfc8628 import FORM, GRANT_TYPE
from skillgate.device.schemas import DeviceAuthorized, DevicePoll, DeviceStart
from skillgate.http.openapi import PUBLIC

_STRING: dict[str, Any] = {"type": "string"}
_NAME: dict[str, Any] = {"type": "string", "maxLength": 100}
_DEVICE_CODE: dict[str, Any] = {"type": "string", "pattern": "^[0-9a-fA-F]{40}$"}


def _schema(required: list[str], **properties: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def _body(required: bool, json: dict[str, Any], form: dict[str, Any]) -> dict[str, Any]:
    content = {"application/json": {"schema": json}, FORM: {"schema": form}}
    return {"requestBody": {"required": required, "content": content}, **PUBLIC}


def answer(model: type[BaseModel], description: str) -> dict[int | str, dict[str, Any]]:
    """`responses=` of a route whose 200 is `model` (sent with absent, never null, fields)."""
    return {200: {"model": model, "description": description}}


CODE_EXTRA = _body(
    False,
    _schema([], client_name=_NAME, client_id=_NAME),
    _schema([], client_id=_NAME, client_name=_NAME, scope=_STRING),
)
TOKEN_EXTRA = _body(
    True,
    _schema(
        ["device_code"],
        device_code=_DEVICE_CODE,
        grant_type={"type": "string", "enum": [GRANT_TYPE]},
        client_id=_NAME,
    ),
    _schema(
        ["grant_type", "device_code"],
        grant_type={"type": "string", "enum": [GRANT_TYPE]},
        device_code=_DEVICE_CODE,
        client_id=_NAME,
    ),
)
CODE_ANSWER = answer(DeviceStart, "The codes: show `user_code`, open `verification_uri`.")
TOKEN_ANSWER = answer(
    DevicePoll,
    "`svc` (JSON): pending or complete. A standard client (a form, or `grant_type`): "
    "complete only, with `access_token` and `token_type`; pending is a 400.",
)
AUTHORIZED = answer(DeviceAuthorized, "The code is approved.")
