"""Key scopes: `*`, an integration slug (`github`) or `slug:read` (GET endpoints only)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Literal

from skillgate.errors import BadRequest

Access = Literal["full", "read"]
MAX_SCOPES = 100


def normalize(scopes: Iterable[str] | None, known_slugs: Collection[str]) -> list[str]:
    """Validated, de-duplicated scopes; `*` absorbs everything else."""
    if scopes is None:
        return ["*"]
    result: list[str] = []
    for raw in scopes:
        scope = raw.strip()
        slug, _, suffix = scope.partition(":")
        valid = scope == "*" or (slug in known_slugs and suffix in ("", "read"))
        if not valid:
            hint = ", ".join(sorted(known_slugs)) or "none loaded"
            raise BadRequest(
                f"scopes: unknown scope {raw!r}; use '*', an integration slug or "
                f"'<slug>:read' (integrations: {hint})."
            )
        if scope not in result:
            result.append(scope)
    if not result:
        raise BadRequest("scopes: give at least one scope, or leave it out for ['*'].")
    if len(result) > MAX_SCOPES:
        raise BadRequest(f"scopes: at most {MAX_SCOPES} entries.")
    if "*" in result:
        return ["*"]
    return result


def access_for(scopes: Iterable[str], slug: str) -> Access | None:
    """What a key with `scopes` may do on `slug`: full, read-only, or nothing."""
    best: Access | None = None
    for scope in scopes:
        if scope in ("*", slug):
            return "full"
        if scope == f"{slug}:read":
            best = "read"
    return best
