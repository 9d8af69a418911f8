"""The download bundle: SKILL.md plus one markdown file per endpoint.

What `svc pull` writes into the agent's skill directory. The front matter follows
the Agent Skills format: `name` equals the folder (`svc-<slug>`, `_` written `-`),
`description` at most 1,024 characters, and the rest under `metadata` (strings):
`version`, a hash of the catalog entry so a changed catalog is visible, and
`integration`, the slug.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from skillgate.catalog.models import Endpoint, Integration
from skillgate.discovery.documents import endpoint_doc


def catalog_version(integration: Integration) -> str:
    canonical = json.dumps(integration.model_dump(mode="json"), sort_keys=True).encode()
    return hashlib.sha256(canonical).hexdigest()[:12]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _yaml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid YAML scalar


def _first_sentence(text: str) -> str:
    end = text.find(". ")
    return text if end == -1 else text[: end + 1]


MAX_DESCRIPTION = 1024  # the Agent Skills format's limit


def skill_name(slug: str) -> str:
    """The skill's `name`, equal to the folder `svc pull` writes it to (`svc-google-calendar`):
    the Agent Skills format allows [a-z0-9-] only."""
    return "svc-" + slug.replace("_", "-")


def skill_description(integration: Integration) -> str:
    """What the integration is for and how to call it, cut to fit 1,024 characters."""
    tail = (
        f" Use `svc run {integration.slug} <endpoint>` to call it; "
        "the gateway holds the credentials."
    )
    head = f"{integration.name} through Skill Gateway: {integration.description}"
    room = MAX_DESCRIPTION - len(tail)
    if len(head) > room:
        head = head[: room - 1].rstrip() + "…"
    return head + tail


def skill_md(integration: Integration, endpoints: list[Endpoint]) -> str:
    slug = integration.slug
    lines = [
        "---",
        f"name: {skill_name(slug)}",
        "description: " + _yaml_str(skill_description(integration)),
        "metadata:",
        f'  version: "{catalog_version(integration)}"',
        f"  integration: {slug}",
        "  generator: skillgate",
        "---",
        "",
        f"# {integration.name}",
        "",
        integration.description,
        "",
        "## How to run an endpoint",
        "",
        "```sh",
        f"svc skills {slug} <endpoint>        # full documentation of one endpoint",
        f"svc run {slug} <endpoint> --param value ...",
        "```",
        "",
        "Flags become parameters: `--name text` is a string, `--n 5` a number, a bare",
        "`--flag` is true, `--tags a,b` an array, and a JSON object or array argument is",
        'parsed as JSON. The result is JSON: `{"status": <upstream status>, "data": ...}`',
        'on success, `{"status": ..., "error": ...}` when the service refused the call.',
        "Exit code 0 means a 2xx answer, 1 a client error (fix the parameters), 2 a",
        "network or server error (retry later).",
        "",
        *_safe_calls(slug, endpoints),
    ]
    lines += _endpoint_section(slug, endpoints)
    lines += _connecting_and_errors(integration)
    return "\n".join(lines) + "\n"


def _safe_calls(slug: str, endpoints: list[Endpoint]) -> list[str]:
    """When to preview, confirm, page and select fields (docs/execution.md)."""
    destructive = [e.name for e in endpoints if e.destructive]
    lines = [
        "## Safe and economical calls",
        "",
        "- `--dry-run` shows the exact request (method, URL, headers, body; credentials",
        "  redacted) and sends nothing: use it before any call you are unsure of.",
    ]
    if destructive:
        shown = ", ".join(f"`{n}`" for n in destructive[:12])
        more = f" and {len(destructive) - 12} more" if len(destructive) > 12 else ""
        lines += [
            f"- Destructive endpoints ({shown}{more}; `destructive` in their docs) may answer",
            "  `confirmation_required` with a preview: show it to the user, and only with",
            "  their consent repeat the call with `--confirm <token>` (valid 5 minutes).",
        ]
    lines += [
        "- `--all` (with `--max-items N`, `--max-pages P`) follows the pages of a list",
        "  endpoint for you; the answer says how to continue when a cap stopped it.",
        "- `--fields a,b.c` keeps only those fields of the data: ask for what you need.",
        "- Writes you may retry: add `--retry` (or `--idempotency-key K`); a repeat is",
        "  answered from the first call, never sent twice.",
        f"- Large answers are saved to a file (`saved_to`); read it there. Example:"
        f" `svc run {slug} <endpoint> --all --fields id,name`.",
        "",
    ]
    return lines


LARGE = 60  # above this many endpoints SKILL.md lists categories and how to search
COMMON = 25  # ... and the first endpoints of the catalog (the curated ones come first)


def _rows(endpoints: list[Endpoint]) -> list[str]:
    lines = [
        "| Category | Endpoint | Method | What it does | Docs |",
        "|---|---|---|---|---|",
    ]
    for e in endpoints:
        what = _cell(_first_sentence(e.description)) + (
            " **Destructive.**" if e.destructive else ""
        )
        lines.append(
            f"| {e.category} | `{e.name}` | {e.method} | {what} "
            f"| [endpoints/{e.category}/{e.name}.md](endpoints/{e.category}/{e.name}.md) |"
        )
    return lines


def _endpoint_section(slug: str, endpoints: list[Endpoint]) -> list[str]:
    """Every endpoint as a row; for a large integration, its categories, how to search,
    and the common endpoints instead (an agent reads SKILL.md whole)."""
    if len(endpoints) <= LARGE:
        return ["## Endpoints", "", *_rows(endpoints)]
    by_category: dict[str, list[str]] = {}
    for e in endpoints:
        by_category.setdefault(e.category, []).append(e.name)
    lines = [
        "## Finding an endpoint",
        "",
        f"This integration has {len(endpoints)} endpoints in {len(by_category)} categories.",
        "Search them by what you want to do, or list one category:",
        "",
        "```sh",
        f'svc skills --search "what you want to do" --integration {slug}',
        f"svc skills {slug} --category <category>",
        "```",
        "",
        "Every endpoint's documentation is in `endpoints/<category>/<endpoint>.md`.",
        "",
        "| Category | Endpoints | For example |",
        "|---|---|---|",
    ]
    for category, names in sorted(by_category.items()):
        examples = ", ".join(f"`{n}`" for n in names[:3])
        lines.append(f"| {category} | {len(names)} | {examples} |")
    lines += ["", "## Common endpoints", "", *_rows(endpoints[:COMMON])]
    return lines


def _variables(integration: Integration) -> list[str]:
    """What the user gives when connecting besides credentials (catalog.hosts)."""
    if not integration.variables:
        return []
    lines = ["", "When connecting, the user also gives:", ""]
    for var in integration.variables:
        example = f" (e.g. `{var.example}`)" if var.example else ""
        filled = ", ".join(f"`{name}`" for name in var.fills)
        fills = f" A call that leaves out {filled} gets this value." if filled else ""
        lines.append(f"- `{var.name}`: {var.label}{example}. {var.help}{fills}")
    return lines


def _connecting_and_errors(integration: Integration) -> list[str]:
    """SKILL.md's closing sections: how to connect, and the errors to expect."""
    slug = integration.slug
    lines = ["", "## Connecting and authentication", ""]
    methods = []
    if integration.auth.oauth2 is not None:
        methods.append("OAuth (the dashboard's Connect button, or `svc connect " + slug + "`)")
    if integration.auth.token is not None:
        methods.append(f"a pasted {integration.auth.token.label}")
    if integration.auth.basic is not None:
        basic = integration.auth.basic
        methods.append(f"{basic.username_label} and {basic.password_label} (HTTP Basic)")
    lines += [
        f"Connect {integration.name} with " + " or ".join(methods) + ". The gateway keeps the",
        "credentials; they never reach the agent. When a call answers",
        "`integration_not_connected` or `token_expired`, show the user the `action_url`",
        "from the response so they can (re)connect, then retry.",
        *_variables(integration),
        "",
        "## Errors",
        "",
        "| Code | Cause | Fix |",
        "|---|---|---|",
        "| 403 `integration_not_connected` | The user has not connected this integration. "
        "| Ask the user to open the `action_url`. |",
        "| 403 `scope_not_allowed` | The API key is not allowed this integration or action. "
        "| Use a key with the right scopes. |",
        "| 429 `rate_limited` | Too many calls for the plan. | Wait `Retry-After` seconds. |",
    ]
    for err in integration.common_errors:
        lines.append(f"| {err.code} | {_cell(err.cause)} | {_cell(err.fix)} |")
    return lines


