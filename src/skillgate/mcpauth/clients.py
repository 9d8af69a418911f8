"""Who a client is: one registered here (RFC 7591), or one whose `client_id` is the
https URL of its client ID metadata document (MCP 2025-11-25, "Client ID Metadata
Documents").

A metadata document is fetched through the gateway's one outbound HTTP client
(`kit.outbound`): public addresses only (an IP literal and every resolved
address are checked), no redirects, at most `MAX_DOCUMENT_BYTES` within
`FETCH_SECONDS`; a valid document is cached for `CACHE_SECONDS`. The document
must name its own URL as `client_id`, list its redirect URIs and ask for no
client secret (`token_endpoint_auth_method` "none"). `SKILLGATE_OAUTH_CIMD_ALLOW_LOOPBACK`
(tests only, refused in production) also admits `http://127.0.0.1...`/`localhost` URLs.
"""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

import structlog
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.errors import SkillGateError
from skillgate.kit.cache import TTLCache
from skillgate.kit.outbound import Outbound, UpstreamRequest
from skillgate.kit.vault import Binding, Vault
from skillgate.mcpauth import tokens
from skillgate.mcpauth.models import OAuthClient
from skillgate.mcpauth.repository import OAuthRepository

log = structlog.get_logger(__name__)

MAX_DOCUMENT_BYTES = 16 * 1024
FETCH_SECONDS = 5.0
CACHE_SECONDS = 300.0
_LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
_BAD_SCHEMES = frozenset({"javascript", "data", "vbscript", "file", "about", "blob"})


class ClientRefused(ValueError):
    """Client metadata the gateway does not accept; the message says why."""


class Client(OAuthClientInformationFull):
    """A client as the SDK's handlers see it. The OAuth `scope` asked for is not what a
    grant may do (the user chooses that on the consent page): any is accepted and the
    token carries the one scope `mcp`."""

    def validate_scope(self, requested_scope: str | None) -> list[str] | None:
        return [tokens.SCOPE]


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in _LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_redirect_uris(uris: list[Any] | None) -> None:
    """Redirect URIs a client may register: https, http on a loopback host only (a native
    app's local callback), or an app's own scheme (`cursor://`, `vscode://`); never a
    scheme a browser runs or reads (`javascript:`, `data:`, `file:`) nor a fragment."""
    if not uris:
        raise ClientRefused("redirect_uris: list at least one redirect URI")
    for uri in uris:
        parts = urlsplit(str(uri))
        scheme = parts.scheme.lower()
        if scheme in _BAD_SCHEMES or parts.fragment:
            raise ClientRefused(f"redirect_uris: {str(uri)[:200]!r} is not allowed")
        if scheme == "http" and not is_loopback(parts.hostname or ""):
            raise ClientRefused(
                f"redirect_uris: {str(uri)[:200]!r}: http is allowed for loopback hosts only"
            )


def redirect_host(uri: str) -> str:
    """What the consent page shows of a redirect URI: its host, or its scheme for an app."""
    parts = urlsplit(uri)
    return parts.netloc or f"{parts.scheme}:"


def is_metadata_url(client_id: str, allow_loopback: bool) -> bool:
    if client_id.startswith("https://"):
        return True
    return allow_loopback and client_id.startswith("http://")


class Clients:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        vault: Vault,
        outbound: Outbound,
        *,
        allow_loopback: bool = False,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._vault = vault
        self._outbound = outbound
        self._allow_loopback = allow_loopback
        self._documents: TTLCache[str, Client] = TTLCache(CACHE_SECONDS, max_entries=10_000)

    async def get(self, client_id: str) -> Client | None:
        if is_metadata_url(client_id, self._allow_loopback):
            try:
                return await self._documents.get(client_id, lambda: self._fetch(client_id))
            except (ClientRefused, SkillGateError) as exc:
                log.warning("client metadata document refused", client_id=client_id[:200],
                            reason=str(exc)[:300])  # fmt: skip
                return None
        if len(client_id) > 64:
            return None
        async with self._sessionmaker() as session:
            row = await OAuthRepository(session).client(client_id)
        if row is None:
            return None
        secret = None
        if row.secret_sealed is not None:
            secret = self._vault.open(row.secret_sealed, _binding(row.client_id))["secret"]
        return Client.model_validate({**row.metadata_json, "client_secret": secret})

    async def register(self, info: OAuthClientInformationFull) -> None:
        check_redirect_uris(info.redirect_uris)
        data = info.model_dump(mode="json", exclude_none=True)
        secret = data.pop("client_secret", None)
        sealed = None
        if secret is not None:
            sealed = self._vault.seal({"secret": secret}, _binding(info.client_id or ""))
        row = OAuthClient(
            client_id=info.client_id,
            name=(info.client_name or "An unnamed client")[:200],
            metadata_json=data,
            secret_sealed=sealed,
        )
        async with self._sessionmaker() as session:
            await OAuthRepository(session).add(row)
            await session.commit()

    async def _fetch(self, url: str) -> Client:
        _check_document_url(url, self._allow_loopback)
        host = urlsplit(url).hostname or ""
        answer = await self._outbound.send(
            UpstreamRequest("GET", url, {"Accept": "application/json"}),
            connect_timeout=FETCH_SECONDS,
            total_timeout=FETCH_SECONDS,
            max_bytes=MAX_DOCUMENT_BYTES,
            service="The client's metadata document",
            private_network=self._allow_loopback and is_loopback(host),
        )
        if answer.status != 200 or not isinstance(answer.body, dict):
            raise ClientRefused(f"{url} answered {answer.status}, not a JSON object")
        return document_client(url, answer.body)


def _check_document_url(url: str, allow_loopback: bool) -> None:
    parts = urlsplit(url)
    if len(url) > 2000 or parts.username or parts.password or parts.fragment:
        raise ClientRefused("client_id: not a valid metadata document URL")
    if parts.path in ("", "/") or any(s in (".", "..") for s in parts.path.split("/")):
        raise ClientRefused("client_id: the metadata document URL needs a path")
    if parts.scheme != "https" and not (allow_loopback and is_loopback(parts.hostname or "")):
        raise ClientRefused("client_id: a metadata document URL must be https")


def document_client(url: str, document: dict[str, Any]) -> Client:
    """The client a metadata document describes, or ClientRefused saying why not."""
    if document.get("client_id") != url:
        raise ClientRefused("the document's client_id is not its own URL")
    if "client_secret" in document or "client_secret_expires_at" in document:
        raise ClientRefused("a metadata document may not carry a client secret")
    try:
        meta = OAuthClientMetadata.model_validate(
            {k: v for k, v in document.items() if k != "client_id"}
        )
    except ValidationError as exc:
        raise ClientRefused(f"the document is not valid client metadata: {exc}") from None
    if meta.token_endpoint_auth_method not in (None, "none"):
        raise ClientRefused("token_endpoint_auth_method: only 'none' is supported here")
    check_redirect_uris(meta.redirect_uris)
    data = meta.model_dump(mode="json", exclude_none=True)
    data.update(client_id=url, token_endpoint_auth_method="none")
    return Client.model_validate(data)


def _binding(client_id: str) -> Binding:
    return Binding(connection_id=client_id, user_id="", integration="oauth-client")
