"""The answer cap: no execution answers (or stores for a replay) more than
SKILLGATE_MAX_ANSWER_BYTES of envelope.

A single call's envelope is written, then its length compared with the cap (the
common answer pays one comparison); one over the cap is written again with its
`data` cut by `shape.bound` as `max_bytes` would (`truncated`, `bytes`, `omitted`
beside it), or its `error` cut to fit. A paginated answer never gets that far:
`paging.Collector` stops taking items, and fetching pages, once they pass the
cap, and `shaped` cuts the items to the room the rest of the envelope leaves
(`room`), moving `pagination.next` to the first item left out.

A single upstream body is bounded before it is parsed by SKILLGATE_UPSTREAM_MAX_BYTES
(kit.outbound); its JSON as the envelope writes it may still be larger (a text body
is escaped), which is what the check after writing catches.
"""

from __future__ import annotations

from typing import Any

import orjson

from skillgate.executor.shape import bound, size

# What a cut adds to the envelope beside the data: `,"truncated":true,"bytes":N,
# "omitted":N` (and a paginated answer's `,"skip":N`), with room to spare.
RESERVE = 128
_DATA_KEY = len(',"data":')


def room(env: dict[str, Any], cap: int, extra: int = 0) -> int:
    """The bytes `data` may take so that `env` (which does not hold it yet), `data`,
    what a cut adds and `extra` more bytes fit in `cap`."""
    return cap - size(env) - _DATA_KEY - RESERVE - extra


def dumps(env: dict[str, Any], cap: int) -> bytes:
    """`env` as JSON, its `data` (or `error`) cut when the whole is over `cap` bytes."""
    body = orjson.dumps(env)
    if len(body) <= cap:
        return body
    return orjson.dumps(fit(env, cap))


def fit(env: dict[str, Any], cap: int) -> dict[str, Any]:
    """`env` with its `data` (flagged `truncated`) or its `error` cut to fit `cap`."""
    key = "data" if "data" in env else "error"
    rest = {k: v for k, v in env.items() if k != key}
    cut = bound(env[key], max(room(rest, cap), 0))
    out: dict[str, Any] = {"status": rest.pop("status")} if "status" in rest else {}
    out[key] = cut.data
    if key == "data" and cut.truncated:
        earlier = rest.pop("bytes", None)  # max_bytes cut it already: keep its size
        rest.pop("truncated", None)
        omitted = cut.omitted + rest.pop("omitted", 0)
        out.update(truncated=True, bytes=earlier or cut.bytes)
        if omitted:
            out["omitted"] = omitted
    out.update(rest)
    return out
