"""Key scopes: `*`, an integration slug (`github`) or `slug:read` (GET endpoints only),
and `approve` (deciding the user's held calls: docs/execution.md, "Approvals"), which
`*` does not include: only a key that has it, or a person, can give it to a new key."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Literal

from skillgate.errors import BadRequest, ScopeNotAllowed

if TYPE_CHECKING:
    from skillgate.kit.principal import Principal

Access = Literal["full", "read"]
APPROVE = "approve"
MAX_SCOPES = 100


def normalize(scopes: Iterable[str] | None, known_slugs: Collection[str]) -> list[str]:
    """Validated, de-duplicated scopes; `*` absorbs everything else."""
    if scopes is None:
        return ["*"]
    result: list[str] = []
    for raw in scopes:
        scope = raw.strip()
        slug, _, suffix = scope.partition(":")
        valid = scope in ("*", APPROVE) or (slug in known_slugs and suffix in ("", "read"))
        if not valid:
            hint = ", ".join(sorted(known_slugs)) or "none loaded"
            raise BadRequest(
                f"scopes: unknown scope {raw!r}; use '*', an integration slug, "
                f"'<slug>:read' or 'approve' (integrations: {hint})."
            )
        if scope not in result:
            result.append(scope)
    if not result:
        raise BadRequest("scopes: give at least one scope, or leave it out for ['*'].")
    if len(result) > MAX_SCOPES:
        raise BadRequest(f"scopes: at most {MAX_SCOPES} entries.")
    if "*" in result:
        return ["*", APPROVE] if APPROVE in result else ["*"]
    return result


def names_integrations(scopes: Iterable[str]) -> bool:
    """Whether `scopes` name an integration (anything but `*` and `approve`): only then does
    `normalize` need the catalog's slugs (an operator command loads it for nothing else)."""
    return any(s.strip() not in ("*", APPROVE) for s in scopes)


def access_for(scopes: Iterable[str], slug: str) -> Access | None:
    """What a key with `scopes` may do on `slug`: full, read-only, or nothing."""
    best: Access | None = None
    for scope in scopes:
        if scope in ("*", slug):
            return "full"
        if scope == f"{slug}:read":
            best = "read"
    return best


def covers(parent: Iterable[str], child: Iterable[str]) -> bool:
    """Whether a key with scopes `parent` may do everything a key with `child` may do."""
    held = tuple(parent)
    if APPROVE in child and APPROVE not in held:
        return False  # `*` does not include it
    if "*" in held:
        return True
    for scope in child:
        if scope == APPROVE:
            continue
        if scope == "*":
            return False
        slug, _, suffix = scope.partition(":")
        have = access_for(held, slug)
        if have is None or (have == "read" and suffix != "read"):
            return False
    return True


# What every key-authenticated route checks, in one place (docs/api.md, "Scopes on every
# route"). Sessions and access tokens act as the whole account (`Principal.scopes` is `*`).

_KEY_MANAGER = "Managing API keys needs a key with scope * or a dashboard sign-in."
_READ_ONLY = "This API key is read-only for {slug!r}: read-only keys cannot change anything."
_OUT_OF_SCOPE = "This API key's scopes do not include {slug!r}; use a key with that scope."


def require_key_manager(principal: Principal) -> None:
    """`/api-keys`: an API key needs scope `*`; tokens and sessions pass."""
    if principal.via in ("api_key", "oauth") and "*" not in principal.scopes:
        raise ScopeNotAllowed(_KEY_MANAGER)


def require_access(principal: Principal, slug: str, need: Access) -> None:
    """403 unless the principal has `need` access (full, or at least read) to `slug`."""
    have = access_for(principal.scopes, slug)
    if have is None:
        raise ScopeNotAllowed(_OUT_OF_SCOPE.format(slug=slug[:64]))
    if need == "full" and have == "read":
        raise ScopeNotAllowed(_READ_ONLY.format(slug=slug[:64]))


def can_see(principal: Principal, slug: str) -> bool:
    """Whether the principal has any access (full or read) to `slug`."""
    return access_for(principal.scopes, slug) is not None


def visible_slugs(principal: Principal) -> frozenset[str] | None:
    """The integrations the principal can see; None when it sees them all (`*`)."""
    if "*" in principal.scopes:
        return None
    return frozenset(scope.partition(":")[0] for scope in principal.scopes)
