"""The catalog's data model: one integration per YAML file, parsed into frozen models.

The models check what one file can check on its own (types, names, placeholders,
defaults and enums). Cross-file checks (unique slugs) and the example check live
in `skillgate.catalog.validate`.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from skillgate.catalog import destructive, fills
from skillgate.catalog.auth import SCOPE_SET_RE as SCOPE_SET_RE
from skillgate.catalog.auth import Auth as Auth
from skillgate.catalog.auth import BasicAuth as BasicAuth
from skillgate.catalog.auth import OAuth2Auth as OAuth2Auth
from skillgate.catalog.auth import ScopeSet as ScopeSet
from skillgate.catalog.auth import TokenAuth as TokenAuth
from skillgate.catalog.auth import credential as credential
from skillgate.catalog.auth import sent_credentials as sent_credentials
from skillgate.catalog.hosts import BaseUrl, ConnectionVariable, check_hosts, listed_hosts
from skillgate.catalog.parameter import HEADER_RE as HEADER_RE
from skillgate.catalog.parameter import PARAM_RE as PARAM_RE
from skillgate.catalog.parameter import PROTECTED_HEADERS as PROTECTED_HEADERS
from skillgate.catalog.parameter import Location as Location
from skillgate.catalog.parameter import Parameter as Parameter
from skillgate.catalog.parameter import ParamType as ParamType
from skillgate.catalog.parameter import WireStyle as WireStyle
from skillgate.catalog.parameter import value_matches as value_matches
from skillgate.kit.upstream import Credential as Credential  # the executor's import

HttpMethod = Literal["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
# The methods that only read: no body parameters, never `changes_data` by default.
READ_METHODS = ("GET", "HEAD")
BodyEncoding = Literal["json", "form", "graphql", "multipart", "binary", "related"]
# The encodings that carry a file (a `file` parameter needs one).
FILE_BODIES: tuple[BodyEncoding, ...] = ("multipart", "binary", "related")

# An integration's slug and an endpoint's name: their longest, as every door's input
# checks and schemas state them (and the `integration` columns hold them).
SLUG_MAX = 40
NAME_MAX = 64
SLUG_RE = re.compile(rf"^[a-z][a-z0-9_]{{1,{SLUG_MAX - 1}}}$")
NAME_RE = re.compile(rf"^[a-z][a-z0-9_]{{1,{NAME_MAX - 1}}}$")
PLACEHOLDER_RE = re.compile(r"\{([^{}]*)\}")
# Words the API's own paths use under /v1; an integration cannot take them.
RESERVED_SLUGS = frozenset(
    {"skills", "me", "connect", "connections", "executions", "auth", "search"}
)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ErrorDoc(_Frozen):
    code: int = Field(ge=100, le=599)
    cause: str = Field(min_length=3)
    fix: str = Field(min_length=3)


class Pagination(_Frozen):
    style: Literal["page", "cursor", "offset", "link_header", "page_token"]
    # The request parameter that selects the page (e.g. `page`, `cursor`, `pageToken`).
    param: str | None = None
    # Where the next page's value comes from in the response (e.g. `response_metadata.next_cursor`).
    next: str | None = None
    size_param: str | None = None
    max_size: int | None = None
    # Dotted path of the item list in a page's body (`data.issues.nodes`, `messages`);
    # None: the body itself when it is a list, else its one top-level list field.
    items: str | None = None


# An endpoint's `says`: each request's length in characters, and how many at most.
SAID = (3, 400)
SAYS_MOST = 12


class Endpoint(_Frozen):
    name: str
    method: HttpMethod
    path: str
    category: str = Field(pattern=r"^[a-z][a-z0-9_]{1,39}$")
    description: str = Field(min_length=10)
    parameters: tuple[Parameter, ...]
    errors: tuple[ErrorDoc, ...] = Field(min_length=1)
    body: BodyEncoding | None = None
    graphql: str | None = None
    pagination: Pagination | None = None
    changes_data: bool | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    # Sent on every call, as a source path writes them (`/v1/messages?beta=true`).
    query: dict[str, str] = Field(default_factory=dict)
    # A JSON body's Content-Type when not application/json (`application/merge-patch+json`).
    content_type: str | None = Field(default=None, pattern=r"^application/[A-Za-z0-9.+-]+\+json$")
    # Where a compiled endpoint comes from: the OpenAPI operationId or the Google
    # method id (`gmail.users.messages.list`), and the operation's own documentation.
    operation: str | None = None
    docs_url: str | None = None
    # The OAuth scopes any one of which lets a token call the endpoint, as the provider
    # documents them (Google lists them per method); empty: not documented.
    scopes: tuple[str, ...] = ()
    # Written or reviewed by a person: an overlay entry (curating a compiled operation,
    # or hand-written), or an endpoint of a hand-written file that no importer produced
    # (no `operation`). Set by the loader; search ranks these first among equals, as
    # they are the calls most requests are for.
    curated: bool = False
    # Deletes, irreversible sends, merges, transfers: a key with the `destructive`
    # confirmation policy needs a token to call it. None in a file means "derive it"
    # (catalog.destructive); after loading it is always a bool.
    destructive: bool | None = None
    # Where this endpoint is served when not at the integration's `base_url` (OpenAPI
    # per-operation `servers`: GitHub's uploads.github.com); may hold `{variables}`.
    base_url: BaseUrl | None = None
    # Requests in users' words that this endpoint answers ("what's in the kitty on
    # stripe"): search indexes them beside its own texts, and the match reads only the
    # latter (discovery/own.py). Written in the integration file's `says:` block.
    says: tuple[Annotated[str, Field(min_length=SAID[0], max_length=SAID[1])], ...] = Field(
        default=(), max_length=SAYS_MOST
    )
    # Names it was called before (the importer's name cut to 64 characters with a hash,
    # before `naming.readable` said it shorter): a call, a rule or an approval naming
    # one reaches this endpoint; listings and answers show `name` only.
    aliases: tuple[str, ...] = ()

    @field_validator("name")
    @classmethod
    def _name_shape(cls, v: str) -> str:
        if not NAME_RE.match(v):
            raise ValueError(f"endpoint name {v!r} must match {NAME_RE.pattern}")
        return v

    @property
    def names(self) -> tuple[str, ...]:
        """Its name and its former names: what a rule or a call may name it by."""
        return (self.name, *self.aliases)

    @field_validator("aliases")
    @classmethod
    def _aliases_shape(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for alias in v:
            if not NAME_RE.match(alias):
                raise ValueError(f"alias {alias!r} must match {NAME_RE.pattern}")
        return v

    @field_validator("path")
    @classmethod
    def _path_shape(cls, v: str) -> str:
        # `..` inside a segment is fine (GitHub's `/compare/{base}...{head}`); a
        # segment that is `.` or `..` would climb out of the base URL's path.
        if (
            not v.startswith("/")
            or "//" in v
            or "?" in v
            or "#" in v
            or any(seg in (".", "..") for seg in v.split("/"))
        ):
            raise ValueError(
                f"path {v!r} must start with '/' and hold no '//', '?', '#' or '.'/'..' segment"
            )
        return v

    @model_validator(mode="after")
    def _consistent(self) -> Endpoint:
        seen: set[str] = set()
        for p in self.parameters:
            if p.name in seen:
                raise ValueError(f"parameter {p.name!r} is declared twice")
            seen.add(p.name)
        placeholders = PLACEHOLDER_RE.findall(self.path)
        path_params = {p.wire_name for p in self.parameters if p.location == "path"}
        for ph in placeholders:
            if ph not in path_params:
                raise ValueError(f"placeholder {{{ph}}} in path is not a declared path parameter")
        for name in path_params:
            if name not in placeholders:
                raise ValueError(f"path parameter {name!r} does not appear in the path")
        if len(placeholders) != len(set(placeholders)):
            raise ValueError("a placeholder appears twice in the path")
        has_body = any(p.location == "body" for p in self.parameters)
        if self.body == "graphql" and not self.graphql:
            raise ValueError("a graphql endpoint needs its `graphql` document")
        if self.graphql and self.body != "graphql":
            raise ValueError("`graphql` is only allowed with `body: graphql`")
        if has_body and self.method in READ_METHODS:
            raise ValueError(f"a {self.method} endpoint cannot have body parameters")
        self._one_whole_body()
        if self.body not in FILE_BODIES and any(p.file for p in self.parameters):
            raise ValueError("a file parameter needs `body: multipart`, `binary` or `related`")
        body_params = [p for p in self.parameters if p.location == "body"]
        if self.body == "binary" and (len(body_params) != 1 or not body_params[0].file):
            raise ValueError("`body: binary` takes exactly one body parameter, a file")
        files = [p for p in body_params if p.file]
        if self.body == "related" and (len(files) != 1 or not files[0].required):
            raise ValueError("`body: related` takes one required file and its JSON metadata")
        paging = self.pagination
        for label in ("param", "size_param"):
            named = getattr(paging, label) if paging is not None else None
            if named is not None and named not in seen:
                raise ValueError(f"pagination.{label} {named!r} is not a declared parameter")
        if self.destructive is None:
            derived = destructive.derive(self.method, self.name, self.operation)
            object.__setattr__(self, "destructive", derived)  # frozen: set once, here
        return self

    def _one_whole_body(self) -> None:
        body = [p for p in self.parameters if p.location == "body"]
        if any(p.whole_body for p in body) and (len(body) > 1 or self.body_encoding != "json"):
            raise ValueError("a whole_body parameter must be the only one of a JSON body")
        if self.content_type and self.body_encoding != "json":
            raise ValueError("`content_type` is only for a JSON body")

    @property
    def body_encoding(self) -> BodyEncoding | None:
        if self.body is not None:
            return self.body
        if any(p.location == "body" for p in self.parameters):
            return "json"
        return None

    @property
    def mutates(self) -> bool:
        if self.changes_data is not None:
            return self.changes_data
        return self.method not in READ_METHODS


class VerifyRequest(_Frozen):
    method: HttpMethod = "GET"
    path: str
    # For GraphQL APIs: the query to send as the verification request.
    graphql: str | None = None


class Timeouts(_Frozen):
    connect: float = Field(default=5.0, gt=0, le=60)
    total: float = Field(default=30.0, gt=0, le=300)


def _says_schema(schema: dict[str, Any]) -> None:
    """The file's `says:` block in the JSON schema (the loader puts it on the endpoints)."""
    phrasing = {"type": "string", "minLength": SAID[0], "maxLength": SAID[1]}
    schema["properties"]["says"] = {
        "title": "Says",
        "description": "Per endpoint name, requests in users' words that it answers "
        "(search indexes them; docs/catalog.md).",
        "type": "object",
        "additionalProperties": {"type": "array", "items": phrasing, "maxItems": SAYS_MOST},
    }


