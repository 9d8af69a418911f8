"""GET /v1/me's answer: the caller's profile, plan limits and the key in use."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import orjson

from skillgate.kit.principal import KeyIdentity, Principal
from skillgate.users.plans import PlanLimits


def _iso(value: datetime | None) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


@dataclass(slots=True)
class KeyOut:
    id: str
    name: str
    key_prefix: str
    scopes: list[str]
    expires_at: str | None

    @classmethod
    def of(cls, key: KeyIdentity) -> KeyOut:
        return cls(key.key_id, key.name, key.key_prefix, list(key.scopes), _iso(key.expires_at))


@dataclass(slots=True)
class ProfileOut:
    id: str
    email: str
    display_name: str
    plan: str
    limits: dict[str, int | None]
    api_key: KeyOut

    @classmethod
    def of(cls, principal: Principal, limits: PlanLimits) -> ProfileOut:
        assert principal.key is not None  # the agent door authenticates API keys only
        return cls(
            principal.user_id,
            principal.email,
            principal.display_name,
            principal.plan,
            limits.as_dict(),
            KeyOut.of(principal.key),
        )

    def json(self) -> bytes:
        return orjson.dumps(self)
