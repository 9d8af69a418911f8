"""Authentication: API keys, access tokens, dashboard sessions."""
