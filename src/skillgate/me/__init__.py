"""GET /v1/me."""
