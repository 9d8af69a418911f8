"""An execution's answer: its upstream call(s) and its envelope.

Without `paginate` (`answer`): one upstream call, the rate limit already spent;
`fields` projects `data` (an object or a list; text is left as it is), then
`max_bytes` bounds it (`truncated`, `bytes`, `omitted` beside it). A plain call
(every option off) is this with nothing to shape. Every answer is held to the
answer cap (SKILLGATE_MAX_ANSWER_BYTES, executor.capped).

With `paginate` (`paged`): one real upstream call per page, each spending the
rate limit and writing its own execution-log row (the executor writes the last
page's), following the endpoint's pagination (executor.paging) until it ends or
a cap stops it; `fields` applies to each page's items, `max_bytes` and the answer
cap to all of them: pages stop being fetched once the items pass the smaller of
the two, the items are cut to fit, and the answer carries `pagination` (pages,
items, complete, next, skip).

A page that fails (an upstream error, or the gateway's own on a later page: rate
limit, timeout, unreachable) ends the run with the items so far and `next` set to
ask for that page again. A first page failing at the gateway raises as a plain
call would: there is nothing to keep.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any

from skillgate.errors import RateLimited, SkillGateError
from skillgate.executions.writer import ExecutionWriter
from skillgate.executor import capped, paging
from skillgate.executor.envelope import parts
from skillgate.executor.options import Paginate, RunOptions
from skillgate.executor.outcome import Outcome
from skillgate.executor.run import Run
from skillgate.executor.shape import bound, project, size
from skillgate.executor.upstream import Upstream


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


async def answer(upstream: Upstream, run: Run, limit_headers: dict[str, str]) -> Outcome:
    """One upstream call (its rate limit spent: `limit_headers`) and its envelope,
    shaped as `run`'s options ask; see the module docstring."""
    response = await upstream.call(run)
    env, failed = parts(
        response, run.integration.body_errors, upstream.reconnect_url(run.integration)
    )
    options = run.options
    if not failed and (options.fields or options.max_bytes is not None):
        _shape(env, options)
    body = capped.dumps(env, upstream.policy.answer_bytes)
    return Outcome.answered(body, response.status, limit_headers, failed)


def _shape(env: dict[str, Any], options: RunOptions) -> None:
    """`fields`, then `max_bytes`, applied to a successful envelope's `data`."""
    data = env["data"]
    if options.fields and isinstance(data, dict | list):
        data = project(data, options.fields)
    env["data"] = data
    if options.max_bytes is not None:
        cut = bound(data, options.max_bytes)
        env["data"] = cut.data
        env.update(cut.fields())


async def _page(upstream: Upstream, run: Run) -> _Last:
    """One page: the rate limit spent, the upstream called."""
    headers = await upstream.spend(run.principal)
    response = await upstream.call(run)
    env, failed = parts(
        response, run.integration.body_errors, upstream.reconnect_url(run.integration)
    )
    page = None if failed else paging.step(run.endpoint, run.values, response)
    return _Last(env, failed, response.status, headers, page=page)


def _stopped(exc: SkillGateError) -> _Last:
    """A later page the gateway could not get: its own error as that page's failure."""
    env: dict[str, Any] = {"status": exc.status, "error": exc.body()}
    if isinstance(exc, RateLimited):
        env["retry_after"] = exc.retry_after
    return _Last(env, True, 0, dict(exc.headers), exc.code)


async def paged(upstream: Upstream, log: ExecutionWriter, run: Run) -> Outcome:
    """Every page `run.options.paginate` allows, collected; see the module docstring."""
    options = run.options
    caps = options.paginate or Paginate()
    answer_bytes = upstream.policy.answer_bytes
    budget = min(options.max_bytes or answer_bytes, answer_bytes)
    original = run.values
    pages = paging.Collector(original, caps.max_items, caps.max_pages, budget, options.fields)
    values = paging.first(run.endpoint, original, caps.max_items)
    started = time.perf_counter()
    last = await _page(upstream, dataclasses.replace(run, values=values))  # may raise
    while last.page is not None:
        following = pages.add(values, last.page)
        if following is None:
            break
        _log_page(log, run, last.status, started)
        values, started = following, time.perf_counter()
        try:
            last = await _page(upstream, dataclasses.replace(run, values=values))
        except SkillGateError as exc:
            last = _stopped(exc)
    if last.failed:
        pages.failed(values)
    _with_items(last.env, pages, budget, answer_bytes)
    return last.outcome(answer_bytes)


def _log_page(log: ExecutionWriter, run: Run, status: int, started: float) -> None:
    """The execution-log row of a page that is not the last (Executor.run writes that)."""
    principal = run.principal
    log.record(
        user_id=principal.user_id,
        key_id=principal.key.key_id if principal.key else None,
        integration=run.integration.slug,
        endpoint=run.endpoint.name,
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