def endpoint_md(integration: Integration, e: Endpoint) -> str:
    doc = endpoint_doc(integration, e)
    lines = [
        f"# {integration.name}: {e.name}",
        "",
        f"`{e.method}` · category `{e.category}` · "
        + ("changes data" if doc["changes_data"] else "read-only")
        + (
            " · **destructive**: may ask for confirmation (`--dry-run` to preview)"
            if doc["destructive"]
            else ""
        ),
        "",
        e.description,
        "",
        "## Example",
        "",
        "```sh",
        doc["example"],
        "```",
        "",
        "## Parameters",
        "",
    ]
    if doc["parameters"]:
        lines += ["| Name | Type | Required | In | Description |", "|---|---|---|---|---|"]
        for p in doc["parameters"]:
            extra = ""
            if "enum" in p:
                extra += " One of: " + ", ".join(f"`{v}`" for v in p["enum"]) + "."
            if "default" in p:
                extra += f" Default: `{json.dumps(p['default'])}`."
            ptype = p["type"] + (f" of {p['items']}" if "items" in p else "")
            lines.append(
                f"| `{p['name']}` | {ptype} | {'yes' if p['required'] else 'no'} | {p['in']} "
                f"| {_cell(p['description'])}{_cell(extra)} |"
            )
    else:
        lines.append("None.")
    if "pagination" in doc:
        pg: dict[str, Any] = doc["pagination"]
        lines += ["", "## Pagination", "", f"Style `{pg['style']}`"]
        if "param" in pg:
            lines[-1] += f": pass `--{pg['param']}` for the next page"
        if "next" in pg:
            lines[-1] += f" (from `{pg['next']}` in the response)"
        if "size_param" in pg:
            lines[-1] += f"; page size `--{pg['size_param']}`"
        lines[-1] += "."
    if "scopes" in doc:
        listed = ", ".join(f"`{s}`" for s in doc["scopes"])
        lines += ["", "## OAuth scopes", "", f"The connection's token needs one of: {listed}."]
    lines += ["", "## Errors", "", "| Code | Cause | Fix |", "|---|---|---|"]
    for err in doc["errors"]:
        lines.append(f"| {err['code']} | {_cell(err['cause'])} | {_cell(err['fix'])} |")
    return "\n".join(lines) + "\n"


def bundle(integration: Integration, endpoints: list[Endpoint]) -> dict[str, Any]:
    files = [{"file_path": "SKILL.md", "content": skill_md(integration, endpoints)}]
    for e in endpoints:
        files.append(
            {
                "file_path": f"endpoints/{e.category}/{e.name}.md",
                "content": endpoint_md(integration, e),
            }
        )
    return {"slug": integration.slug, "files": files}
