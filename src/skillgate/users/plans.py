"""Plan limits, in one place: key counts fixed by plan, rate limits from settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, get_args

if TYPE_CHECKING:
    from skillgate.settings import Settings

PlanName = Literal["free", "pro", "unlimited"]
PLANS: tuple[str, ...] = get_args(PlanName)
MAX_ACTIVE_KEYS: dict[str, int | None] = {"free": 1, "pro": None, "unlimited": None}


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


def _limit(value: int) -> int | None:
    return value or None


def build_limits(settings: Settings) -> dict[str, PlanLimits]:
    return {
        plan: PlanLimits(
            max_active_keys=MAX_ACTIVE_KEYS[plan],
            requests_per_minute=_limit(getattr(settings, f"rate_{plan}_per_minute")),
            requests_per_day=_limit(getattr(settings, f"rate_{plan}_per_day")),
        )
        for plan in PLANS
    }


def max_active_keys(plan: str) -> int | None:
    return MAX_ACTIVE_KEYS.get(plan, MAX_ACTIVE_KEYS["free"])


class Plans:
    """Each plan's limits, from the settings once."""

    def __init__(self, settings: Settings) -> None:
        self._limits = build_limits(settings)

    def limits_for(self, plan: str) -> PlanLimits:
        return self._limits.get(plan, self._limits["free"])
