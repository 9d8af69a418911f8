"""API keys: format, storage, verification cache and the /api-keys routes."""
