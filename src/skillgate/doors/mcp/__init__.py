"""The MCP door: the same catalog, keys, scopes and executor for every MCP client.

`/mcp` serves MCP over Streamable HTTP with the official Python SDK (`mcp`),
stateless, in the same process and inside the same `RequestContextMiddleware`
as the other doors. The door turns the Bearer API key into a `Principal`
(`KeyVerifier.principal_from_key`) and its tools call `Discovery` and
`Executor.run`, as the agent HTTP API does (docs/mcp.md).
"""

from skillgate.doors.mcp.door import PATH, McpDoor
from skillgate.doors.mcp.tools import Tools

__all__ = ["PATH", "McpDoor", "Tools"]
