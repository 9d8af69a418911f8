"""The MCP tools' handlers: arguments checked, the shared services called, answers rendered.

Every tool calls what the agent HTTP API calls (`Discovery`, `Executor.run`),
with the `Principal` the door verified, so scopes, rate limits, credentials and
the execution log are the same. A result carries the JSON the HTTP API answers
twice: as `structuredContent` and as one text block (for clients that only read
text), but search_skills, whose text block is the same answer as compact lines, one
per result (discovery.answer.SearchAnswer.text: ten candidates in about the tokens
three took as JSON). A call the gateway refuses (not connected, out of scope, bad params, rate
limited, unknown endpoint) is a result with `isError: true` carrying the HTTP
API's error object, and so is a control character in the tool's name or in any
text argument of the four generic tools (400 `bad_request` naming the argument:
`kit.text`, the HTTP door's check); an endpoint tool's arguments are the
endpoint's parameters, checked by the executor as the HTTP API's `params` are.
Other malformed arguments and unknown tools are JSON-RPC errors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import mcp_types as types
import orjson
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, INVALID_REQUEST

from skillgate.catalog.models import NAME_MAX, SLUG_MAX
from skillgate.discovery import arguments
from skillgate.discovery.arguments import SearchArgs
from skillgate.discovery.service import Discovery
from skillgate.doors.mcp import conform, schemas
from skillgate.doors.mcp.selection import Selection
from skillgate.errors import (
    BadRequest,
    ConfirmationRequired,
    NotFound,
    RateLimited,
    SkillGateError,
)
from skillgate.executor import capped, options
from skillgate.executor.service import Executor
from skillgate.http.errors import as_error
from skillgate.kit import text
from skillgate.kit.principal import Principal

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class ToolAnswer:
    """A tool's answer: the HTTP API's JSON bytes, whether the call failed, and the text
    block when it is not the JSON itself (search_skills' compact lines)."""

    body: bytes
    is_error: bool = False
    text: str | None = None

    def said(self, once: bool) -> str:
        """The text block: the compact text when there is one; else the JSON itself, or,
        `once` (a client that reads structured content), a short line pointing at it."""
        if self.text is not None:
            return self.text
        if not once:
            return self.body.decode()
        return summary(self.body, self.is_error)

    def result(self, once: bool = False) -> types.CallToolResult:
        """As the SDK's result: the JSON as structured content, and the text block."""
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=self.said(once))],
            structured_content=orjson.loads(self.body),
            is_error=self.is_error,
        )

    def wire(self, once: bool = False) -> bytes:
        """The same result's JSON (`CallToolResult` on the wire), without parsing the body:
        the door's fast path (door.py) answers with it."""
        return (
            b'{"content":[{"type":"text","text":'
            + orjson.dumps(self.said(once))
            + b'}],"structuredContent":'
            + self.body
            + (b',"isError":true}' if self.is_error else b',"isError":false}')
        )


def summary(body: bytes, is_error: bool) -> str:
    """One line for a client that reads `structuredContent`: the JSON is not repeated."""
    head = orjson.loads(body)
    if is_error and isinstance(head, dict) and isinstance(head.get("message"), str):
        return f"{head.get('error', 'error')}: {head['message']}"
    status = f"status {head['status']}, " if isinstance(head, dict) and "status" in head else ""
    cut = ", truncated" if isinstance(head, dict) and head.get("truncated") else ""
    return f"The answer is in structuredContent ({status}{len(body)} bytes of JSON{cut})."


def refusal(exc: BaseException, request_id: str) -> ToolAnswer:
    """The HTTP API's error object as a tool error. MCP has no headers: a rate limit's
    Retry-After goes in the object as `retry_after`."""
    error = as_error(exc, request_id)
    body = error.body("mcp")
    if isinstance(error, RateLimited):
        body["retry_after"] = error.retry_after
    return ToolAnswer(orjson.dumps(body), is_error=True)


def _invalid(message: str) -> MCPError:
    return MCPError(INVALID_PARAMS, message)


def _length(name: str, low: int, high: int) -> MCPError:
    return _invalid(f"{name}: String should have {low} to {high} characters.")


def _string(args: Mapping[str, Any], name: str, required: bool) -> str | None:
    value = args.get(name)
    if value is None:
        if required:
            raise _invalid(f"{name}: Field required.")
        return None
    if not isinstance(value, str):
        raise _invalid(f"{name}: Input should be a string.")
    return value


def _text(args: Mapping[str, Any], name: str, max_length: int) -> str:
    value = _string(args, name, required=True)
    assert value is not None
    if not 1 <= len(value) <= max_length:
        raise _length(name, 1, max_length)
    return value


def _within(check: Callable[[V], V], value: V) -> V:
    """`value` through its check (discovery.arguments); out of its bounds is a JSON-RPC
    error here, as a malformed argument is."""
    try:
        return check(value)
    except arguments.OutOfBounds as exc:
        if isinstance(value, str):
            raise _length(exc.field, exc.low, exc.high) from None
        raise _invalid(f"{exc.field}: Input should be between {exc.low} and {exc.high}.") from None


