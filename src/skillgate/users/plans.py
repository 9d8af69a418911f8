"""Plan limits, in one place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

PlanName = Literal["free", "pro", "unlimited"]
PLANS: tuple[str, ...] = get_args(PlanName)


@dataclass(frozen=True)
class PlanLimits:
    max_active_keys: int | None  # None: no limit
    requests_per_minute: int | None
    requests_per_day: int | None

    def as_dict(self) -> dict[str, int | None]:
        return {
            "max_api_keys": self.max_active_keys,
            "requests_per_minute": self.requests_per_minute,
            "requests_per_day": self.requests_per_day,
        }


LIMITS: dict[str, PlanLimits] = {
    "free": PlanLimits(max_active_keys=1, requests_per_minute=30, requests_per_day=10_000),
    "pro": PlanLimits(max_active_keys=None, requests_per_minute=600, requests_per_day=None),
    "unlimited": PlanLimits(max_active_keys=None, requests_per_minute=None, requests_per_day=None),
}


def limits_for(plan: str) -> PlanLimits:
    return LIMITS.get(plan, LIMITS["free"])
