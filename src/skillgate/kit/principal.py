"""Who is calling: the one identity every door hands to the core.

A door (the agent API, the MCP door, the account API and dashboard) turns its
credential into a `Principal` (`api_keys.verifier.KeyVerifier.principal_from_key`
for an API key; `auth.deps.Authenticator` for access tokens and dashboard
sessions); services take the principal and never look at headers or cookies.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from skillgate.errors import CredentialRefused, Unauthorized

Via = Literal["api_key", "access_token", "session", "oauth"]

# An OAuth grant's id starts `grt_` (mcpauth.models.OAuthGrant), an API key's `key_`:
# a connected app calls with its grant as its key, and the execution log and held
# approvals record either id in one `key_id` column.
GRANT_ID_PREFIX = "grt"


def is_grant_id(credential_id: str) -> bool:
    """Whether a credential id (a caller's key, or a stored row's `key_id`) is a
    connected app's OAuth grant rather than an API key."""
    return credential_id.startswith(f"{GRANT_ID_PREFIX}_")


@dataclass(frozen=True, slots=True)
class KeyIdentity:
    """A verified API key and its owner, as cached by the key verifier."""

    key_id: str
    name: str
    key_prefix: str
    scopes: tuple[str, ...]
    expires_at: datetime | None
    revoked: bool
    user_id: str
    email: str
    display_name: str
    plan: str
    confirm: str = "destructive"  # which calls need a confirmation token (api_keys.confirm)
    # The key's compiled policy (an `api_keys.policy.Policy`: kit cannot name the
    # feature), None without one.
    policy: Any = None


@dataclass(frozen=True, slots=True)
class Principal:
    user_id: str
    email: str
    display_name: str
    plan: str
    via: Via
    key: KeyIdentity | None = None
    session_id: str | None = None  # the dashboard session, when via == "session"
    # Which calls need a confirmation token: the key's policy; sessions and access
    # tokens confirm destructive calls. A field, not a property: read on every call.
    confirm: str = "destructive"
    # The key's compiled policy (`api_keys.policy.Policy`), None without one: read on
    # every call, so a field too. Sessions and access tokens have none.
    policy: Any = None

    @property
    def scopes(self) -> tuple[str, ...]:
        """The API key's scopes; sessions and access tokens act as the whole account."""
        return self.key.scopes if self.key is not None else ("*",)

    @property
    def connected_app(self) -> bool:
        """Whether the caller is a connected app (an OAuth grant held as a key), not an
        API key nor the person: the one answer for messages, steps and budgets."""
        return self.via == "oauth"

    @property
    def budget(self) -> str:
        """Whose plan rate limit a call spends: the API key's own; one shared by all of
        the user's OAuth apps (they do not count toward the plan's key limit, so they may
        not multiply its budget); the user's for sessions and access tokens."""
        if self.connected_app:
            return f"oauth:{self.user_id}"
        return self.key.key_id if self.key is not None else self.user_id

    @classmethod
    def of_key(cls, ident: KeyIdentity) -> Principal:
        """The caller of an API key, or of an OAuth grant held as one (`via="oauth"`:
        told by the id, so a principal and a stored row of its calls agree)."""
        return cls(
            ident.user_id,
            ident.email,
            ident.display_name,
            ident.plan,
            "oauth" if is_grant_id(ident.key_id) else "api_key",
            ident,
            confirm=ident.confirm,
            policy=ident.policy,
        )


def bearer_token(header: str | None) -> str | None:
    """The credential of an `Authorization: Bearer` header; None when there is no header."""
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        raise Unauthorized("Use `Authorization: Bearer <API key>`.")
    token = token.strip()
    if not token or " " in token:
        raise CredentialRefused("The Bearer credential is empty or malformed.")
    return token