def _search_args(args: Mapping[str, Any]) -> SearchArgs:
    """search_skills' arguments: their JSON types checked here, their values by the
    search's own check; a blank query is its BadRequest (a tool error)."""
    query = _string(args, "query", required=True)
    assert query is not None
    found = _within(arguments.query, query)
    slug = _within(arguments.integration, _string(args, "integration", required=False))
    limit = args.get("limit", arguments.DEFAULT_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool):
        raise _invalid("limit: Input should be an integer.")
    return SearchArgs(found, slug, _within(arguments.limit, limit))


def _only(args: Mapping[str, Any], allowed: frozenset[str]) -> None:
    unknown = sorted(set(args) - allowed)
    if unknown:
        raise _invalid(f"Unknown argument {unknown[0]!r}; expected {sorted(allowed)}.")


_SEARCH_ARGS = frozenset({"query", "integration", "limit"})
_SKILL_ARGS = frozenset({"integration", "endpoint"})
_OPTION_ARGS = frozenset(schemas.OPTION_PROPERTIES)
_RUN_ARGS = frozenset({"integration", "endpoint", "params", *_OPTION_ARGS})
_READ_RUN_ARGS = frozenset({"integration", "endpoint", "params", *schemas.READ_OPTION_PROPERTIES})
_WRITE_ELSEWHERE = (
    "endpoint: {endpoint!r} changes data, and run_skill runs only calls that change "
    "nothing: call it with run_skill_write (same arguments)."
)
# The output budget of one MCP answer when the call sets no max_bytes: clients cap a
# tool result (Claude Code at 25,000 tokens by default); 64 KiB of JSON is about
# 16,000 to 22,000 tokens. The envelope is cut as SKILLGATE_MAX_ANSWER_BYTES cuts it.
ANSWER_BUDGET = 65_536


