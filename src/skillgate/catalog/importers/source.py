"""What an importer hands the shared compiler, and what the compiler hands back.

Each importer (OpenAPI, Google Discovery) reads its own format into
`SourceOperation`s: the operation as the document states it (wire names, JSON
Schema fragments with every `$ref` already resolved), with no catalog rules
applied. `skillgate.catalog.importers.compile` turns those into catalog endpoint
dicts, or a `Skipped` entry saying why one cannot be mapped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Schema = dict[str, Any]
# The operation keys of an OpenAPI (or Swagger) path item.
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


class DocumentError(Exception):
    """A document the importer cannot read at all (wrong format, unsupported version)."""


class SkipOperation(Exception):
    """One operation the catalog cannot express; the message is the reason."""


# What reading one malformed operation can raise (a list where an object belongs, ...):
# caught per operation, so one bad operation never stops the import.
UNMAPPABLE = (SkipOperation, AttributeError, IndexError, KeyError, TypeError, ValueError)


def reason_of(exc: Exception) -> str:
    if isinstance(exc, SkipOperation):
        return str(exc)
    return f"the operation is malformed ({type(exc).__name__}: {exc})"


@dataclass(frozen=True)
class Skipped:
    """An operation left out of the catalog, and why (nothing is dropped silently)."""

    operation: str
    method: str
    path: str
    reason: str


@dataclass
class SourceParam:
    """A path, query, header or cookie parameter as the document declares it."""

    wire: str
    location: str  # path | query | header | cookie
    schema: Schema
    required: bool = False
    description: str = ""
    # Query arrays sent as repeated keys (`a=1&a=2`, the default) or not.
    explode: bool = True
    multi_segment: bool = False
    # An example the document gives outside the schema (OpenAPI `example`/`examples`).
    examples: tuple[Any, ...] = ()
    # OpenAPI `style` (form, deepObject, simple, ...).
    style: str = "form"


@dataclass
class SourceBody:
    schema: Schema
    encoding: str  # json | form | multipart | binary
    required: bool = False
    # The Content-Type to send when not the encoding's own (`application/merge-patch+json`).
    content_type: str | None = None
    # A form or multipart body's OpenAPI `encoding`: property -> (style, explode).
    styles: dict[str, tuple[str, bool]] = field(default_factory=dict)


@dataclass
class SourceOperation:
    operation: str  # operationId / Google method id; "" when the document gives none
    method: str  # upper case
    path: str
    name: str  # the endpoint name before uniqueness (snake_case)
    category: str
    summary: str
    description: str
    docs_url: str | None
    params: list[SourceParam]
    body: SourceBody | None = None
    # Documented responses: status code -> description (error statuses are used).
    responses: dict[int, str] = field(default_factory=dict)
    # The success response's JSON schema, for pagination recognition.
    result_schema: Schema | None = None
    # The success answer's schema for the endpoint tool's output schema, where the
    # importer finds one result_schema does not take (OpenAPI `2XX`, `*/*`).
    answer_schema: Schema | None = None
    # The operation's own host when not the document's (OpenAPI per-operation servers).
    base_url: str | None = None
    # The success response declares a `Link` header (RFC 8288 pagination).
    link_header: bool = False
    # The provider says the operation only reads (a POST search); None: no hint.
    reads: bool | None = None
    deprecated: bool = False
    # OAuth scopes any one of which allows the call (Google's per-method `scopes`).
    scopes: tuple[str, ...] = ()
    # A query string written into the path (`/v1/messages?beta=true`): sent on every call.
    query: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.operation or f"{self.method} {self.path}"


@dataclass
class Imported:
    """An imported document: catalog endpoint dicts plus what it says about the API."""

    endpoints: list[dict[str, Any]]
    skipped: list[Skipped]
    title: str
    description: str
    base_url: str | None
    docs_url: str | None
    # A relative server (`/v1.56`): appended to a `--base-url` that has no path.
    base_path: str | None = None
    # OAuth 2.0 as the document declares it: scope -> description, in document order.
    scopes: dict[str, str] = field(default_factory=dict)
    authorize_url: str | None = None
    token_url: str | None = None
    authorize_params: dict[str, str] = field(default_factory=dict)
    # How a pasted credential is sent when the document says (an auth spec of
    # `importers.security`: `bearer`, `basic`, `header:X-Api-Key`, `query:key`,
    # `query:key+query:token`); None when it declares no usable scheme.
    auth_hint: str | None = None
    # What the dashboard says about a pasted token, when the importer knows better
    # than "Paste an API token for <name>." (Google: a short-lived OAuth token).
    token_label: str | None = None
    token_help: str | None = None
    # A request that proves a token works (see `compile.choose_verify`).
    verify_path: str | None = None
    # Scopes each endpoint accepts (Google methods list them): endpoint name -> scopes.
    endpoint_scopes: dict[str, list[str]] = field(default_factory=dict)
    # Parts left out of kept operations (an optional cookie parameter, ...), one line each.
    notes: list[str] = field(default_factory=list)
    # The document server's variables: name -> {"description", "default"} (OpenAPI).
    server_variables: dict[str, dict[str, str]] = field(default_factory=dict)
    # Compact 2xx response schemas by endpoint key (compile.response_key).
    responses: dict[str, Any] = field(default_factory=dict)
