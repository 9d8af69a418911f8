"""The authorization server's HTTP routes, on the account door.

    GET  /.well-known/oauth-protected-resource[/mcp]   RFC 9728: `/mcp` and who issues its tokens
    GET  /.well-known/oauth-authorization-server       RFC 8414 (with CIMD and RFC 9207's `iss`)
    GET|POST /oauth/authorize    the SDK's handler: checks, then the dashboard's consent page
    POST /oauth/token            the SDK's handler: code + PKCE, refresh (rotating)
    POST /oauth/register         the SDK's handler (RFC 7591), rate-limited per address
    POST /oauth/revoke           the SDK's handler (RFC 7009): the grant ends

The documents are built per request: the issuer and the resource are this server's
public URLs (`kit.public`), which may depend on the request. The OAuth routes answer
OAuth's own error objects (RFC 6749 section 5.2), as OAuth clients expect.
"""

from __future__ import annotations

from mcp.server.auth.handlers.authorize import AuthorizationHandler
from mcp.server.auth.handlers.register import RegistrationHandler
from mcp.server.auth.handlers.token import TokenHandler
from mcp.server.auth.middleware.client_auth import AuthenticationError, ClientAuthenticator
from mcp.server.auth.routes import build_metadata, cors_middleware
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.shared.auth import ProtectedResourceMetadata
from pydantic import AnyHttpUrl
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from skillgate.http.client_ip import client_ip
from skillgate.kit.ratecount import Counter, Window, spend
from skillgate.mcpauth import tokens
from skillgate.mcpauth.provider import GatewayProvider

AUTHORIZE_PATH = "/oauth/authorize"
TOKEN_PATH = "/oauth/token"
REGISTER_PATH = "/oauth/register"
REVOKE_PATH = "/oauth/revoke"
PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource"
AUTHORIZATION_SERVER_PATH = "/.well-known/oauth-authorization-server"
REGISTRATIONS = Window("oauth:register", 20, 3600)  # per client address
_DOCS = "https://github.com/skillgate/skillgate/blob/main/docs/mcp.md"
_CACHE = {"Cache-Control": "public, max-age=300"}


def resource_metadata_url(base: str) -> str:
    """RFC 9728 section 3.1: the well-known path with `/mcp` after it."""
    return base + PROTECTED_RESOURCE_PATH + "/mcp"


def server_metadata(provider: GatewayProvider) -> dict[str, object]:
    issuer = provider.grants.issuer
    registration = ClientRegistrationOptions(enabled=True, valid_scopes=[tokens.SCOPE])
    meta = build_metadata(AnyHttpUrl(issuer), None, registration, RevocationOptions(enabled=True))
    meta.authorization_endpoint = AnyHttpUrl(issuer + AUTHORIZE_PATH)
    meta.token_endpoint = AnyHttpUrl(issuer + TOKEN_PATH)
    meta.registration_endpoint = AnyHttpUrl(issuer + REGISTER_PATH)
    meta.revocation_endpoint = AnyHttpUrl(issuer + REVOKE_PATH)
    methods = ["none", "client_secret_post", "client_secret_basic"]
    meta.token_endpoint_auth_methods_supported = methods
    meta.revocation_endpoint_auth_methods_supported = methods
    meta.client_id_metadata_document_supported = True
    meta.authorization_response_iss_parameter_supported = True
    document: dict[str, object] = meta.model_dump(mode="json", exclude_none=True)
    document["issuer"] = issuer  # exactly the `iss` the authorization response carries
    return document


class _Handlers:
    """The routes the gateway answers itself: the documents, the rate-limited
    registration and the revocation."""

    def __init__(self, provider: GatewayProvider, counter: Counter) -> None:
        self.provider = provider
        self.counter = counter
        self.authenticator = ClientAuthenticator(provider)
        # Any `scope` a client registers with is accepted (Claude registers its own
        # names): what a token may do is chosen on the consent page (docs/decisions.md).
        self.registration = RegistrationHandler(
            provider, ClientRegistrationOptions(enabled=True, default_scopes=[tokens.SCOPE])
        )

    async def protected_resource(self, request: Request) -> Response:
        grants = self.provider.grants
        meta = ProtectedResourceMetadata(
            resource=AnyHttpUrl(grants.resource),
            authorization_servers=[AnyHttpUrl(grants.issuer)],
            scopes_supported=[tokens.SCOPE],
            resource_name="Skill Gateway",
            resource_documentation=AnyHttpUrl(_DOCS),
        )
        document = meta.model_dump(mode="json", exclude_none=True)
        document["resource"] = grants.resource  # as the client compares it: no trailing slash
        document["authorization_servers"] = [grants.issuer]
        return JSONResponse(document, headers=_CACHE)

    async def authorization_server(self, request: Request) -> Response:
        return JSONResponse(server_metadata(self.provider), headers=_CACHE)

    async def register(self, request: Request) -> Response:
        spent = await spend(self.counter, [(REGISTRATIONS, client_ip(request) or "unknown")])
        if not spent.allowed:
            return JSONResponse(
                {
                    "error": "invalid_client_metadata",
                    "error_description": "Too many registrations from this address; retry in "
                    f"{spent.retry_after} s.",
                },
                status_code=429,
                headers={"Retry-After": str(spent.retry_after)},
            )
        return await self.registration.handle(request)

    async def revoke(self, request: Request) -> Response:
        """RFC 7009. Not the SDK's handler: it requires a `client_secret` field even of a
        public client, which has none to send."""
        provider = self.provider
        try:
            client = await self.authenticator.authenticate_request(request)
        except AuthenticationError as exc:
            return JSONResponse(
                {"error": "invalid_client", "error_description": exc.message}, status_code=401
            )
        value = (await request.form()).get("token")
        if not isinstance(value, str) or not value:
            return JSONResponse(
                {"error": "invalid_request", "error_description": "token: required"},
                status_code=400,
            )
        found = await provider.load_access_token(value) or await provider.load_refresh_token(
            client, value
        )
        if found is not None and found.client_id == client.client_id:
            await provider.revoke_token(found)
        return Response(status_code=200, headers={"Cache-Control": "no-store"})


def routes(provider: GatewayProvider, counter: Counter) -> list[BaseRoute]:
    own = _Handlers(provider, counter)
    token = TokenHandler(provider, own.authenticator)
    get = ["GET", "OPTIONS"]
    post = ["POST", "OPTIONS"]
    document = cors_middleware(own.protected_resource, get)
    return [
        Route(PROTECTED_RESOURCE_PATH, document, methods=get),
        Route(PROTECTED_RESOURCE_PATH + "/mcp", document, methods=get),
        Route(
            AUTHORIZATION_SERVER_PATH, cors_middleware(own.authorization_server, get), methods=get
        ),
        Route(AUTHORIZE_PATH, AuthorizationHandler(provider).handle, methods=["GET", "POST"]),
        Route(TOKEN_PATH, cors_middleware(token.handle, post), methods=post),
        Route(REGISTER_PATH, cors_middleware(own.register, post), methods=post),
        Route(REVOKE_PATH, cors_middleware(own.revoke, post), methods=post),
    ]
