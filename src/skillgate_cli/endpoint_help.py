"""`svc run <integration> <endpoint> --help`: that endpoint's documentation, readable.

Built from GET /v1/skills/:integration/:endpoint (the JSON `svc skills i e`
prints): the description, each parameter (type, required, location,
enum/default, description), the example and the errors.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

WIDTH = 88
INDENT = "      "


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(
        " ".join(str(text).split()), WIDTH, initial_indent=indent, subsequent_indent=indent
    ) or [indent.rstrip()]


def _parameter(p: dict[str, Any]) -> list[str]:
    kind = str(p.get("type", "?"))
    if p.get("items"):
        kind += f" of {p['items']}"
    facts = [kind, "required" if p.get("required") else "optional", f"in {p.get('in', '?')}"]
    if isinstance(p.get("enum"), list):
        facts.append("one of " + ", ".join(json.dumps(v) for v in p["enum"]))
    if "default" in p:
        facts.append(f"default {json.dumps(p['default'])}")
    lines = [f"  --{p.get('name', '?')}  ({'; '.join(facts)})"]
    if p.get("description"):
        lines += _wrap(str(p["description"]), INDENT)
    return lines


def render(integration: str, endpoint: str, doc: dict[str, Any]) -> str:
    """The help text for one endpoint's documentation object."""
    lines = [f"Usage: svc run {integration} {endpoint} [--param value ...]", ""]
    lines += _wrap(str(doc.get("description", "")))
    facts = [str(doc.get("method", "")), "changes data" if doc.get("changes_data") else "read-only"]
    if doc.get("status") == "not_connected":
        facts.append(f"not connected: run `svc connect {integration}` first")
    lines += ["", "  " + " · ".join(f for f in facts if f), "", "Parameters:"]
    params = doc.get("parameters") or []
    for p in params:
        if isinstance(p, dict):
            lines += _parameter(p)
    if not params:
        lines.append("  none")
    if doc.get("example"):
        lines += ["", "Example:", f"  {doc['example']}"]
    errors = [e for e in doc.get("errors") or [] if isinstance(e, dict)]
    if errors:
        lines += ["", "Errors:"]
        for e in errors:
            lines += _wrap(f"{e.get('code')}: {e.get('cause', '')} {e.get('fix', '')}".strip())
    lines += [
        "",
        "Flags become parameters (`svc help run`); the answer is JSON on stdout.",
        f"JSON documentation: `svc skills {integration} {endpoint}`.",
    ]
    return "\n".join(lines)
