"""HTTP plumbing, with no feature in it: the request middleware (request id, body
and pace limits, access log, metrics), the JSON body reader, error rendering (one
place: `errors.py`; FastAPI's handlers in `handlers.py`), the services routes
receive (`provide.py`), /openapi.json's shared parts, trusted proxies and the
public origin, uvicorn's protocol with a header deadline, the client's address."""
