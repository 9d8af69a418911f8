"""The connections API's JSON: request bodies and responses (never any credentials)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from skillgate.connections.models import Connection, ConnectRequest
from skillgate.kit.text import Text

# The integration's connection variables (catalog.hosts): `{"domain": "acme"}`.
Variables = dict[Text, Text]
_VARIABLES = Field(
    default=None,
    max_length=20,
    description="The integration's connection variables (GET /v1/skills/{integration} "
    'lists them), e.g. {"domain": "acme"} for acme.atlassian.net.',
)


class ConnectBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    integration: Text = Field(max_length=100)
    variables: Variables | None = _VARIABLES


class TokenBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # The token, API key, or HTTP Basic password / secret.
    token: Text = Field(max_length=10_000)
    # HTTP Basic's username (Twilio's Account SID), for an integration with `basic` auth.
    username: Text | None = Field(default=None, max_length=10_000)
    # The first part of a two-part credential (Trello's API key).
    key: Text | None = Field(default=None, max_length=10_000)
    variables: Variables | None = _VARIABLES


class ConnectionOut(BaseModel):
    """A stored connection as the API shows it."""

    integration: str
    status: str
    auth_type: str
    account: str | None
    scopes: list[str]
    # The connection variables the user gave (not secret): `{"domain": "acme"}`.
    variables: dict[str, str]
    token_expires_at: datetime | None
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, c: Connection) -> ConnectionOut:
        return cls(
            integration=c.integration,
            status=c.status,
            auth_type=c.auth_type,
            account=c.account,
            scopes=c.scopes,
            variables=dict(c.variables or {}),
            token_expires_at=c.token_expires_at,
            created_at=c.created_at,
            updated_at=c.updated_at,
        )


class ConnectionList(BaseModel):
    connections: list[ConnectionOut]


class ConnectStarted(BaseModel):
    """POST /v1/connect: where to send the user, and for how long the link works."""

    id: str
    integration: str
    connect_url: str
    expires_in: int


class ConnectRequestOut(BaseModel):
    """GET /v1/connect/{id}: pending | connected | failed | expired; `error` only when
    failed. Serialize with `exclude_none=True` (the key is absent otherwise)."""

    id: str
    integration: str
    status: str
    error: str | None = None

    @classmethod
    def of(cls, req: ConnectRequest, status: str) -> ConnectRequestOut:
        error = req.error if req.status == "failed" and req.error else None
        return cls(id=req.id, integration=req.integration, status=status, error=error)
