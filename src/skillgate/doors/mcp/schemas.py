"""The MCP tools' definitions: names, JSON Schema inputs, annotations.

Four tools keep an agent's context small (progressive disclosure): list,
search, read one endpoint's documentation, run it. A key scoped to a few
integrations may also ask for one tool per endpoint (`endpoint_tool`).
"""

from __future__ import annotations

from typing import Any

import mcp_types as types

from skillgate.catalog import response_schemas
from skillgate.catalog.models import NAME_MAX, SLUG_MAX, Endpoint, Integration, Parameter
from skillgate.discovery import arguments
from skillgate.discovery.documents import FILE_HOWTO
from skillgate.doors.mcp import outputs
from skillgate.executor import options

LIST_INTEGRATIONS = "list_integrations"
SEARCH_SKILLS = "search_skills"
GET_SKILL = "get_skill"
RUN_SKILL = "run_skill"
RUN_SKILL_WRITE = "run_skill_write"
SEPARATOR = "__"  # <integration>__<endpoint>
MAX_ENDPOINT_TOOLS = 100

_SLUG = {"type": "string", "minLength": 1, "maxLength": SLUG_MAX, "description": "Integration slug"}
_NAME = {"type": "string", "minLength": 1, "maxLength": NAME_MAX, "description": "Endpoint name"}
_READ = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


# run_skill's options are the HTTP API's (executor.options), the header as an argument.
OPTION_PROPERTIES: dict[str, Any] = {**options.SCHEMA, "idempotency_key": options.KEY_SCHEMA}
# run_skill's: a call that changes nothing has no confirmation and nothing to repeat safely.
READ_OPTION_PROPERTIES = {
    k: v for k, v in OPTION_PROPERTIES.items() if k not in ("confirm", "idempotency_key")
}
# An endpoint tool's arguments are the endpoint's parameters (which start with a letter),
# plus these two options, so a destructive call can be previewed and confirmed from it.
ENDPOINT_OPTIONS = {"_dry_run": "dry_run", "_confirm": "confirm"}
_ENDPOINT_OPTION_PROPERTIES: dict[str, Any] = {
    argument: options.SCHEMA[option] for argument, option in ENDPOINT_OPTIONS.items()
}


