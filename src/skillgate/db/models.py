"""Every table, imported in one place for Alembic's autogenerate and metadata."""

from skillgate.api_keys.models import ApiKey
from skillgate.auth.models import WebSession
from skillgate.connections.models import Connection
from skillgate.db.base import Base
from skillgate.users.models import User

__all__ = ["ApiKey", "Base", "Connection", "User", "WebSession"]
