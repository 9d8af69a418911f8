"""The device flow as standard OAuth clients speak it (RFC 8628, RFC 6749 section 5).

`svc` sends JSON (`{"device_code"}`) and reads the spec's answers: a pending poll
is a 200 `{"status":"pending","error":...}`. A standard client (authlib,
oauthlib, ...) sends a form (`application/x-www-form-urlencoded`) with
`grant_type=urn:ietf:params:oauth:grant-type:device_code`, `device_code` and
`client_id`, and expects every refusal as a 400 with the RFC's `error` code. A
request is such a client's when it is form-encoded or names a `grant_type`;
`svc`'s JSON answers stay as they are.

    pending              400 authorization_pending
    polled too fast      400 slow_down (+ interval)
    expired              400 expired_token
    denied               400 access_denied
    used, unknown code   400 invalid_grant
    malformed request    400 invalid_request
    another grant_type   400 unsupported_grant_type
    approved, with key   200 access_token (the API key), token_type "Bearer", ...
    approved, no key     400 access_denied (the user approved without creating a key)

Every refusal carries `error_description` (the RFC's) and `message` (the
gateway's error body) with the same text.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from skillgate.device.schemas import DevicePoll
from skillgate.errors import BadRequest, NotFound, SkillGateError

GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code"
FORM = "application/x-www-form-urlencoded"
_TOKEN_USAGE = f"Send grant_type={GRANT_TYPE} and the device_code from /auth/device/code."
_NO_KEY = (
    "The sign-in was approved without creating an API key, so there is no token to "
    "give: start again and leave 'Create an API key for this device' ticked."
)
_PENDING = {
    "authorization_pending": "Not approved yet: open the verification address, enter the "
    "user code, then poll again after the interval.",
    "slow_down": "Polled sooner than the interval: wait the new interval between polls.",
}


class OAuthError(SkillGateError):
    """A 400 with an RFC 6749/8628 `error` code and `error_description`."""

    status = 400

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        self.code = code
        super().__init__(message, extra={"error_description": message, **extra})


def is_form(request: Request) -> bool:
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return kind == FORM


async def form_fields(request: Request) -> dict[str, str]:
    """The form's fields (the first value of each; files are not expected here)."""
    form = await request.form()
    fields: dict[str, str] = {}
    for name, value in form.multi_items():
        if isinstance(value, str):
            fields.setdefault(name, value)
    return fields


def check_grant(fields: dict[str, Any]) -> None:
    grant = fields.get("grant_type")
    if grant is None or grant == "":
        raise OAuthError("invalid_request", f"grant_type: required. {_TOKEN_USAGE}")
    if grant != GRANT_TYPE:
        raise OAuthError("unsupported_grant_type", f"grant_type: {_TOKEN_USAGE}")


def as_oauth_error(exc: SkillGateError) -> SkillGateError:
    """The poll's refusal as the RFC names it (throttling and outages pass unchanged)."""
    if isinstance(exc, OAuthError):
        return exc
    code = getattr(exc, "code", "")
    if code in ("expired_token", "access_denied"):
        return OAuthError(code, exc.message)
    if code == "already_used" or isinstance(exc, NotFound):
        return OAuthError("invalid_grant", exc.message)
    if isinstance(exc, BadRequest):
        return OAuthError("invalid_request", exc.message)
    return exc


def token_answer(poll: DevicePoll) -> dict[str, Any] | OAuthError:
    """A poll's answer for a standard client: the body of its 200, or the refusal to send
    (sent, not raised: the poll's pacing and consumption must still commit)."""
    if poll.status == "pending":
        error = poll.error or "authorization_pending"
        extra = {"interval": poll.interval} if poll.interval is not None else {}
        return OAuthError(error, _PENDING[error], **extra)
    if poll.api_key is None:
        return OAuthError("access_denied", _NO_KEY)
    return poll.body()
