"""An integration's hosts: its base URL, its endpoints' own ones, and the variables a
user gives when connecting.

Several hosts: an endpoint may name its own `base_url` (OpenAPI per-operation or
per-path `servers`: GitHub's release-asset upload at uploads.github.com). The
executor sends each call to its endpoint's host, and only to the hosts the
catalog lists for that integration (`allowed`).

Per-connection hosts: an integration declares `variables` (Jira's
`{domain}.atlassian.net`, Mailchimp's data centre `{dc}.api.mailchimp.com`,
Shopify's `{shop}.myshopify.com`); a base URL holds them as `{name}`. The user
gives each when connecting; it is stored with the connection and filled in
before every call. A value must match the variable's `pattern` and be one plain
label or segment (letters, digits, `.`, `_`, `-`, `~`; never `.` or `..`), and
a variable inside a host must be followed by a fixed domain of two labels or
more (`.atlassian.net`): whatever the user types, the host stays under the
provider's domain.

A base URL (`BaseUrl`, the integration's and an endpoint's own) is http(s) without a
query or fragment, never carries `user:password@` and loses its final `/`.

A variable can also supply parameters (catalog.fills): `fills` names the
parameters it fills when a call leaves them out (Twilio's `account_sid` fills
every `AccountSid`); `from_username` lets the connection take it from the HTTP
Basic username when that matches its `pattern` (Twilio's username is the Account
SID, unless it is an API key's SID).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from skillgate.errors import BadRequest

VARIABLE_RE = re.compile(r"\{([^{}]*)\}")
VARIABLE_NAME = r"^[a-z][a-z0-9_]{0,31}$"
_PLAIN = re.compile(r"[A-Za-z0-9._~-]{1,100}")
# After a variable in a host: a fixed domain of two labels or more.
_DOMAIN_SUFFIX = re.compile(r"^[A-Za-z0-9-]*(\.[A-Za-z0-9-]+){2,}(:\d+)?$")


def _no_credentials(url: str) -> str:
    """A base URL without its final '/'; never one carrying `user:password@`."""
    if "@" in url.split("://", 1)[-1].split("/", 1)[0]:
        # Shown in every user's dry run and skill document: never a credential.
        raise ValueError(
            "base_url must not carry credentials (user:password@); give the API's "
            "token through `auth`"
        )
    return url.rstrip("/")


BaseUrl = Annotated[
    str, Field(pattern=r"^https?://[^/?#]+(/[^?#]*)?$"), AfterValidator(_no_credentials)
]


def listed_hosts(base_url: str, own: Iterable[str | None]) -> tuple[str, ...]:
    """An integration's base URL, then its endpoints' `own` ones, each once."""
    return tuple(dict.fromkeys((base_url, *(url for url in own if url))))


class ConnectionVariable(BaseModel):
    """A value the user gives when connecting, filled into the integration's hosts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=VARIABLE_NAME)
    label: str = Field(min_length=2)
    help: str = Field(min_length=5)
    # The whole value must match (Python `re.fullmatch`).
    pattern: str = Field(min_length=1)
    example: str | None = None
    # The parameters (their upstream names: `maps_to` or `name`) this value fills when
    # a call leaves them out, on every endpoint that has one (catalog.fills).
    fills: tuple[str, ...] = Field(
        default=(),
        description="Upstream names of the parameters this value fills on every endpoint "
        "when a call leaves them out (the parameter is then optional).",
    )
    # Not given when connecting: the HTTP Basic username, when it matches `pattern`.
    from_username: bool = Field(
        default=False,
        description="When the user gives no value, take the HTTP Basic username if it "
        "matches `pattern` (Twilio's Account SID).",
    )

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as exc:
            raise ValueError(f"pattern {v!r} is not a regular expression: {exc}") from None
        return v


def _host_problem(url: str, declared: set[str]) -> str | None:
    names = VARIABLE_RE.findall(url)
    for name in names:
        if name not in declared:
            return f"{url}: {{{name}}} is not a declared variable"
    scheme, rest = url.split("://", 1) if "://" in url else ("", url)
    if "{" in scheme:
        return f"{url}: a variable cannot be in the scheme"
    host = rest.split("/", 1)[0]
    if "{" in host:
        tail = host[host.rindex("}") + 1 :]
        if not _DOMAIN_SUFFIX.match(tail) or not tail.startswith((".", "-")):
            return (
                f"{url}: a variable in the host must be followed by the provider's "
                "fixed domain (`{domain}.atlassian.net`)"
            )
    return None


def check_hosts(urls: Iterable[str], variables: Iterable[ConnectionVariable]) -> None:
    """ValueError when a host uses an undeclared variable or could leave its domain."""
    declared = [v.name for v in variables]
    if len(declared) != len(set(declared)):
        raise ValueError("a connection variable is declared twice")
    for url in urls:
        problem = _host_problem(url, set(declared))
        if problem:
            raise ValueError(problem)


def from_username(var: ConnectionVariable, username: str | None) -> str | None:
    """The value `var` takes from the HTTP Basic username, when it may and one fits."""
    if not var.from_username or not username:
        return None
    return username if re.fullmatch(var.pattern, username) and _PLAIN.fullmatch(username) else None


def check_values(
    variables: Iterable[ConnectionVariable],
    given: Mapping[str, str] | None,
    username: str | None = None,
    *,
    credentials_later: bool = False,
) -> dict[str, str]:
    """The values to store for a connection; BadRequest naming the field otherwise.
    A `from_username` variable left out takes `username` when it fits; with
    `credentials_later` (a connect request, before the credentials) it may be left out."""
    given = dict(given or {})
    declared = {v.name: v for v in variables}
    for name in given:
        if name not in declared:
            known = ", ".join(declared) or "none"
            raise BadRequest(
                f"variables.{name[:40]}: not a variable of this integration ({known})."
            )
    values: dict[str, str] = {}
    for name, var in declared.items():
        value = str(given.get(name) or "").strip() or from_username(var, username) or ""
        hint = f" (e.g. {var.example})" if var.example else ""
        if not value and var.from_username and credentials_later:
            continue
        if not value:
            why = " (the username is not one)" if var.from_username and username else ""
            raise BadRequest(f"variables.{name}: required: {var.label}{hint}{why}.")
        plain = _PLAIN.fullmatch(value) and value not in (".", "..")
        if not plain or not re.fullmatch(var.pattern, value):
            raise BadRequest(
                f"variables.{name}: {value[:100]!r} is not a valid {var.label}{hint}; "
                "it must name a host or path under the provider's own domain."
            )
        values[name] = value
    return values


def _origin(url: str) -> tuple[str, str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc.lower(), parts.path.rstrip("/")


_base_origin = lru_cache(maxsize=1024)(_origin)  # the catalog's few base URLs


def fill(template: str, values: Mapping[str, str]) -> str:
    """`template` with each `{variable}` replaced; BadRequest when one is missing."""
    if "{" not in template:
        return template

    def value(match: re.Match[str]) -> str:
        found = values.get(match.group(1))
        if found is None:
            raise BadRequest(
                f"variables.{match.group(1)}: this connection has none; reconnect the "
                "integration and give it."
            )
        return found

    return VARIABLE_RE.sub(value, template)


def under(url: str, allowed: Iterable[str]) -> bool:
    """Whether `url` is at or below one of the `allowed` base URLs (scheme, host, path)."""
    scheme, netloc, path = _origin(url)
    for base in allowed:
        b_scheme, b_netloc, b_path = _base_origin(base)
        if (scheme, netloc) == (b_scheme, b_netloc) and (
            path == b_path or path.startswith(b_path + "/")
        ):
            return True
    return False
