"""Every example an endpoint documents runs exactly as printed (issue 23.3).

Each shipped endpoint's `example` (GET /v1/skills/:integration/:endpoint, the line
SKILL.md, the pulled docs and `svc run ... --help` print) goes through `svc run`'s own
parser, fed the endpoint's parameter names as `svc run` learns them, and then through
the real app's dry run: every one must build its upstream request, and none may lose a
parameter to one of svc's own options (`--fields` is Drive's `fields` there). In process
for speed: one app on a SQLite file, every integration connected to the loopback
provider, 2 x 8,249 requests.

And no parameter any endpoint declares can make one of svc's options unreachable.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.catalog.validate import check_integration
from skillgate.db import migrate
from skillgate_cli.params import parse_args
from skillgate_cli.run_options import OPTIONS, PREFIX, flag_for, scan, split
from tests.conftest import bearer, open_harness
from tests.skillgate_cli.conftest import Gateway, svc
from tests.skillgate_cli.fakes import FakeGateway, Reply
from tests.upstream import Provider

SHIPPED_EXAMPLES = 9617  # the catalog's endpoints, each with one example


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog()


def _body(example: str, slug: str, name: str, declared: set[str]) -> dict[str, Any]:
    """The execute body `svc run` sends for `example` (plus the dry run)."""
    argv = shlex.split(example)
    assert argv[:4] == ["svc", "run", slug, name], example
    options, rest = split(argv[4:], declared)
    assert options.given == (), (example, options.given)  # every flag is a parameter
    params, as_typed = parse_args(rest)
    assert params.keys() <= declared, example
    body: dict[str, Any] = {"params": params, **options.body(), "dry_run": True}
    if as_typed:
        body["as_typed"] = as_typed
    return body


async def test_every_shipped_example_runs_as_printed(
    shipped: Catalog, provider: Provider, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for slug in shipped.integrations:
        monkeypatch.setenv(f"SKILLGATE_{slug.upper()}_BASE_URL", provider.url)
    url = f"sqlite+aiosqlite:///{tmp_path / 'examples.db'}"
    await migrate.upgrade(url)
    failures: list[str] = []
    count = 0
    async with open_harness(url, tmp_path, shipped) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        for integration in shipped.integrations.values():
            await harness.connect_pasted(full, integration)
        for slug, integration in shipped.integrations.items():
            for endpoint in integration.endpoints:
                count += 1
                path = f"/v1/{slug}/{endpoint.name}"
                doc = await harness.client.get(
                    f"/v1/skills/{slug}/{endpoint.name}", headers=bearer(full)
                )
                assert doc.status_code == 200, doc.text
                declared = {p["name"] for p in doc.json()["parameters"]}
                example = doc.json()["example"]
                body = _body(example, slug, endpoint.name, declared)
                r = await harness.client.post(path, json=body, headers=bearer(full))
                if r.status_code != 200 or r.json().get("dry_run") is not True:
                    failures.append(f"{example}: {r.status_code} {r.text[:200]}")
    assert count == SHIPPED_EXAMPLES
    assert failures == [], f"{len(failures)} examples fail:\n" + "\n".join(failures)


def test_no_parameter_makes_an_option_unreachable(shipped: Catalog) -> None:
    """`--svc-NAME` is svc's for every endpoint (no parameter is named `svc_NAME`), and a
    parameter named like an option's short spelling gets that spelling: svc's option is
    then spelled `--svc-NAME`, and the parameter is read as a parameter."""
    shadowed = {f"{PREFIX}{name}".replace("-", "_") for name in OPTIONS}
    collisions = 0
    for slug, integration in shipped.integrations.items():
        for endpoint in integration.endpoints:
            declared = {p.name for p in endpoint.parameters}
            assert not declared & shadowed, (slug, endpoint.name, declared & shadowed)
            for name, takes_value in OPTIONS.items():
                param = name.replace("-", "_")
                short = [f"--{name}", "x"] if takes_value else [f"--{name}"]
                given, rest = scan([*short, f"--{PREFIX}{name}", *short[1:]], declared)
                assert [n for n, _, _ in given][-1] == name  # --svc-NAME: always svc's
                if param in declared:
                    collisions += 1
                    assert rest == short, (slug, endpoint.name, name)
                    assert [n for n, _, _ in given] == [name]
                    assert flag_for(name, declared) == f"--{PREFIX}{name}"
                else:
                    assert rest == [], (slug, endpoint.name, name)
                    assert flag_for(name, declared) == f"--{name}"
    assert collisions >= 17  # Drive's, Sheets', Box's and GitHub's fields, all, confirm


def test_the_catalog_refuses_a_parameter_named_like_a_svc_option(shipped: Catalog) -> None:
    integration = shipped.integrations["google_drive"]
    about = next(e for e in integration.endpoints if e.name == "about")
    param = about.parameters[0].model_copy(update={"name": "svc_fields"})
    bad = about.model_copy(update={"parameters": [*about.parameters, param]})
    changed = integration.model_copy(update={"endpoints": [bad]})
    problems = check_integration(changed, examples=False)
    assert any("svc_fields" in p and "--svc-fields" in p for p in problems), problems


def test_svc_run_reads_a_short_spelling_as_the_endpoints_parameter(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    """Against the real server: GitHub's notifications declare `all`, so `--all` is that
    parameter (as the example prints it) and `--svc-all` is svc's; `--dry-run`, which the
    endpoint does not declare, stays svc's in its short spelling."""
    path = "/notifications"
    paged = f"{path}?all=true&per_page=1"  # the parameter, and svc's --svc-max-items=1
    upstream.on("GET", paged, Reply(200, [{"id": "1", "reason": "mention"}]))
    base = ("run", "github", "activity_list_notifications_for_authenticated_user")
    r = svc(*base, "--all", "--dry-run", cwd=tmp_path, base_url=gateway.url, key=gateway.runner_key)
    assert r.returncode == 0, r.stderr
    request = json.loads(r.stdout)["request"]
    assert request["url"] == f"{upstream.url}{path}?all=true"
    assert upstream.requests == []  # a dry run
    r = svc(*base, "--all", "--svc-all", "--svc-max-items=1", "--svc-fields", "id",
            cwd=tmp_path, base_url=gateway.url, key=gateway.runner_key)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["data"] == [{"id": "1"}]
    [sent] = upstream.requests
    assert sent.path == paged
