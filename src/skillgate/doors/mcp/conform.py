"""An endpoint tool's answer held to the output schema it declares.

An endpoint tool whose source documents its answer declares that shape as the
envelope's `data` (outputs.endpoint_envelope), and the MCP specification asks a
server to send structured content that conforms; clients check it (the official
SDKs raise on a mismatch). A provider's answer may stray from its own document (a
field it calls an integer comes as a string, a `null` it does not mention), so
before answering, the door checks `data` against the schema (jsonschema, which the
`mcp` SDK already depends on; one compiled validator per endpoint, kept) and, on a
mismatch, says so in the answer: `schema_mismatch` names the first place and why,
and the schema admits such an answer with `data` left open. The data itself is
never changed. Answers cut to the output budget or paginated are not checked (their
`data` is open too), nor refusals and upstream errors (`isError`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import orjson

from skillgate.catalog import response_schemas
from skillgate.catalog.models import Endpoint
from skillgate.doors.mcp.outputs import MISMATCH

_MAX_REASON = 300


@lru_cache(maxsize=1024)
def _validator(slug: str, key: str) -> Any:
    """The endpoint's compiled validator (jsonschema imported on first use: it is not
    needed to start, and most gateways never serve endpoint tools)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(response_schemas.schema_by_key(slug, key) or {})


def _where(path: Any) -> str:
    return "data" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def checked(body: bytes, slug: str, endpoint: Endpoint) -> bytes:
    """A successful answer's JSON, with `schema_mismatch` when its data strays from the
    shape the endpoint tool declares (the same bytes when it does not, or declares none)."""
    if response_schemas.schema_of(slug, endpoint) is None:
        return body
    envelope = orjson.loads(body)
    if not isinstance(envelope, dict) or "data" not in envelope:
        return body
    if "truncated" in envelope or "pagination" in envelope:
        return body
    from jsonschema.exceptions import best_match

    validator = _validator(slug, response_schemas.key(endpoint))
    error = best_match(validator.iter_errors(envelope["data"]))
    if error is None:
        return body
    envelope[MISMATCH] = f"{_where(error.absolute_path)}: {error.message}"[:_MAX_REASON]
    return orjson.dumps(envelope)
