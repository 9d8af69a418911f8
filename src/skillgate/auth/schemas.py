"""The JSON of POST /auth/login."""

from __future__ import annotations

from pydantic import BaseModel, Field

from skillgate.kit.text import Secret, Text


class LoginRequest(BaseModel):
    email: Text = Field(max_length=320)
    password: Secret = Field(max_length=1024)


class LoginResponse(BaseModel):
    access_token: str
    token_type: str = "bearer"
    expires_in: int