class Integration(_Frozen):
    model_config = ConfigDict(frozen=True, extra="forbid", json_schema_extra=_says_schema)

    slug: str
    name: str = Field(min_length=2)
    description: str = Field(min_length=10)
    base_url: BaseUrl
    docs_url: str | None = None
    auth: Auth
    verify: VerifyRequest
    default_headers: dict[str, str] = Field(default_factory=dict)
    common_errors: tuple[ErrorDoc, ...] = ()
    # Upstream timeouts for this integration; unset: the server's settings.
    timeouts: Timeouts | None = None
    # How the API reports failure inside a 2xx body: `slack` (`"ok": false`) or
    # `graphql` (an `errors` array). The envelope then carries `error`, not `data`.
    body_errors: Literal["slack", "graphql"] | None = None
    # The operator's explicit leave (`skillgate catalog import --allow-private-network`)
    # for this integration's calls to reach loopback, private or link-local addresses
    # (169.254.169.254 included); without it the executor refuses them (kit.outbound).
    # Values the user gives when connecting, filled into `{name}` in the base URLs
    # (catalog.hosts): Jira's site, Mailchimp's data centre, Shopify's shop.
    variables: tuple[ConnectionVariable, ...] = ()
    allow_private_network: bool = Field(
        default=False,
        description="Let calls reach loopback, private or link-local addresses "
        "(set by an operator: `skillgate catalog import --allow-private-network`).",
    )
    endpoints: tuple[Endpoint, ...] = Field(min_length=1)

    @field_validator("slug")
    @classmethod
    def _slug_shape(cls, v: str) -> str:
        if not SLUG_RE.match(v):
            raise ValueError(f"slug {v!r} must match {SLUG_RE.pattern}")
        if "__" in v or v.endswith("_"):
            # `svc pull` writes it to `svc-<slug with - for _>`, an Agent Skills name:
            # no double or trailing hyphen.
            raise ValueError(f"slug {v!r} must not have a double or trailing underscore")
        if v in RESERVED_SLUGS:
            raise ValueError(f"slug {v!r} is reserved for the API's own paths")
        return v

    @model_validator(mode="before")
    @classmethod
    def _filled(cls, data: Any) -> Any:
        return fills.expand(data)  # the parameters a connection variable fills

    @model_validator(mode="before")
    @classmethod
    def _said(cls, data: Any) -> Any:
        return _spread_says(data)

    @model_validator(mode="after")
    def _unique_names(self) -> Integration:
        seen: set[str] = set()
        for e in self.endpoints:
            if e.name in seen:
                raise ValueError(f"endpoint {e.name!r} is declared twice")
            seen.add(e.name)
        for e in self.endpoints:
            for alias in e.aliases:
                if alias in seen:
                    raise ValueError(f"endpoint {e.name!r}: alias {alias!r} names another call")
                seen.add(alias)
        check_hosts(self.hosts, self.variables)
        fills.check(self.variables, self.endpoints)
        return self

    @cached_property
    def named(self) -> dict[str, Endpoint]:
        """Each endpoint by its name and by each of its former names (`aliases`; never
        another's name: `_unique_names`)."""
        named = {a: e for e in self.endpoints for a in e.aliases}
        named.update({e.name: e for e in self.endpoints})
        return named

    @property
    def hosts(self) -> tuple[str, ...]:
        """Every base URL the catalog lists for this integration, its own first."""
        return listed_hosts(self.base_url, (e.base_url for e in self.endpoints))


def _spread_says(data: Any) -> Any:
    """The file's `says:` block (endpoint name -> requests in users' words) put on each
    endpoint it names (`Endpoint.says`); a name no endpoint of the file has is refused."""
    if not isinstance(data, dict) or "says" not in data:
        return data
    says, endpoints = data["says"], data.get("endpoints")
    if not isinstance(says, dict):
        raise ValueError("`says` must map endpoint names to lists of requests")
    if not isinstance(endpoints, list):
        return data  # the model reports it
    at = {e.get("name"): i for i, e in enumerate(endpoints) if isinstance(e, dict)}
    spread = list(endpoints)
    for name, texts in says.items():
        if name not in at:
            raise ValueError(f"says: no endpoint named {name!r}")
        spread[at[name]] = {**spread[at[name]], "says": texts}
    return {**{k: v for k, v in data.items() if k != "says"}, "endpoints": spread}