def _obj(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    return schema


def _tool(
    name: str,
    title: str,
    description: str,
    schema: dict[str, Any],
    notes: types.ToolAnnotations,
    output: dict[str, Any],
) -> types.Tool:
    return types.Tool(
        name=name,
        title=title,
        description=description,
        input_schema=schema,
        output_schema=output,
        annotations=notes,
    )


def _run_schema(options: dict[str, Any]) -> dict[str, Any]:
    params = {"type": "object", "description": "The endpoint's parameters", "default": {}}
    return _obj(
        {"integration": _SLUG, "endpoint": _NAME, "params": params, **options},
        ["integration", "endpoint"],
    )


_RUN_DESCRIPTION = (
    "Answers {status, data} or {status, error}; data past the output budget is cut "
    "(truncated: true; narrow it with fields or max_bytes). Read the endpoint with "
    "get_skill first. dry_run previews without sending; paginate follows pages; fields "
    "keeps only what you need."
)
READ_TOOLS: tuple[types.Tool, ...] = (
    _tool(
        LIST_INTEGRATIONS,
        "List integrations",
        "The integrations this API key may use: slug, name, status (connected or "
        "not_connected for you), endpoint count, description.",
        _obj({}, []),
        _READ,
        outputs.LISTING,
    ),
    _tool(
        SEARCH_SKILLS,
        "Search skills",
        "Find the endpoints that do a task described in words, best first (integration, "
        "name, method, path, category, description, match 0-1, status). Then get_skill "
        "for one. no_match true: no endpoint fits the task; do not act on a guess.",
        _obj(
            {
                "query": {**arguments.QUERY, "description": "What you want to do, in words"},
                "integration": {
                    **arguments.INTEGRATION,
                    "description": "Only this integration's endpoints",
                },
                "limit": arguments.LIMIT,
            },
            ["query"],
        ),
        _READ,
        outputs.SEARCH,
    ),
    _tool(
        GET_SKILL,
        "Get a skill's documentation",
        "One endpoint's full documentation: parameters (name, type, required, "
        "description), an example, the errors it can answer with their fixes.",
        _obj({"integration": _SLUG, "endpoint": _NAME}, ["integration", "endpoint"]),
        _READ,
        outputs.SKILL,
    ),
    _tool(
        RUN_SKILL,
        "Run a read-only skill",
        "Call an endpoint that changes nothing (changes_data false: GET and the like) of a "
        "connected integration with its parameters; the gateway holds the credentials. "
        "An endpoint that changes data is refused here: use run_skill_write. " + _RUN_DESCRIPTION,
        _run_schema(READ_OPTION_PROPERTIES),
        types.ToolAnnotations(
            read_only_hint=True,
            destructive_hint=False,
            idempotent_hint=True,
            open_world_hint=True,
        ),
        outputs.ENVELOPE,
    ),
)
WRITE_TOOL = _tool(
    RUN_SKILL_WRITE,
    "Run a skill that changes data",
    "Call an endpoint that changes data (changes_data true: creates, updates, sends, "
    "deletes) of a connected integration; the gateway holds the credentials. Destructive "
    "ones may answer confirmation_required with a preview of the exact request and a "
    "token: show it to the user and, with their consent, call again with confirm. "
    + _RUN_DESCRIPTION,
    _run_schema(OPTION_PROPERTIES),
    types.ToolAnnotations(
        read_only_hint=False,
        destructive_hint=True,
        idempotent_hint=False,
        open_world_hint=True,
    ),
    outputs.ENVELOPE,
)
GENERIC_TOOLS: tuple[types.Tool, ...] = (*READ_TOOLS, WRITE_TOOL)
GENERIC_NAMES = frozenset(t.name for t in GENERIC_TOOLS)


def _parameter_schema(p: Parameter) -> dict[str, Any]:
    # A union's other types and `null` where the source accepts them (a JSON Schema type list).
    kinds = [p.type, *p.also, *(["null"] if p.nullable else [])]
    schema: dict[str, Any] = {"type": kinds[0] if len(kinds) == 1 else kinds}
    schema["description"] = p.description
    if p.file:  # its text, or {"base64", "filename", "content_type"} (executor.uploads)
        schema["type"] = ["string", "object"]
        schema["description"] = f"{p.description} {FILE_HOWTO}"
    if "array" in kinds and p.items is not None:
        schema["items"] = {"type": p.items}
    if p.enum is not None:
        schema["enum"] = [*p.enum, *([None] if p.nullable else [])]
    if p.default is not None:
        schema["default"] = p.default
    return schema


def endpoint_tool(integration: Integration, endpoint: Endpoint) -> types.Tool:
    """`<integration>__<endpoint>`, its input schema generated from the catalog's
    parameters (the executor still checks and coerces them, as for run_skill), its
    output schema the envelope with the source's answer shape where it has one."""
    schema = _obj(
        {
            **{p.name: _parameter_schema(p) for p in endpoint.parameters},
            **(_ENDPOINT_OPTION_PROPERTIES if endpoint.mutates else {}),
        },
        [p.name for p in endpoint.parameters if p.required],
    )
    mutates = endpoint.mutates
    return _tool(
        f"{integration.slug}{SEPARATOR}{endpoint.name}",
        f"{integration.name}: {endpoint.name}",
        f"{endpoint.method} {endpoint.path}. {endpoint.description}"[:1024],
        schema,
        types.ToolAnnotations(
            read_only_hint=not mutates,
            # MCP's destructive: may delete or overwrite, not merely add (catalog.destructive).
            destructive_hint=bool(endpoint.destructive),
            # A call that changes nothing is idempotent, whatever its method (a search by POST).
            idempotent_hint=not mutates or endpoint.method in ("PUT", "DELETE"),
            open_world_hint=True,
        ),
        outputs.endpoint_envelope(response_schemas.schema_of(integration.slug, endpoint)),
    )
