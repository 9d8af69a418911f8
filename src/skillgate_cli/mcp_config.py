"""`svc mcp config`: each MCP client's configuration for the gateway, both forms.

HTTP: the client talks to `{base_url}/mcp` with `Authorization: Bearer <key>`; the
key is read from the environment (SVC_API_KEY) where the client can interpolate
one, or asked for (VS Code's inputs), so no snippet holds the key itself.
stdio: the client launches `svc mcp`, which reads the project's .env.

`svc login` writes the key to .env only, which no MCP client reads: `ENV_NOTE` says
so beside every HTTP snippet that takes the key from the environment.
"""

from __future__ import annotations

import json
from typing import Any

NAME = "skillgate"
STDIO = {"command": "svc", "args": ["mcp"]}


def _http(client: str, url: str) -> tuple[str, dict[str, Any]]:
    """(where it goes, the snippet) of the HTTP form."""
    if client == "claude":
        return ".mcp.json in the project (Claude Code; `${SVC_API_KEY}` from the environment)", {
            "mcpServers": {NAME: {"type": "http", "url": url,
                                  "headers": {"Authorization": "Bearer ${SVC_API_KEY}"}}}
        }  # fmt: skip
    if client == "cursor":
        return ".cursor/mcp.json in the project, or ~/.cursor/mcp.json", {
            "mcpServers": {NAME: {"url": url,
                                  "headers": {"Authorization": "Bearer ${env:SVC_API_KEY}"}}}
        }  # fmt: skip
    if client == "vscode":
        return ".vscode/mcp.json in the project (VS Code asks for the key once)", {
            "inputs": [{"type": "promptString", "id": "skillgate-key",
                        "description": "Skill Gateway API key (sk_...)", "password": True}],
            "servers": {NAME: {"type": "http", "url": url,
                               "headers": {"Authorization": "Bearer ${input:skillgate-key}"}}},
        }  # fmt: skip
    return "~/.codeium/windsurf/mcp_config.json", {
        "mcpServers": {NAME: {"serverUrl": url,
                              "headers": {"Authorization": "Bearer ${env:SVC_API_KEY}"}}}
    }  # fmt: skip


ENV_NOTE = (
    "The HTTP form reads the key from SVC_API_KEY in the environment the client starts "
    "in, and `svc login` writes it to .env only: export it first "
    "(`set -a; . ./.env; set +a`, then start the client from that shell), or use the "
    "stdio form, which reads .env."
)


def env_note(client: str, form: str) -> str | None:
    """The note for a snippet that needs SVC_API_KEY exported (VS Code asks instead)."""
    return ENV_NOTE if form in ("both", "http") and client != "vscode" else None


def _stdio(client: str) -> tuple[str, dict[str, Any]]:
    if client == "claude":
        return (".mcp.json in the project (Claude Code), or claude_desktop_config.json "
                "(Claude Desktop: add \"cwd\" or \"env\": {\"SVC_API_KEY\": ...})",
                {"mcpServers": {NAME: {"type": "stdio", **STDIO}}})  # fmt: skip
    if client == "vscode":
        return ".vscode/mcp.json in the project", {"servers": {NAME: {"type": "stdio", **STDIO}}}
    where = ".cursor/mcp.json" if client == "cursor" else "~/.codeium/windsurf/mcp_config.json"
    return where, {"mcpServers": {NAME: dict(STDIO)}}


def _command_line(client: str, url: str, form: str) -> str:
    if client != "claude":
        return ""
    if form == "http":
        return (f"claude mcp add --transport http {NAME} {url} "
                '--header "Authorization: Bearer $SVC_API_KEY"')  # fmt: skip
    return f"claude mcp add {NAME} -- svc mcp"


def render(client: str, base_url: str, form: str = "both") -> str:
    """One form's JSON alone (to pipe into the file), or both, each under a comment."""
    url = base_url.rstrip("/") + "/mcp"
    forms = {"http": _http(client, url), "stdio": _stdio(client)}
    if form != "both":
        return json.dumps(forms[form][1], indent=2)
    blocks = []
    for name, (where, snippet) in forms.items():
        how = "the client talks to the gateway" if name == "http" else "the client runs `svc mcp`"
        block = [f"# {name.upper()} ({how}): {where}"]
        note = env_note(client, name)
        if note:
            block.append(f"# {note}")
        block.append(json.dumps(snippet, indent=2))
        line = _command_line(client, url, name)
        if line:
            block.append(f"# or: {line}")
        blocks.append("\n".join(block))
    return "\n\n".join(blocks)
