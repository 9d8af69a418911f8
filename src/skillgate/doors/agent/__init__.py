"""The agent door: every route an agent calls with an API key, served as raw ASGI.

The rule: a route belongs here when its only credential is a Bearer API key
(`KeyVerifier.principal_from_key`); a route that also takes a browser session
or an access token (API keys, sign-in, the device flow, PUT/DELETE of a
connection, the dashboard) belongs to the account door (FastAPI).

Why raw ASGI: FastAPI's routing, request objects and dependency solving cost
more per call than these routes do (bench/results/report.md). The door keeps
to one shape per route (`router.Route`): a method, a pattern with named path
parameters, a handler taking a `Call`, and the JSON schemas /openapi.json shows.
"""

from skillgate.doors.agent.door import AgentDoor
from skillgate.doors.agent.router import Call, Reply, Route, Router

__all__ = ["AgentDoor", "Call", "Reply", "Route", "Router"]
