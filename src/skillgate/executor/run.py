"""One execution as every step after the lookup sees it: who asks, what, with which
values and options. Built once per call by `Executor.run`; the steps read it, none
changes it (a later page is a copy with that page's values)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skillgate.api_keys.policy import Ruling
from skillgate.catalog.models import Endpoint, Integration
from skillgate.executor.options import PLAIN, RunOptions
from skillgate.kit.principal import Principal


@dataclass(frozen=True, slots=True)
class Run:
    principal: Principal
    integration: Integration
    endpoint: Endpoint
    values: dict[str, Any]  # the params, validated (executor.params)
    options: RunOptions = PLAIN  # PLAIN: every option off
    ruling: Ruling | None = None  # what the key's policy says of the call; None: no policy
