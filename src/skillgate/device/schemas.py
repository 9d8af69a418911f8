"""The JSON of the device flow's routes (sent with `exclude_none`: absent, never null)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel


class DeviceAnswer(BaseModel):
    """A device-flow answer: its JSON leaves out what is None."""

    def body(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class DeviceStart(DeviceAnswer):
    """POST /auth/device/code."""

    device_code: str
    user_code: str
    verification_uri: str
    verification_uri_complete: str
    expires_in: int
    interval: int


class DeviceUser(BaseModel):
    email: str
    display_name: str


class DevicePoll(DeviceAnswer):
    """POST /auth/device/token: pending (authorization_pending | slow_down) or complete."""

    status: Literal["pending", "complete"]
    error: Literal["authorization_pending", "slow_down"] | None = None
    interval: int | None = None  # slow_down: the new interval
    user: DeviceUser | None = None  # complete: who approved
    api_keys_url: str | None = None
    api_key: str | None = None  # complete, when the approval created a key: once
    access_token: str | None = None  # the same key, as RFC 6749 names it
    token_type: Literal["Bearer"] | None = None  # with access_token


class DeviceAuthorized(DeviceAnswer):
    """POST /auth/device/authorize."""

    status: Literal["authorized"] = "authorized"
