"""`svc mcp`: a stdio MCP server that forwards to the gateway's `/mcp`, and
`svc mcp config`: the configuration snippet for an MCP client.

The gateway's MCP door is stateless and answers each POST with one JSON message, so
the stdio server is a relay: one JSON-RPC message per line in, one POST to `/mcp`
with the project's key (.env or SVC_API_KEY), its answer as one line out. Nothing
here needs the `mcp` package: `svc` stays the standard library plus click (its
start-up is paid on every call), and what the tools do is decided in one place, the
gateway. Messages are relayed one at a time, in order.

Each POST carries the headers Streamable HTTP asks of a client, taken from the message
itself (stdio has no headers to copy):

- `MCP-Protocol-Version`: the message's own `params._meta`
  `io.modelcontextprotocol/protocolVersion` when it has one (revision 2026-07-28: every
  request carries its version, there is no `initialize`), else the version the
  `initialize` answer negotiated (2025-06-18, 2025-11-25), else none;
- `Mcp-Method`: the JSON-RPC method; `Mcp-Name`: `params.name` of `tools/call` and
  `prompts/get`, `params.uri` of `resources/read` (2026-07-28 requires both and checks
  them against the body). Values that are not plain printable ASCII go as
  `=?base64?<UTF-8 bytes>?=`, as the revision says.

- `Mcp-Session-Id`: the one the `initialize` answer gave, on every later POST (the
  gateway gives one to a 2025-11-25 client that declared URL elicitation: it
  carries what the client declared, so a call to a not-connected integration asks
  with the connect link, -32042).

`Mcp-Param-*` headers (for tool arguments a schema marks `x-mcp-header`) are not sent:
the gateway's tools mark none.
"""

from __future__ import annotations

import base64
import json
import re
import sys
from typing import Any, BinaryIO

import click

from skillgate_cli.config import Config
from skillgate_cli.errors import LOGIN_HINT, CliError

CLIENTS = ("claude", "cursor", "vscode", "windsurf")
_HEADERS = {"Accept": "application/json, text/event-stream"}
_INTERNAL_ERROR = -32603
_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"  # params._meta, 2026-07-28
_NAME_PARAM = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
_PLAIN = re.compile(r"^[\x20-\x7e]*$")
_SENTINEL = re.compile(r"^=\?base64\?.*\?=$")


def header_value(text: str) -> str:
    """`text` as an MCP header carries it: as it is when plain printable ASCII without
    edge spaces, else `=?base64?...?=` of its UTF-8 bytes (2026-07-28, Streamable HTTP)."""
    if _PLAIN.match(text) and text == text.strip() and not _SENTINEL.match(text):
        return text
    return "=?base64?" + base64.b64encode(text.encode("utf-8")).decode("ascii") + "?="


def message_headers(message: Any, negotiated: str | None) -> dict[str, str]:
    """The MCP headers of one POST for `message` (a decoded JSON-RPC message)."""
    headers: dict[str, str] = {}
    version = negotiated
    if isinstance(message, dict):
        method, params = message.get("method"), message.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        pinned = meta.get(_VERSION_KEY) if isinstance(meta, dict) else None
        if isinstance(pinned, str) and pinned:
            version = pinned
        if isinstance(method, str) and method:
            headers["Mcp-Method"] = header_value(method)
            key = _NAME_PARAM.get(method)
            name = params.get(key) if key and isinstance(params, dict) else None
            if isinstance(name, str):
                headers["Mcp-Name"] = header_value(name)
    if version:
        headers["MCP-Protocol-Version"] = header_value(version)
    return headers


def _error(ident: Any, message: str, data: dict[str, Any] | None = None) -> bytes:
    error: dict[str, Any] = {"code": _INTERNAL_ERROR, "message": message}
    if data:
        error["data"] = data
    return json.dumps({"jsonrpc": "2.0", "id": ident, "error": error}).encode()


def _ident(message: Any) -> Any:
    return message.get("id") if isinstance(message, dict) else None


class Relay:
    """stdin lines to POST /mcp, answers to stdout lines."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.version: str | None = None  # negotiated at initialize; sent on every later POST
        self.session: str | None = None  # the initialize answer's Mcp-Session-Id, likewise

    def forward(self, line: bytes) -> bytes | None:
        """The line to write back for one message; None for a notification (202)."""
        try:
            message = json.loads(line)
        except ValueError:
            message = None  # the gateway answers it (a parse error)
        extra = {**_HEADERS, **message_headers(message, self.version)}
        if self.session is not None:
            extra["Mcp-Session-Id"] = self.session
        try:
            resp = self.client.request("POST", "/mcp", raw=line, extra=extra)
        except CliError as exc:
            return _error(_ident(message), f"svc mcp could not reach the gateway: {exc.message}")
        if resp.status == 202 and not resp.body:
            return None
        answer = resp.json()
        if isinstance(answer, dict) and answer.get("jsonrpc") == "2.0":
            version = (answer.get("result") or {}).get("protocolVersion")
            if isinstance(version, str):
                self.version = version
                self.session = resp.headers.get("mcp-session-id")
            return json.dumps(answer, ensure_ascii=False).encode()
        code, text, action = resp.error_fields()  # the gateway's own error (401, 413, ...)
        if resp.status == 401 and "svc login" not in text:
            text = f"{text} ({LOGIN_HINT}, or set SVC_API_KEY)"
        data = {"error": code, "status": resp.status, **({"action_url": action} if action else {})}
        return _error(_ident(message), text, data)

    def serve(self, stdin: BinaryIO, stdout: BinaryIO) -> None:
        for line in stdin:
            if not line.strip():
                continue
            out = self.forward(line.strip())
            if out is not None:
                stdout.write(out + b"\n")
                stdout.flush()


@click.group("mcp", invoke_without_command=True)
@click.pass_context
def command(ctx: click.Context) -> int:
    """Serve MCP on stdin/stdout, forwarding to the gateway's /mcp with this project's key.

    For MCP clients that only launch local commands; `svc mcp config` prints the
    client's configuration (the HTTP form needs no local process at all).
    """
    if ctx.invoked_subcommand is not None:
        return 0
    from skillgate_cli.client import from_config

    client = from_config(Config.load())
    Relay(client).serve(sys.stdin.buffer, sys.stdout.buffer)
    return 0


@command.command("config")
@click.option("--client", "client_name", type=click.Choice(CLIENTS), default="claude",
              show_default=True, help="The MCP client to configure.")  # fmt: skip
@click.option("--form", type=click.Choice(("both", "http", "stdio")), default="both",
              show_default=True, help="http: the gateway's /mcp; stdio: `svc mcp`.")  # fmt: skip
def config_command(client_name: str, form: str) -> int:
    """Print the configuration snippet for an MCP client: the HTTP form (the client
    talks to the gateway's /mcp) and the stdio form (the client launches `svc mcp`)."""
    from skillgate_cli.mcp_config import env_note, render
    from skillgate_cli.output import say, write_stdout

    write_stdout(render(client_name, Config.load().base_url, form))
    note = env_note(client_name, form)
    if form == "http" and note:  # the JSON alone on stdout; the note beside it
        say(f"note: {note}")
    return 0