class Tools:
    """The tool table one MCP door serves, for any caller."""

    def __init__(self, discovery: Discovery, executor: Executor) -> None:
        self.discovery = discovery
        self.executor = executor
        self._endpoint_tools: dict[tuple[tuple[str, ...], Selection], list[types.Tool] | int] = {}
        self._rendered_for: object = None  # the catalog the memo was built from

    def listing(self, principal: Principal, chosen: Selection) -> list[types.Tool]:
        """The generic tools (run_skill_write only for a key that may change something),
        and the endpoint tools `chosen` asks for."""
        visible = self.discovery.rendered.visible(principal.scopes)
        writes = any(access == "full" for _, access in visible)
        tools = list(schemas.GENERIC_TOOLS if writes else schemas.READ_TOOLS)
        if chosen.endpoints:
            tools.extend(self._per_endpoint(principal.scopes, chosen))
        return tools

    def _per_endpoint(self, scopes: tuple[str, ...], chosen: Selection) -> list[types.Tool]:
        """One tool per endpoint the key may call and `chosen` selects, at most
        MAX_ENDPOINT_TOOLS (memoised per scopes and selection)."""
        rendered = self.discovery.rendered
        if self._rendered_for is not rendered.by_slug:  # a catalog reload swapped it
            self._endpoint_tools = {}
            self._rendered_for = rendered.by_slug
        memo = (scopes, chosen)
        found = self._endpoint_tools.get(memo)
        if found is None:
            slugs, categories = chosen.integrations, chosen.categories
            pairs = [
                (rendered.by_slug[slug].integration, e)
                for slug, access in rendered.visible(scopes)
                if slugs is None or slug in slugs
                for e in rendered.by_slug[slug].visible[access]
                if categories is None or e.category in categories
            ]
            if len(pairs) > schemas.MAX_ENDPOINT_TOOLS:
                found = len(pairs)
            else:
                found = [schemas.endpoint_tool(i, e) for i, e in pairs]
            if len(self._endpoint_tools) < 1_000:
                self._endpoint_tools[memo] = found
        if isinstance(found, int):
            narrowed = "these filters select" if chosen.filtered else "this API key may call"
            raise MCPError(
                INVALID_REQUEST,
                f"?tools=endpoints serves at most {schemas.MAX_ENDPOINT_TOOLS} endpoint tools and "
                f"{narrowed} {found} endpoints: add &integration=<slug> or &category=<name> "
                "(comma-separated; search_skills and get_skill show an endpoint's category), "
                "use a key scoped to fewer integrations (or slug:read), or drop "
                "?tools=endpoints and use search_skills and run_skill.",
            )
        return found

    async def call(
        self,
        principal: Principal,
        name: str,
        args: Mapping[str, Any],
        request_id: str,
        per_endpoint: bool = False,
    ) -> ToolAnswer:
        """Run tool `name` (`<integration>__<endpoint>` ones only when `per_endpoint`).
        MCPError (a JSON-RPC error) for an unknown tool or malformed arguments; a tool
        error result for anything the gateway refuses."""
        try:  # control characters, as on the HTTP door: a 400 naming the argument
            text.check("name", name)
            if name in schemas.GENERIC_NAMES:  # an endpoint tool's are its `params`
                text.check_all(args)
        except BadRequest as exc:
            return refusal(exc, request_id)
        if name == schemas.LIST_INTEGRATIONS:
            _only(args, frozenset())
            run = self.discovery.listing(principal)
        elif name == schemas.SEARCH_SKILLS:
            _only(args, _SEARCH_ARGS)
            try:
                found = _search_args(args)
            except BadRequest as exc:
                return refusal(exc, request_id)
            try:  # the JSON as structured content, compact lines as the text block
                body, lines = await self.discovery.search_both(principal, found)
            except Exception as exc:
                return refusal(exc, request_id)
            return ToolAnswer(body, text=lines)
        elif name == schemas.GET_SKILL:
            slug, endpoint = self._target(args, _SKILL_ARGS)
            run = self.discovery.endpoint(principal, slug, endpoint)
        elif name in (schemas.RUN_SKILL, schemas.RUN_SKILL_WRITE):
            writes = name == schemas.RUN_SKILL_WRITE
            slug, endpoint = self._target(args, _RUN_ARGS if writes else _READ_RUN_ARGS)
            params = args.get("params", {})
            if not isinstance(params, dict):
                raise _invalid("params: Input should be an object.")
            if not writes and self._changes_data(principal, slug, endpoint):
                return refusal(BadRequest(_WRITE_ELSEWHERE.format(endpoint=endpoint)), request_id)
            picked = {k: v for k, v in args.items() if k in _OPTION_ARGS}
            return await self._run(principal, slug, endpoint, params, request_id, picked)
        else:
            slug, endpoint = self._endpoint_named(principal, name, per_endpoint)
            params = dict(args)
            chosen = schemas.ENDPOINT_OPTIONS
            picked = {chosen[k]: params.pop(k) for k in args if k in chosen}
            answer = await self._run(principal, slug, endpoint, params, request_id, picked)
            return self._as_declared(principal, slug, endpoint, answer)
        try:
            return ToolAnswer(await run)
        except Exception as exc:
            return refusal(exc, request_id)

    def _as_declared(
        self, principal: Principal, slug: str, endpoint: str, answer: ToolAnswer
    ) -> ToolAnswer:
        """An endpoint tool's answer held to the output schema it declares (conform.py)."""
        if answer.is_error:
            return answer
        _, found = self.discovery.rendered.endpoint(slug, endpoint, principal.scopes)
        return ToolAnswer(conform.checked(answer.body, slug, found))

    def _changes_data(self, principal: Principal, slug: str, endpoint: str) -> bool:
        """Whether the endpoint changes data; False when the key may not see it, so that
        the executor's own refusal (unknown, out of scope, read-only key) answers."""
        try:
            _, found = self.discovery.rendered.endpoint(slug, endpoint, principal.scopes)
        except SkillGateError:
            return False
        return found.mutates

    @staticmethod
    def _target(args: Mapping[str, Any], allowed: frozenset[str]) -> tuple[str, str]:
        _only(args, allowed)
        return _text(args, "integration", SLUG_MAX), _text(args, "endpoint", NAME_MAX)

    def _endpoint_named(
        self, principal: Principal, name: str, per_endpoint: bool
    ) -> tuple[str, str]:
        """(slug, endpoint) of an `<integration>__<endpoint>` tool; unknown tool otherwise.
        Out of scope is not unknown: run_skill's refusal says which scope is missing."""
        slug, sep, endpoint = name.partition(schemas.SEPARATOR)
        if sep and per_endpoint:
            try:
                self.discovery.rendered.endpoint(slug, endpoint, principal.scopes)
                return slug, endpoint
            except NotFound:
                pass
            except SkillGateError:
                return slug, endpoint
        shown = name if len(name) <= 80 else name[:80] + "…"
        raise _invalid(f"Unknown tool {shown!r}; tools/list names the tools this key may use.")

    async def _run(
        self,
        principal: Principal,
        slug: str,
        endpoint: str,
        params: dict[str, Any],
        request_id: str,
        picked: dict[str, Any],
    ) -> ToolAnswer:
        try:
            run_options = options.PLAIN
            if picked:
                key = picked.pop("idempotency_key", None)
                if key is not None and not isinstance(key, str):
                    raise BadRequest("idempotency_key: must be a string.")
                run_options = options.parse(picked, key, self.executor.policy.max_bytes)
            outcome = await self.executor.run(
                principal, slug, endpoint, params, options=run_options
            )
        except ConfirmationRequired as exc:
            exc.message += (
                ' Here: call the same tool again with the same arguments and "confirm" '
                '(run_skill_write) or "_confirm" (an endpoint tool) set to the token.'
            )
            return refusal(exc, request_id)
        except Exception as exc:
            return refusal(exc, request_id)
        body = outcome.body
        budget = min(ANSWER_BUDGET, self.executor.policy.max_bytes)
        if "max_bytes" not in picked and len(body) > budget:
            body = capped.dumps(orjson.loads(body), budget)
        return ToolAnswer(body, is_error=outcome.failed)
