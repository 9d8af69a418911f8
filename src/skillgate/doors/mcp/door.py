"""The MCP door's ASGI app: `/mcp`, MCP over Streamable HTTP (stateless, JSON answers).

Before the SDK sees a request the door refuses what is not MCP's to answer: an
`Origin` not on the allow-list (403 with a JSON-RPC error, as the MCP
specification asks against DNS rebinding; no `Origin` passes, `kit.origins`), a
method other than POST (405, `Allow: POST`: no SSE stream to open on a
stateless server), a missing or invalid API key (401 with `WWW-Authenticate`,
the agent door's error object), a body not sent as `application/json` (415), a
body over the limit (the request middleware's 413) and a JSON-RPC batch (which
MCP removed in 2025-06-18: a JSON-RPC error). The body read here is handed to
the SDK's `StreamableHTTPSessionManager` (stateless: every request stands
alone, so any instance answers any request) with the caller's `Principal` in
the scope, where the tool handlers find it (`ctx.request.scope`). The one thing
remembered of a client, what a 2025-11-25 client declared at `initialize` that the
door acts on (URL elicitation), travels signed in the session id it is given
(sessions.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import mcp_types as types
import orjson
from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_REQUEST
from starlette.types import Message, Receive, Scope, Send

from skillgate.api_keys.verifier import KeyVerifier
from skillgate.doors.mcp import connect, selection, sessions
from skillgate.doors.mcp.sessions import SessionIds
from skillgate.doors.mcp.tools import ToolAnswer, Tools
from skillgate.errors import MethodNotAllowed, SkillGateError, Unauthorized, UnsupportedMediaType
from skillgate.http.body import loads, read_body
from skillgate.http.errors import as_error, door_of, json_head, send_error
from skillgate.http.middleware import header, request_id
from skillgate.kit.origins import OriginPolicy
from skillgate.kit.principal import Principal, bearer_token
from skillgate.mcpauth.tokens import is_access_token
from skillgate.mcpauth.verifier import TokenVerifier

PATH = "/mcp"
PRINCIPAL_KEY = "skillgate.principal"
INSTRUCTIONS = (
    "Skill Gateway calls third-party APIs (GitHub, Slack, Google, ...) for the user; it holds "
    "their credentials. Find an endpoint with search_skills (or list_integrations), read its "
    "parameters with get_skill, then call it with run_skill (calls that change nothing) or "
    "run_skill_write (calls that change data). When a call answers "
    "integration_not_connected, give the user its action_url to connect the integration."
)
_BATCH = orjson.dumps(
    {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": INVALID_REQUEST,
            "message": "JSON-RPC batches are not supported (MCP removed them in 2025-06-18): "
            "send one JSON-RPC message per POST.",
        },
    }
)


_FOREIGN_ORIGIN = orjson.dumps(
    {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": INVALID_REQUEST,
            "message": "This Origin may not call /mcp (a browser page of another site); "
            "the operator lists the browser origins allowed in SKILLGATE_MCP_ALLOWED_ORIGINS.",
        },
    }
)
_JSON = b"application/json"
_NO_CREDENTIAL = (
    "Sign in: add this server in your MCP client (it signs in with OAuth), or send "
    "`Authorization: Bearer <API key>`."
)


@dataclass(frozen=True)
class OAuthSignIn:
    """What the door needs of the authorization server: its access tokens' verifier and
    where the protected resource metadata is (per request: the public URL may depend on
    it)."""

    verifier: TokenVerifier
    metadata_url: Callable[[], str]


def _is_json(content_type: bytes | None) -> bool:
    """`application/json`, with parameters or not (`; charset=utf-8`); not
    `application/json-seq` or any other type that merely starts the same."""
    return (content_type or b"").split(b";", 1)[0].strip().lower() == _JSON


_FAST_VERSIONS = frozenset({b"2025-06-18", b"2025-11-25"})
_REQUEST_KEYS = {"jsonrpc", "id", "method", "params"}
_CALL_KEYS = {"name", "arguments"}


def _replay(body: bytes, receive: Receive) -> Receive:
    """`receive` giving `body` once, then the original (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _plain_tool_call(scope: Scope, body: bytes) -> tuple[int | str, str, dict[str, Any]] | None:
    """(id, tool name, arguments) of a request the door answers without the SDK: a
    `tools/call` on a handshake revision (2025-06-18, 2025-11-25) with nothing but a name
    and arguments (no `_meta`: no progress to report), from a client that accepts JSON.
    The SDK's stateless transport costs ~400 us of CPU per message (a transport, streams
    and a task per request; bench/results/report.md): three times the call itself.
    Anything else, malformed or not, goes to the SDK, which answers it."""
    if header(scope, b"mcp-protocol-version") not in _FAST_VERSIONS:
        return None
    if b"application/json" not in (header(scope, b"accept") or b""):
        return None
    try:
        message = loads(body)
    except (ValueError, SkillGateError):
        return None
    if not isinstance(message, dict) or message.keys() != _REQUEST_KEYS:
        return None
    ident, params = message["id"], message["params"]
    if message["jsonrpc"] != "2.0" or message["method"] != "tools/call":
        return None
    if isinstance(ident, bool) or not isinstance(ident, int | str) or not isinstance(params, dict):
        return None
    name, args = params.get("name"), params.get("arguments", {})
    if not isinstance(name, str) or not isinstance(args, dict) or not params.keys() <= _CALL_KEYS:
        return None
    return ident, name, args


def _with_session(send: Send, session: str) -> Send:
    """`send` with `Mcp-Session-Id: session` on a successful answer (sessions.py)."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start" and message["status"] == 200:
            headers = [*message.get("headers", []), (sessions.HEADER, session.encode())]
            message = {**message, "headers": headers}
        await send(message)

    return sending


def _per_endpoint(scope: Scope) -> bool:
    """`/mcp?tools=endpoints`: one tool per endpoint besides the five (selection.py)."""
    return selection.of(scope).endpoints


class McpDoor:
    def __init__(
        self,
        verifier: KeyVerifier,
        tools: Tools,
        *,
        version: str,
        max_body: int,
        origins: OriginPolicy,
        sessions: SessionIds,
        signin: OAuthSignIn | None = None,
    ) -> None:
        self.verifier = verifier
        self.signin = signin
        self.sessions = sessions
        self.tools = tools
        self.origins = origins
        self.server: Server[Any] = Server(
            "skillgate",
            version=version,
            title="Skill Gateway",
            instructions=INSTRUCTIONS,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )
        # The SDK's OpenTelemetry middleware is a no-op without an exporter; it still
        # costs CPU on every message, and the gateway has its own metrics.
        self.server.middleware = []
        self.manager = StreamableHTTPSessionManager(
            self.server, json_response=True, stateless=True, max_request_body_size=max_body
        )

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The SDK's task group, for the app's lifespan. It lives in a task of its own:
        an anyio task group must be left by the task that entered it, and a lifespan
        may be entered and left by different tasks (the test harness does)."""
        started, stop = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            async with self.manager.run():
                started.set()
                await stop.wait()

        task = asyncio.create_task(hold(), name="mcp-session-manager")
        ready = asyncio.create_task(started.wait())
        await asyncio.wait((task, ready), return_when=asyncio.FIRST_COMPLETED)
        if task.done():  # it failed to start: say why
            ready.cancel()
            task.result()
        try:
            yield
        finally:
            stop.set()
            await task

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.origins.allows(header(scope, b"origin")):
            head = json_head(_FOREIGN_ORIGIN, None)
            await send({"type": "http.response.start", "status": 403, "headers": head})
            await send({"type": "http.response.body", "body": _FOREIGN_ORIGIN})
            return
        try:
            if scope["method"] != "POST":
                raise MethodNotAllowed(
                    f"{scope['method']} is not allowed on {PATH}: this MCP server is stateless "
                    "(no SSE stream); POST one JSON-RPC message.",
                    headers={"Allow": "POST"},
                )
            principal = await self._principal(header(scope, b"authorization"))
            if not _is_json(header(scope, b"content-type")):
                raise UnsupportedMediaType(
                    "Send one JSON-RPC message with `Content-Type: application/json` "
                    "(and `Accept: application/json, text/event-stream`)."
                )
            body = await read_body(receive)
        except Exception as exc:
            await send_error(send, as_error(exc, request_id(scope)), door_of(scope))
            return
        if body.lstrip()[:1] == b"[":
            head = json_head(_BATCH, None)
            await send({"type": "http.response.start", "status": 400, "headers": head})
            await send({"type": "http.response.body", "body": _BATCH})
            return
        call = _plain_tool_call(scope, body)
        if call is not None:
            await self._answer_call(scope, send, principal, *call)
            return
        scope[PRINCIPAL_KEY] = principal
        session = self.sessions.for_initialize(body, principal)
        if session is not None:
            send = _with_session(send, session)
        await self.manager.handle_request(scope, _replay(body, receive), send)

    def _ask_by_url(self, scope: Scope, principal: Principal, answer: ToolAnswer) -> None:
        """Raise the -32042 error carrying the connect link when `answer` is a
        not-connected refusal and this 2025-11-25 session declared URL elicitation."""
        if header(scope, b"mcp-protocol-version") != sessions.HANDSHAKE_URL_VERSION.encode():
            return
        asked = connect.url_required(answer) if answer.is_error else None
        if asked is None:
            return
        if sessions.URL_ELICITATION in self.sessions.flags(
            principal, header(scope, sessions.HEADER)
        ):
            raise asked

    async def _principal(self, raw: bytes | None) -> Principal:
        """The caller of an API key or of an OAuth access token. Nothing sent: 401 whose
        challenge points at the protected resource metadata (RFC 9728), where an OAuth
        client starts its sign-in; a credential sent and refused names no metadata."""
        authorization = raw.decode("latin-1") if raw is not None else None
        token = bearer_token(authorization)
        if token is None:
            challenge = 'Bearer realm="skillgate"'
            if self.signin is not None:
                challenge += f', resource_metadata="{self.signin.metadata_url()}"'
            raise Unauthorized(_NO_CREDENTIAL, headers={"WWW-Authenticate": challenge})
        if self.signin is not None and is_access_token(token):
            return await self.signin.verifier.principal_from_token(token)
        return await self.verifier.principal_from_key(authorization)

    async def _answer_call(
        self,
        scope: Scope,
        send: Send,
        principal: Principal,
        ident: int | str,
        name: str,
        args: dict[str, Any],
    ) -> None:
        """The fast path: a plain `tools/call` answered here, as the SDK would answer it."""
        head = b'{"jsonrpc":"2.0","id":' + orjson.dumps(ident)
        try:
            answer = await self.tools.call(
                principal, name, args, request_id(scope), _per_endpoint(scope)
            )
            self._ask_by_url(scope, principal, answer)
            body = head + b',"result":' + answer.wire() + b"}"
        except MCPError as exc:
            error = exc.error.model_dump(mode="json", exclude_none=True)
            body = head + b',"error":' + orjson.dumps(error) + b"}"
        await send({"type": "http.response.start", "status": 200, "headers": json_head(body, None)})
        await send({"type": "http.response.body", "body": body})

    async def _list_tools(
        self, ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        scope = ctx.request.scope
        return types.ListToolsResult(
            tools=self.tools.listing(scope[PRINCIPAL_KEY], selection.of(scope)),
            ttl_ms=selection.LIST_TTL_MS,
        )

    async def _call_tool(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        scope = ctx.request.scope
        answer = await self.tools.call(
            scope[PRINCIPAL_KEY],
            params.name,
            params.arguments or {},
            request_id(scope),
            _per_endpoint(scope),
        )
        asked = connect.input_required(answer, ctx, params)
        if asked is not None:
            return asked
        self._ask_by_url(scope, scope[PRINCIPAL_KEY], answer)
        # The JSON once where the revision carries structured content to the model.
        return answer.result(once=ctx.protocol_version >= connect.MODERN)
