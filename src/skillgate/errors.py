"""The one error hierarchy. Each class carries its status and contract code.

    SkillGateError
    ├── ApprovalPending                202 approval_pending (approval): held for a person
    ├── BadRequest                     400 bad_request
    ├── Unauthorized                   401 unauthorized (WWW-Authenticate: Bearer realm=...)
    │   ├── CredentialRefused          401 unauthorized (... error="invalid_token")
    │   └── TokenExpired               401 token_expired
    ├── Forbidden                      403
    │   ├── ScopeNotAllowed            403 scope_not_allowed
    │   ├── IntegrationNotConnected    403 integration_not_connected
    │   ├── InsufficientScope          403 insufficient_scope (action_url adds the scopes)
    │   ├── PlanLimitReached           403 plan_limit_reached
    │   ├── PolicyDenied               403 policy_denied (rule)
    │   ├── ApprovalDenied             403 approval_denied (approval)
    │   └── CsrfFailed                 403 csrf_failed
    ├── NotFound                       404 not_found
    ├── MethodNotAllowed               405 method_not_allowed
    ├── RequestTimeout                 408 request_timeout (Connection: close)
    ├── Conflict                       409 conflict
    │   ├── ConfirmationRequired       409 confirmation_required (preview, confirm)
    │   └── ConfirmationInvalid        409 confirmation_invalid
    ├── PayloadTooLarge                413 payload_too_large
    ├── UnsupportedMediaType           415 unsupported_media_type
    ├── IdempotencyKeyReused           422 idempotency_key_reused
    ├── RateLimited                    429 rate_limited (Retry-After)
    ├── InternalError                  500 internal_error
    ├── ServiceUnavailable             503 service_unavailable (Retry-After)
    └── UpstreamError                  502/504
        ├── UpstreamUnavailable        502 upstream_unavailable
        ├── UpstreamResponseTooLarge   502 upstream_response_too_large
        └── UpstreamTimeout            504 upstream_timeout

`body()` is the contract object `{"error","message","action_url"?}` (and any
extra fields, such as a confirmation's `preview`), `render()` its JSON. Every
door renders an error through `skillgate.http.errors` (`as_error` for anything
raised, `render_json_error` for the HTTP answer); the MCP door puts `body()` in
a tool result and the executor in an envelope.

What to do next depends on the door the caller used: an error may carry `steps`, one
sentence per door (`DOORS`), and the body's message ends with the one for the door
(`svc` names `svc` commands and `SVC_API_KEY`, `mcp` the MCP tools and the client's
configuration, `http` the HTTP routes), `http`'s when the door has none.
"""

from __future__ import annotations

from typing import Any

import orjson


class ConfigError(Exception):
    """A configuration the server refuses to start with; the message is one line.

    Not a SkillGateError: it stops the server (or a command) before any request."""


# The doors a caller reaches the gateway through, as error `steps` name them: the agent
# HTTP API called by `svc`, the MCP door, and plain HTTP (curl, a generated client).
DOORS = ("svc", "mcp", "http")


class SkillGateError(Exception):
    status = 500
    code = "internal_error"
    default_message = "Something went wrong on the server; try again."

    def __init__(
        self,
        message: str | None = None,
        *,
        action_url: str | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
        steps: dict[str, str] | None = None,
    ) -> None:
        self.message = message or self.default_message
        self.action_url = action_url
        self.headers = headers or {}
        self.extra = extra or {}
        self.steps = steps or {}
        super().__init__(self.message)

    @property
    def headers(self) -> dict[str, str]:
        """The answer's extra headers; always a dict. A subclass that is also a
        framework HTTPException (`http.middleware.BodyTooLarge`) has that class's
        `__init__` assign `headers=None`: it is kept as `{}`, so code that merges
        headers (`{**exc.headers, ...}`) works on every SkillGateError."""
        return self._headers

    @headers.setter
    def headers(self, value: dict[str, str] | None) -> None:
        self._headers = dict(value or {})

    def body(self, door: str = "http") -> dict[str, Any]:
        message = self.message
        step = self.steps.get(door) or self.steps.get("http")
        if step:
            message = f"{message} {step}"
        data: dict[str, Any] = {"error": self.code, "message": message}
        if self.action_url:
            data["action_url"] = self.action_url
        data.update(self.extra)
        return data

    def render(self, door: str = "http") -> bytes:
        return orjson.dumps(self.body(door))


class ApprovalPending(SkillGateError):
    """Not a failure: the key's policy holds the call until a person approves it. Every
    door answers it as the gateway's own answer (HTTP 202; an MCP tool result), `extra`
    carrying the `approval` (id, state, the request that will be sent, URLs)."""

    status, code = 202, "approval_pending"
    default_message = "This call waits for a person's approval."


class BadRequest(SkillGateError):
    status, code = 400, "bad_request"
    default_message = "The request is not valid."


