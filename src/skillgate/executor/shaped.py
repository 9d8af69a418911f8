"""An execution with `paginate`, `fields` or `max_bytes`: its calls and its envelope.

Without `paginate`: one upstream call; `fields` projects `data` (an object or a
list; text is left as it is), then `max_bytes` bounds it (`truncated`, `bytes`,
`omitted` beside it).

With `paginate`: one real upstream call per page, each spending the rate limit
and writing its own execution-log row (the executor writes the last page's),
following the endpoint's pagination (executor.paging) until it ends or a cap
stops it; `fields` applies to each page's items, `max_bytes` and the answer cap
(SKILLGATE_MAX_ANSWER_BYTES, executor.capped) to all of them: pages stop being
fetched once the items pass the smaller of the two, the items are cut to fit, and
the answer carries `pagination` (pages, items, complete, next, skip).

A page that fails (an upstream error, or the gateway's own on a later page: rate
limit, timeout, unreachable) ends the run with the items so far and `next` set to
ask for that page again. A first page failing at the gateway raises as a plain
call would: there is nothing to keep.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from skillgate.catalog.models import Endpoint, Integration
from skillgate.errors import RateLimited, SkillGateError
from skillgate.executor import capped, paging
from skillgate.executor.envelope import parts
from skillgate.executor.options import Paginate, RunOptions
from skillgate.executor.outcome import Outcome
from skillgate.executor.shape import bound, project, size
from skillgate.kit.principal import Principal

if TYPE_CHECKING:
    from skillgate.executor.service import Executor


@dataclass
class _Last:
    """The last page asked for: its envelope parts and what the answer reports."""

    env: dict[str, Any]
    failed: bool
    status: int  # the upstream's status; 0 when the gateway stopped the page
    headers: dict[str, str] = field(default_factory=dict)  # the rate limit's
    log_error: str | None = None
    page: paging.Page | None = None  # its items and the next page's values

    def outcome(self, cap: int) -> Outcome:
        body = capped.dumps(self.env, cap)
        return Outcome.answered(body, self.status, self.headers, self.failed, self.log_error)


async def send(
    executor: Executor,
    principal: Principal,
    integration: Integration,
    endpoint: Endpoint,
    values: dict[str, Any],
    options: RunOptions,
) -> Outcome:
    """The call (or calls) and the shaped envelope; see the module docstring."""
    if options.paginate is not None:
        return await _paged(executor, principal, integration, endpoint, values, options)
    headers = await executor.enforce_limit(principal)
    response = await executor.call(principal, integration, endpoint, values)
    env, failed = parts(response, integration.body_errors, executor.reconnect_url(integration))
    if not failed:
        data = env["data"]
        if options.fields and isinstance(data, dict | list):
            data = project(data, options.fields)
        env["data"] = data
        if options.max_bytes is not None:
            cut = bound(data, options.max_bytes)
            env["data"] = cut.data
            env.update(cut.fields())
    return _Last(env, failed, response.status, headers).outcome(executor.policy.answer_bytes)


async def _page(
    executor: Executor,
    principal: Principal,
    integration: Integration,
    endpoint: Endpoint,
    values: dict[str, Any],
) -> _Last:
    """One page: the rate limit spent, the upstream called."""
    headers = await executor.enforce_limit(principal)
    response = await executor.call(principal, integration, endpoint, values)
    env, failed = parts(response, integration.body_errors, executor.reconnect_url(integration))
    page = None if failed else paging.step(endpoint, values, response)
    return _Last(env, failed, response.status, headers, page=page)


def _stopped(exc: SkillGateError) -> _Last:
    """A later page the gateway could not get: its own error as that page's failure."""
    env: dict[str, Any] = {"status": exc.status, "error": exc.body()}
    if isinstance(exc, RateLimited):
        env["retry_after"] = exc.retry_after
    return _Last(env, True, 0, dict(exc.headers), exc.code)


async def _paged(
    executor: Executor,
    principal: Principal,
    integration: Integration,
    endpoint: Endpoint,
    original: dict[str, Any],
    options: RunOptions,
) -> Outcome:
    caps = options.paginate or Paginate()
    answer_bytes = executor.policy.answer_bytes
    budget = min(options.max_bytes or answer_bytes, answer_bytes)
    pages = paging.Collector(original, caps.max_items, caps.max_pages, budget, options.fields)
    values = paging.first(endpoint, original, caps.max_items)
    started = time.perf_counter()
    last = await _page(executor, principal, integration, endpoint, values)  # may raise
    while last.page is not None:
        following = pages.add(values, last.page)
        if following is None:
            break
        _log_page(executor, principal, integration, endpoint, last.status, started)
        values, started = following, time.perf_counter()
        try:
            last = await _page(executor, principal, integration, endpoint, values)
        except SkillGateError as exc:
            last = _stopped(exc)
    if last.failed:
        pages.failed(values)
    _with_items(last.env, pages, budget, answer_bytes)
    return last.outcome(answer_bytes)


def _log_page(
    executor: Executor,
    principal: Principal,
    integration: Integration,
    endpoint: Endpoint,
    status: int,
    started: float,
) -> None:
    """The execution-log row of a page that is not the last (Executor.run writes that)."""
    executor.log.record(
        user_id=principal.user_id,
        key_id=principal.key.key_id if principal.key else None,
        integration=integration.slug,
        endpoint=endpoint.name,
        upstream_status=status,
        error=None,
        duration_ms=(time.perf_counter() - started) * 1000,
    )


def _with_items(env: dict[str, Any], pages: paging.Collector, budget: int, cap: int) -> None:
    """The collected items as `data`, cut to `budget` and to the room the rest of the
    envelope leaves under `cap` (a failed page's `error` first cut to half of it),
    then `pagination`."""
    env.pop("data", None)
    if "error" in env and size(env["error"]) > cap // 2:
        env["error"] = bound(env["error"], cap // 2).data
    limit = min(budget, capped.room(env, cap, pages.summary_room()))
    if pages.size <= limit:
        env["data"] = pages.items
    else:
        cut = bound(pages.items, max(limit, 0))
        pages.cut(cut.kept or 0)
        env.update(data=cut.data, **cut.fields())
    env["pagination"] = pages.summary()
