"""The connections API's schema objects serialize to the documented JSON, also outside
FastAPI (how a raw-ASGI door answers with them)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import orjson

from skillgate.connections.models import Connection, ConnectRequest
from skillgate.connections.schemas import ConnectionOut, ConnectRequestOut

AT = datetime(2026, 1, 2, 3, 4, 5, 600000, tzinfo=UTC)


def _request(status: str, error: str | None) -> ConnectRequest:
    return ConnectRequest(
        id="cnr_1",
        user_id="usr_1",
        integration="sample",
        status=status,
        error=error,
        expires_at=AT + timedelta(minutes=10),
        created_at=AT,
    )


def test_connect_request_names_its_error_only_when_failed() -> None:
    failed = ConnectRequestOut.of(_request("failed", "access_denied"), "failed")
    assert orjson.loads(failed.model_dump_json(exclude_none=True)) == {
        "id": "cnr_1",
        "integration": "sample",
        "status": "failed",
        "error": "access_denied",
    }
    pending = ConnectRequestOut.of(_request("pending", "stale"), "expired")
    assert orjson.loads(pending.model_dump_json(exclude_none=True)) == {
        "id": "cnr_1",
        "integration": "sample",
        "status": "expired",
    }


def test_connection_shows_no_credentials() -> None:
    row = Connection(
        id="con_1",
        user_id="usr_1",
        integration="sample",
        auth_type="token",
        status="connected",
        credentials=b"sealed",
        scopes=["repo"],
        account=None,
        token_expires_at=None,
        created_at=AT,
        updated_at=AT,
    )
    assert ConnectionOut.of(row).model_dump_json() == (
        '{"integration":"sample","status":"connected","auth_type":"token","account":null,'
        '"scopes":["repo"],"variables":{},"token_expires_at":null,'
        '"created_at":"2026-01-02T03:04:05.600000Z",'
        '"updated_at":"2026-01-02T03:04:05.600000Z"}'
    )
