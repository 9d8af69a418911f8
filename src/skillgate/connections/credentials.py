"""Decrypted credentials of one connection: never logged, never returned by the API."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

REFRESH_MARGIN_SECONDS = 300  # refresh proactively when this close to expiry


@dataclass(frozen=True)
class Credentials:
    access_token: str = field(repr=False)
    refresh_token: str | None = field(default=None, repr=False)
    expires_at: float | None = None  # epoch seconds
    token_type: str = "bearer"
    # HTTP Basic's username (Twilio's Account SID), or the first part of a two-part
    # credential (Trello's API key); `access_token` is then the password or token.
    username: str | None = field(default=None, repr=False)
    key: str | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return f"Credentials(access_token=***, refresh={'yes' if self.refresh_token else 'no'})"

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Credentials:
        return cls(
            access_token=str(data["access_token"]),
            refresh_token=data.get("refresh_token"),
            expires_at=data.get("expires_at"),
            token_type=str(data.get("token_type", "bearer")),
            username=data.get("username"),
            key=data.get("key"),
        )

    def expires_soon(self, now: float | None = None) -> bool:
        if self.expires_at is None:
            return False
        return self.expires_at - (now if now is not None else time.time()) < REFRESH_MARGIN_SECONDS
