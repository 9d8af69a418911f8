"""Database: engine, request-owned sessions, migrations."""
