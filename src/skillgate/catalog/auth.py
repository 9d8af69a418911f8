"""How an integration's user connects, and how their credential travels upstream.

An integration's `auth` offers one or more kinds:

    oauth2   the provider's sign-in; the access token in a header (`Bearer {token}`)
    token    a pasted token or API key: in a header (`format` applied), a query
             parameter or a cookie; optionally with a second pasted part, `key`
             (Trello: `?key=...&token=...`), in its own query parameter or header
    basic    HTTP Basic (RFC 7617): a username and a password or secret pasted
             when connecting (Twilio: Account SID + Auth Token), sent as
             `Authorization: Basic base64(username:password)`

`sent_credentials` turns a connection's stored parts into what goes on the wire
(`kit.upstream.Credential` items, placed last so no parameter replaces them).
"""

from __future__ import annotations

import base64
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from skillgate.kit.upstream import Credential

_WIRE_NAME = r"^[A-Za-z0-9_.-]{1,64}$"
AuthType = Literal["oauth2", "token", "basic"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


SCOPE_SET_RE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


class ScopeSet(_Frozen):
    """Scopes a connection adds only when the user asks for a call that needs them
    (incremental authorization): not requested at the first connect."""

    scopes: tuple[str, ...] = Field(min_length=1)
    # What granting it lets the agent do, shown where the user is asked to add it.
    description: str = Field(min_length=5)


class OAuth2Auth(_Frozen):
    authorize_url: str
    token_url: str
    # Requested when the user connects; an endpoint needing one of a `scope_sets`
    # entry's scopes is offered too, and asks the user to add that set when called.
    scopes: tuple[str, ...] = ()
    scope_sets: dict[str, ScopeSet] = Field(default_factory=dict)
    scope_separator: str = " "
    pkce: bool = True
    authorize_params: dict[str, str] = Field(default_factory=dict)
    token_auth_method: Literal["client_secret_post", "client_secret_basic"] = "client_secret_post"
    header: str = "Authorization"
    format: str = "Bearer {token}"
    help: str | None = None

    @field_validator("scope_sets")
    @classmethod
    def _set_names(cls, v: dict[str, ScopeSet]) -> dict[str, ScopeSet]:
        for name in v:
            if not SCOPE_SET_RE.match(name):
                raise ValueError(f"scope set name {name!r} must match {SCOPE_SET_RE.pattern}")
        return v

    def scope_set_for(self, needed: tuple[str, ...]) -> str | None:
        """The scope set to add for an endpoint allowed by any one of `needed`: None when
        the scopes requested at connect allow it (or it names none)."""
        if not needed or set(needed) & set(self.scopes):
            return None
        return next((n for n, s in self.scope_sets.items() if set(needed) & set(s.scopes)), None)


class KeyPart(_Frozen):
    """The first of a two-part credential (Trello's API key beside its token): pasted
    with the token, sent in its own query parameter or header."""

    label: str = "API key"
    help: str | None = None
    query: str | None = Field(default=None, pattern=_WIRE_NAME)
    header: str | None = Field(default=None, pattern=_WIRE_NAME)

    @model_validator(mode="after")
    def _one_place(self) -> KeyPart:
        if (self.query is None) == (self.header is None):
            raise ValueError("auth.token.key needs exactly one of `query` or `header`")
        return self


class TokenAuth(_Frozen):
    label: str = "API token"
    help: str = Field(min_length=5)
    header: str = "Authorization"
    format: str = "Bearer {token}"
    # Send the token as this query parameter instead of a header (APIs that take
    # `?api_key=`); `header` and `format` are then unused.
    query: str | None = Field(default=None, pattern=_WIRE_NAME)
    # Send the token as this cookie instead (OpenAPI `apiKey` `in: cookie`).
    cookie: str | None = Field(default=None, pattern=_WIRE_NAME)
    # A second part pasted with the token (Trello's `key`).
    key: KeyPart | None = None

    @field_validator("format")
    @classmethod
    def _has_token(cls, v: str) -> str:
        if "{token}" not in v:
            raise ValueError("format must contain {token}")
        return v

    @model_validator(mode="after")
    def _one_place(self) -> TokenAuth:
        if self.query is not None and self.cookie is not None:
            raise ValueError("auth.token: give `query` or `cookie`, not both")
        return self


class BasicAuth(_Frozen):
    """HTTP Basic: a username and a password (or secret) pasted when connecting."""

    username_label: str = "Username"
    password_label: str = "Password"
    help: str = Field(min_length=5)


class Auth(_Frozen):
    oauth2: OAuth2Auth | None = None
    token: TokenAuth | None = None
    basic: BasicAuth | None = None

    @model_validator(mode="after")
    def _one_method(self) -> Auth:
        if self.oauth2 is None and self.token is None and self.basic is None:
            raise ValueError("auth needs `oauth2`, `token`, `basic`, or several of them")
        return self

    def kind(self, auth_type: str) -> OAuth2Auth | TokenAuth | BasicAuth | None:
        """The auth a connection of `auth_type` uses (None: the catalog dropped it)."""
        found: OAuth2Auth | TokenAuth | BasicAuth | None = getattr(self, auth_type, None)
        return found

    @property
    def pasted(self) -> TokenAuth | BasicAuth | None:
        """What the connect form asks for when no OAuth is used: basic, else the token."""
        return self.basic or self.token


def basic_value(username: str, password: str) -> str:
    """`Basic base64(username:password)` (RFC 7617, UTF-8)."""
    raw = f"{username}:{password}".encode()
    return "Basic " + base64.b64encode(raw).decode("ascii")


def sent_credentials(
    auth: OAuth2Auth | TokenAuth | BasicAuth,
    token: str,
    username: str | None = None,
    key: str | None = None,
    *,
    redacted: str | None = None,
) -> tuple[Credential, ...]:
    """Where each credential part goes. `redacted`: that text in place of every part
    (a preview), a Basic header shown as `Basic <redacted>`."""
    if isinstance(auth, BasicAuth):
        value = f"Basic {redacted}" if redacted else basic_value(username or "", token)
        return (("header", "Authorization", value),)
    token = redacted or token
    sent: list[Credential] = []
    if isinstance(auth, TokenAuth) and auth.key is not None:
        part = redacted or key or ""
        if auth.key.query is not None:
            sent.append(("query", auth.key.query, part))
        else:
            sent.append(("header", auth.key.header or "", part))
    if isinstance(auth, TokenAuth) and auth.query is not None:
        sent.append(("query", auth.query, token))
    elif isinstance(auth, TokenAuth) and auth.cookie is not None:
        sent.append(("cookie", auth.cookie, token))
    else:
        sent.append(("header", auth.header, auth.format.replace("{token}", token)))
    return tuple(sent)


def credential(auth: OAuth2Auth | TokenAuth, token: str) -> Credential:
    """How `auth` sends a lone `token` (the last of its parts)."""
    return sent_credentials(auth, token)[-1]