class Unauthorized(SkillGateError):
    """401 with the Bearer challenge: no credential was sent (or one of another scheme),
    so the challenge names no error (RFC 6750, section 3.1)."""

    status, code = 401, "unauthorized"
    default_message = "Missing or invalid credentials: send `Authorization: Bearer <API key>`."
    challenge = 'Bearer realm="skillgate"'

    def __init__(self, message: str | None = None, **kw: Any) -> None:
        kw.setdefault("headers", {"WWW-Authenticate": self.challenge})
        super().__init__(message, **kw)


class CredentialRefused(Unauthorized):
    """A Bearer credential was sent and refused (malformed, unknown, revoked, expired,
    or of a kind the route does not take): the challenge says `error="invalid_token"`
    (RFC 6750, section 3.1), so a client knows to replace it rather than add one."""

    challenge = 'Bearer realm="skillgate", error="invalid_token"'


class TokenExpired(Unauthorized):
    code = "token_expired"
    default_message = "The connection's credentials expired and could not be refreshed; reconnect."


class Forbidden(SkillGateError):
    status, code = 403, "forbidden"
    default_message = "You are not allowed to do this."


class ScopeNotAllowed(Forbidden):
    code = "scope_not_allowed"


class IntegrationNotConnected(Forbidden):
    code = "integration_not_connected"


class InsufficientScope(Forbidden):
    """The connection was not granted a scope the endpoint needs (RFC 6750's name)."""

    code = "insufficient_scope"


class PlanLimitReached(Forbidden):
    code = "plan_limit_reached"


class PolicyDenied(Forbidden):
    """A rule of the key's policy refuses the call: `extra` carries the `rule`
    ({"index", "name"}, or "default")."""

    code = "policy_denied"
    default_message = "This API key's policy does not allow this call."


class ApprovalDenied(Forbidden):
    """A held call a person denied, or that expired unanswered: `extra` carries the
    `approval`."""

    code = "approval_denied"
    default_message = "A person denied this call."


class CsrfFailed(Forbidden):
    code = "csrf_failed"
    default_message = "The form expired or did not come from this site; reload the page and retry."


class NotFound(SkillGateError):
    status, code = 404, "not_found"
    default_message = "Not found."


class MethodNotAllowed(SkillGateError):
    status, code = 405, "method_not_allowed"
    default_message = "This method is not allowed on this path."


class RequestTimeout(SkillGateError):
    status, code = 408, "request_timeout"
    default_message = "The request body did not arrive in time; send it again."

    def __init__(self, message: str | None = None, **kw: Any) -> None:
        headers = dict(kw.pop("headers", None) or {})
        headers["Connection"] = "close"  # the rest of the body may still be on its way
        super().__init__(message, headers=headers, **kw)


class Conflict(SkillGateError):
    status, code = 409, "conflict"
    default_message = "The request conflicts with the current state."


class ConfirmationRequired(Conflict):
    """A destructive call under a confirming key: `extra` carries the preview, the
    single-use token (`confirm`) and `expires_in`."""

    code = "confirmation_required"
    default_message = (
        "This call needs confirmation: check the preview, then repeat it with confirm."
    )


class ConfirmationInvalid(Conflict):
    code = "confirmation_invalid"
    default_message = "The confirmation token is not valid for this request."


class IdempotencyKeyReused(SkillGateError):
    status, code = 422, "idempotency_key_reused"
    default_message = "This Idempotency-Key was used for a different request."


class PayloadTooLarge(SkillGateError):
    status, code = 413, "payload_too_large"
    default_message = "The request body is too large."


class UnsupportedMediaType(SkillGateError):
    status, code = 415, "unsupported_media_type"
    default_message = "Send the body as JSON with `Content-Type: application/json`."


class RateLimited(SkillGateError):
    status, code = 429, "rate_limited"
    default_message = "Too many requests; retry later."

    def __init__(self, message: str | None = None, *, retry_after: int, **kw: Any) -> None:
        headers = dict(kw.pop("headers", None) or {})
        headers["Retry-After"] = str(max(1, retry_after))
        self.retry_after = max(1, retry_after)
        super().__init__(message, headers=headers, **kw)


class InternalError(SkillGateError):
    pass


class ServiceUnavailable(SkillGateError):
    status, code = 503, "service_unavailable"
    default_message = "A backing service is unavailable; retry shortly."
    retry_after = 5

    def __init__(self, message: str | None = None, **kw: Any) -> None:
        headers = dict(kw.pop("headers", None) or {})
        headers.setdefault("Retry-After", str(self.retry_after))
        super().__init__(message, headers=headers, **kw)


class UpstreamError(SkillGateError):
    status, code = 502, "upstream_unavailable"


class UpstreamUnavailable(UpstreamError):
    default_message = "The upstream service could not be reached."


class UpstreamResponseTooLarge(UpstreamError):
    code = "upstream_response_too_large"
    default_message = "The upstream response was larger than the gateway accepts."


class UpstreamTimeout(UpstreamError):
    status, code = 504, "upstream_timeout"
    default_message = "The upstream service did not answer in time."
