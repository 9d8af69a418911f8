"""The exact upstream request, as JSON an agent or a person can check before it is sent.

Built by the same `request.build` as a real call, with the credential replaced
by `REDACTED`: `{"method", "url", "headers", "body"}`; a JSON (or GraphQL) body
is shown as its value, a form body as its text.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import orjson

from skillgate.kit.outbound import UpstreamRequest

REDACTED = "[redacted]"
_ENCODED = quote(REDACTED, safe="")


def request_json(req: UpstreamRequest) -> dict[str, Any]:
    body: Any = None
    if req.body is not None:
        if req.headers.get("Content-Type") == "application/json":
            body = orjson.loads(req.body)
        else:
            body = req.body.decode("utf-8", "replace")
    return {
        "method": req.method,
        "url": req.url.replace(_ENCODED, REDACTED),
        "headers": dict(req.headers),
        "body": body,
    }
