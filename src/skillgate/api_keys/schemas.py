from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from skillgate.api_keys.models import ApiKey
from skillgate.kit.text import Text


class CreateKeyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Text = Field(max_length=10_000)
    scopes: list[Text] | None = Field(default=None, max_length=1000)
    expires_at: datetime | None = None
    # Which calls need a confirmation token (docs/execution.md).
    confirm: Literal["destructive", "writes", "never"] = "destructive"


class ApiKeyOut(BaseModel):
    """A key as GET /api-keys lists it."""

    id: str
    name: str
    key_prefix: str
    scopes: list[str]
    confirm: str
    last_used_at: datetime | None
    expires_at: datetime | None
    revoked_at: datetime | None
    created_at: datetime

    @classmethod
    def of(cls, key: ApiKey) -> ApiKeyOut:
        return cls(
            id=key.id,
            name=key.name,
            key_prefix=key.key_prefix,
            scopes=list(key.scopes),
            confirm=key.confirm,
            last_used_at=key.last_used_at,
            expires_at=key.expires_at,
            revoked_at=key.revoked_at,
            created_at=key.created_at,
        )


class CreatedKey(BaseModel):
    id: str
    name: str
    key_prefix: str
    scopes: list[str]
    confirm: str
    expires_at: datetime | None
    created_at: datetime


class CreateKeyResponse(BaseModel):
    api_key: CreatedKey
    full_key: str

    @classmethod
    def of(cls, key: ApiKey, full_key: str) -> CreateKeyResponse:
        return cls(
            api_key=CreatedKey(
                id=key.id,
                name=key.name,
                key_prefix=key.key_prefix,
                scopes=list(key.scopes),
                confirm=key.confirm,
                expires_at=key.expires_at,
                created_at=key.created_at,
            ),
            full_key=full_key,
        )


class KeyPolicy(BaseModel):
    """GET/PUT /api-keys/{id}/policy: the key's policy document, null without one."""

    key_id: str
    policy: dict[str, Any] | None
