"""Doors: the ways in to the one core (catalog, discovery, executor, execution log).

    agent     raw ASGI, API key only: what an agent calls (discovery, profile,
              execute, connect requests, its connections and execution log)
    account   FastAPI: the account API (keys, sign-in, device flow, tokens),
              the dashboard and the browser's connect pages

A door turns its credential into a `kit.principal.Principal`, its input into
typed values, calls a service, and renders the answer; errors leave through
`http.errors`. docs/architecture.md says how to add one.
"""
