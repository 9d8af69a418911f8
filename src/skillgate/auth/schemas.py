"""The JSON of POST /auth/login."""

from __future__ import annotations

from pydantic import BaseModel, Field

from skillgate.kit.text import Secret, Text
from skillgate.users import passwords
from skillgate.users.models import EMAIL_MAX


class LoginRequest(BaseModel):
    email: Text = Field(max_length=EMAIL_MAX)
    password: Secret = Field(max_length=passwords.MAX_LENGTH)


class LoginResponse(BaseModel):
    access_token: str
    token_type: str = "bearer"
    expires_in: int
