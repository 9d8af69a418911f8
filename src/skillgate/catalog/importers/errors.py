"""Documented error responses -> the catalog's `errors` (code, cause, fix).

Rules (both importers):
- every documented 4xx/5xx status (`default` and ranges like `4XX` are
  ignored) is one error, in status order, once per status;
- the cause is the response's description, plain and capped; when it says
  nothing more than the status (`Forbidden`, `Response`), the table's cause;
- the fix comes from the per-status advice table below (401 reconnect, 403
  permissions and scopes, 404 ids and access, 409 state, 410 gone or disabled,
  422 parameters, 429 wait and retry, 5xx retry later);
- an operation that documents none gets the table's 400 and 403 (404 too when
  it has path parameters), so every endpoint has at least one.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from skillgate.catalog.importers.text import short

ADVICE: dict[int, tuple[str, str]] = {
    400: (
        "The request is malformed or a parameter has an invalid value.",
        "Check the parameters' types and values against the endpoint's description.",
    ),
    401: (
        "The stored credentials are missing, invalid or expired.",
        "Reconnect the integration on the dashboard's Integrations page.",
    ),
    403: (
        "The connected account or token is not allowed to do this.",
        "Check the account's permissions on the resource and the token's scopes.",
    ),
    404: (
        "The resource does not exist or the connected account cannot see it.",
        "Check the ids in the path and that the connected account has access.",
    ),
    405: ("The method is not allowed on this resource.", "Check the resource supports this call."),
    409: (
        "The request conflicts with the resource's current state.",
        "Fetch the resource's current state, then retry with consistent values.",
    ),
    410: (
        "The resource is gone or the feature is disabled.",
        "Check that the resource still exists and the feature is enabled.",
    ),
    412: ("A precondition failed.", "Fetch the current version of the resource and retry."),
    413: ("The request is too large.", "Send less data in one call."),
    415: ("The content type is not supported.", "Check the body's fields and their types."),
    422: (
        "Validation failed: a field is missing or has an invalid value.",
        "Check the parameters: required fields, allowed values and formats.",
    ),
    429: ("Too many requests: a rate limit was hit.", "Wait, then retry; make fewer calls."),
}
CLIENT = ("The request was refused.", "Check the parameters and the account's access.")
SERVER = ("The service had an error or is unavailable.", "Retry later.")
_EMPTY = {"response", "error", "default", "failure", "failed", "unexpected error"}


def advice(code: int) -> tuple[str, str]:
    return ADVICE.get(code) or (SERVER if code >= 500 else CLIENT)


def _cause(code: int, description: str) -> str:
    text = short(description).rstrip(".")
    try:
        phrase = HTTPStatus(code).phrase.lower()
    except ValueError:
        phrase = ""
    if len(text) < 3 or text.lower() in _EMPTY or text.lower() == phrase:
        return advice(code)[0]
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def errors(responses: dict[int, str], has_path_params: bool) -> list[dict[str, Any]]:
    """The catalog `errors` of an operation (at least one)."""
    codes = sorted(c for c in responses if 400 <= c <= 599)
    if not codes:
        fallback = [400, 403, 404] if has_path_params else [400, 403]
        return [{"code": c, "cause": advice(c)[0], "fix": advice(c)[1]} for c in fallback]
    return [{"code": c, "cause": _cause(c, responses[c]), "fix": advice(c)[1]} for c in codes]


def common_errors() -> list[dict[str, Any]]:
    """The integration-wide errors a compiled integration starts from (401, 429)."""
    return [{"code": c, "cause": advice(c)[0], "fix": advice(c)[1]} for c in (401, 429)]
