"""POST /auth/login: email + password -> a short-lived access token."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from skillgate.auth import throttle
from skillgate.db.session import DB
from skillgate.errors import Unauthorized
from skillgate.http.body import JSONRoute
from skillgate.http.client import client_ip
from skillgate.http.state import State
from skillgate.kit.text import Secret, Text
from skillgate.users.service import UserService

router = APIRouter(prefix="/auth", tags=["auth"], route_class=JSONRoute)


class LoginRequest(BaseModel):
    email: Text = Field(max_length=320)
    password: Secret = Field(max_length=1024)


class LoginResponse(BaseModel):
    access_token: str
    token_type: str = "bearer"
    expires_in: int


@router.post("/login", response_model=LoginResponse)
async def login(body: LoginRequest, request: Request, db: DB, state: State) -> LoginResponse:
    # 429 past the limits, before any password is checked
    await throttle.sign_in_attempt(state.limiter.counter, body.email, client_ip(request))

    user = await UserService(db).authenticate(body.email, body.password)

    if user is None:
        raise Unauthorized("Email or password is incorrect.")
    return LoginResponse(access_token=state.signer.issue(user.id), expires_in=state.signer.ttl)
