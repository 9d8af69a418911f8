"""schemathesis over /openapi.json: every operation, positive and negative data, a few
examples each, deterministic. Checks: no 5xx, the response matches the documented schema,
the status code is documented. In-process app with its lifespan, authenticated with a real
API key (and an access token where only a token or session is accepted), on SQLite and,
when configured, PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.python import asgi

from skillgate.app import create_app
from skillgate.catalog.loader import Catalog
from skillgate.db.engine import create_engine, create_sessionmaker
from skillgate.db.session import commit
from skillgate.users.service import UserService
from tests.conftest import PASSWORD, make_settings
from tests.upstream import Provider

# per operation and generation mode; raise it for a deeper run (SKILLGATE_SCHEMATHESIS_EXAMPLES)
EXAMPLES = int(os.environ.get("SKILLGATE_SCHEMATHESIS_EXAMPLES", "4"))
CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance]
TOKEN_ONLY = {  # an access token or a session, never a key
    "/auth/device/authorize",
    "/oauth-grants",
    "/oauth-grants/{grant_id}/policy",
    "/notification-webhook",
}
EMAIL = "schema@example.com"


@dataclass
class Run:
    cases: int = 0
    failures: list[str] = field(default_factory=list)


async def _seed(database_url: str) -> None:
    engine = create_engine(database_url)
    async with create_sessionmaker(engine)() as session:
        await UserService(session).create(EMAIL, PASSWORD, plan="pro")
        await commit(session)
    await engine.dispose()


def _credentials(client: Any) -> tuple[str, str]:
    r = client.post("/auth/login", json={"email": EMAIL, "password": PASSWORD})
    token = r.json()["access_token"]
    r = client.post(
        "/api-keys", json={"name": "schema"}, headers={"Authorization": f"Bearer {token}"}
    )
    key = r.json()["full_key"]
    r = client.put(
        "/v1/connections/sample",
        json={"token": "good-token"},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert r.status_code == 200, r.text
    return token, key


def _exercise(operation: Any, headers: dict[str, str], run: Run) -> None:
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

        @settings(
            max_examples=EXAMPLES,
            derandomize=True,
            database=None,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(generation_mode=mode))
        def check(case: Any) -> None:
            run.cases += 1
            case.call_and_validate(headers=headers, checks=CHECKS)

        try:
            check()
        except Unsatisfiable:  # nothing about this operation can be made invalid
            continue
        except (Exception, BaseExceptionGroup) as exc:  # note it, go on to the next one
            lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
            run.failures.append(f"{operation.label} [{mode.value}]: {' | '.join(lines[:9])}")


# Real answers of the routes random data rarely reaches: they must match their schemas too.
# (method, path, path parameters, the case's body or query)
KNOWN: list[tuple[str, str, dict[str, str], dict[str, Any] | None]] = [
    ("GET", "/v1/me", {}, None),
    ("GET", "/v1/skills", {}, None),
    ("GET", "/v1/skills/{integration}", {"integration": "sample"}, None),
    ("GET", "/v1/skills/search", {}, {"query": {"q": "list the issues", "limit": 5}}),
    (
        "GET",
        "/v1/skills/{integration}/{endpoint}",
        {"integration": "sample", "endpoint": "list_issues"},
        None,
    ),
    ("GET", "/v1/{integration}/download", {"integration": "sample"}, None),
    (
        "POST",
        "/v1/{integration}/{endpoint}",
        {"integration": "sample", "endpoint": "get_user"},
        {"body": {"params": {"username": "octo"}}},
    ),
    ("GET", "/v1/connections", {}, None),
    ("GET", "/v1/executions", {}, None),
    ("GET", "/api-keys", {}, None),
]


def _known(schema: Any, key: str, run: Run) -> None:
    for method, path, params, extra in KNOWN:
        operation = schema[path][method]
        case = operation.Case(path_parameters=params, **(extra or {}))
        run.cases += 1
        response = case.call_and_validate(headers={"Authorization": f"Bearer {key}"}, checks=CHECKS)
        assert response.status_code in (200, 201), (path, response.status_code, response.text)


def _run(app: Any) -> Run:
    run = Run()
    try:
        with asgi.get_client(app) as client:
            token, key = _credentials(client)
            schema = schemathesis.openapi.from_asgi("/openapi.json", app)
            _known(schema, key, run)
            for result in schema.get_all_operations():
                operation = result.ok()
                credential = token if operation.path in TOKEN_ONLY else key
                _exercise(operation, {"Authorization": f"Bearer {credential}"}, run)
    finally:
        asgi.shutdown_lifespans()  # the app's lifespan ran on schemathesis's event loop
    return run


async def test_schemathesis_finds_nothing(
    database_url: str, tmp_path: Path, test_catalog: Catalog, provider: Provider
) -> None:
    app = create_app(make_settings(database_url, tmp_path), catalog=test_catalog)
    await _seed(database_url)
    started = time.monotonic()
    run = await asyncio.to_thread(_run, app)
    elapsed = time.monotonic() - started
    print(f"schemathesis: {run.cases} cases in {elapsed:.1f} s")
    assert run.failures == [], "\n".join(run.failures)
    assert run.cases > 100
