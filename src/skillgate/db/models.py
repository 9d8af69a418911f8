"""Every table, imported in one place for Alembic's autogenerate and metadata."""

from skillgate.api_keys.models import ApiKey
from skillgate.auth.models import WebSession
from skillgate.connections.models import Connection, ConnectRequest
from skillgate.db.base import Base
from skillgate.device.models import DeviceCode
from skillgate.executions.models import Execution
from skillgate.executor.models import Approval, Confirmation, IdempotentCall
from skillgate.mcpauth.models import OAuthClient, OAuthCode, OAuthGrant, OAuthToken
from skillgate.users.models import User, Webhook, WebhookDelivery

__all__ = [
    "ApiKey",
    "Approval",
    "Base",
    "Confirmation",
    "ConnectRequest",
    "Connection",
    "DeviceCode",
    "Execution",
    "IdempotentCall",
    "OAuthClient",
    "OAuthCode",
    "OAuthGrant",
    "OAuthToken",
    "User",
    "WebSession",
    "Webhook",
    "WebhookDelivery",
]
