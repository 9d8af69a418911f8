"""What a 2025-11-25 client declared at `initialize`, remembered by its `Mcp-Session-Id`.

The door is stateless: every POST stands alone and any instance answers it. On the
handshake revision 2025-11-25 a client declares its capabilities once, in
`initialize`; a later `tools/call` does not repeat them. To answer a not-connected
integration with URL-mode elicitation (`URLElicitationRequiredError`, -32042) the
door must know that this client declared `capabilities.elicitation.url`.

It is remembered in the session id itself: the `initialize` answer of a client that
declared URL elicitation carries `Mcp-Session-Id: sg1.<flags>.<nonce>.<mac>`, where
`<mac>` is an HMAC-SHA256 (a key derived from SKILLGATE_SECRET_KEY) over the flags,
the random nonce and the credential that initialized (the API key's or OAuth
grant's id). The client sends the id back on every request (Streamable HTTP
requires it once assigned); the door checks the MAC against the request's own
credential. So every instance sharing the secret key reads the same answer, with
no row written per `initialize` and nothing to purge (a JWT-like session id, as the
transport specification allows: "a securely generated UUID, a JWT, or a
cryptographic hash"). A forged, altered or other credential's id declares nothing:
that request gets the tool result with `action_url`, as a client without the
capability does. Clients that declare nothing the door acts on get no session id
at all (the server stays session-less for them).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

import orjson

from skillgate.kit.principal import Principal

HANDSHAKE_URL_VERSION = "2025-11-25"  # the one handshake revision with URL elicitation
HEADER = b"mcp-session-id"
URL_ELICITATION = "u"  # the flag: the client declared `elicitation.url`
_PREFIX = "sg1"
_MAX_LENGTH = 120


def _credential(principal: Principal) -> bytes:
    """The credential a session is bound to: the API key's or OAuth grant's id."""
    return (principal.key.key_id if principal.key is not None else principal.user_id).encode()


def _declares_url(message: Any) -> bool:
    """Whether an `initialize` request on 2025-11-25 declares URL-mode elicitation."""
    if not isinstance(message, dict) or message.get("method") != "initialize":
        return False
    params = message.get("params")
    if not isinstance(params, dict) or params.get("protocolVersion") != HANDSHAKE_URL_VERSION:
        return False
    capabilities = params.get("capabilities")
    elicitation = capabilities.get("elicitation") if isinstance(capabilities, dict) else None
    return isinstance(elicitation, dict) and isinstance(elicitation.get("url"), dict)


class SessionIds:
    """Session ids that carry, signed, what the client declared at `initialize`."""

    def __init__(self, secret_key: str) -> None:
        self._key = hmac.new(
            secret_key.encode(), b"skillgate/mcp-session/v1", hashlib.sha256
        ).digest()

    def _mac(self, principal: Principal, flags: str, nonce: str) -> str:
        signed = b"%s.%s.%s" % (flags.encode(), nonce.encode(), _credential(principal))
        return hmac.new(self._key, signed, hashlib.sha256).hexdigest()[:32]

    def for_initialize(self, body: bytes, principal: Principal) -> str | None:
        """A new session id for an `initialize` whose client declared URL elicitation on
        2025-11-25; None for any other message (no session)."""
        if b'"initialize"' not in body:
            return None
        try:
            message = orjson.loads(body)
        except orjson.JSONDecodeError:
            return None  # the SDK answers a malformed message
        if not _declares_url(message):
            return None
        flags, nonce = URL_ELICITATION, secrets.token_urlsafe(12)
        return f"{_PREFIX}.{flags}.{nonce}.{self._mac(principal, flags, nonce)}"

    def flags(self, principal: Principal, raw: bytes | None) -> str:
        """What the session `raw` (the request's Mcp-Session-Id) declared, checked against
        the request's credential; "" for none, a forged one, or another credential's."""
        if raw is None or len(raw) > _MAX_LENGTH:
            return ""
        parts = raw.decode("latin-1").split(".")
        if len(parts) != 4 or parts[0] != _PREFIX:
            return ""
        _, flags, nonce, mac = parts
        if not hmac.compare_digest(mac, self._mac(principal, flags, nonce)):
            return ""
        return flags
