"""POST /auth/login: email + password -> a short-lived access token."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request

from skillgate.auth.schemas import LoginRequest, LoginResponse
from skillgate.auth.signin import SignIn
from skillgate.db.session import DB
from skillgate.http.body import JSONRoute
from skillgate.http.client_ip import client_ip
from skillgate.http.openapi import PUBLIC
from skillgate.http.provide import provided

router = APIRouter(prefix="/auth", tags=["auth"], route_class=JSONRoute)

SignIns = Annotated[SignIn, provided(SignIn)]


@router.post("/login", response_model=LoginResponse, openapi_extra=PUBLIC)
async def login(body: LoginRequest, request: Request, db: DB, sign_in: SignIns) -> LoginResponse:
    # 429 past the limits, before any password is checked
    issued = await sign_in.access_token(db, body.email, body.password, client_ip(request))
    return LoginResponse(access_token=issued.token, expires_in=issued.expires_in)
