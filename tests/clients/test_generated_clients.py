"""Clients nobody on this project wrote, generated from the /openapi.json a real server
serves, calling that server: openapi-generator's python client (PyPI
`openapi-generator-cli`, Java 17) and openapi-typescript's types with openapi-fetch,
checked by `tsc --strict`. Each lists the caller's keys, searches, and makes a dry run
of an execute (with `Idempotency-Key`). `@redocly/cli lint` (recommended rules) must
find no error in the document.

The npm packages are pinned in package.json/package-lock.json (`npm ci`, from the npm
registry). What is slow is kept between runs: node_modules (per lockfile) and each
generated client (per document), under tests/clients/ (.gitignore). Skipped, with the
reason, where Java or Node is missing (tests/clients_setup.sh installs them as root).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.process import BIN, serve
from tests.skillgate.doors.mcp.conftest import Gateway, accounts, server_env
from tests.upstream import Provider

HERE = Path(__file__).parent
CACHE = HERE / ".cache"
PACKAGE = "skillgate_generated_client"
DRY_RUN = {"method": "GET", "path": "/users/octo"}  # what sample/get_user would send


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _run(*args: str, timeout: int = 120, cwd: Path = HERE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def gateway(
    tmp_path_factory: pytest.TempPathFactory, provider_server: Provider
) -> Iterator[Gateway]:
    provider_server.reset()
    cwd = tmp_path_factory.mktemp("clients")
    env = server_env(provider_server)
    keys = accounts(cwd, env)
    with serve(cwd, env=env) as server:
        yield Gateway(server, keys, cwd, env)


@pytest.fixture(scope="module")
def document(gateway: Gateway) -> Path:
    """The document as the running server serves it, saved under a name of its digest."""
    with urllib.request.urlopen(gateway.server.url + "/openapi.json", timeout=10) as r:
        data = r.read()
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"openapi-{_digest(data)}.json"
    for old in [*CACHE.glob("openapi-*.json"), *CACHE.glob("python-*")]:  # other documents'
        if not old.name.startswith((path.stem, f"python-{path.stem.removeprefix('openapi-')}")):
            shutil.rmtree(old) if old.is_dir() else old.unlink()
    path.write_bytes(data)
    return path


@pytest.fixture(scope="module")
def node_bin() -> Path:
    """tests/clients/node_modules/.bin, installed by `npm ci` when the lockfile changed."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node.js (node and npm) is not installed: run tests/clients_setup.sh")
    stamp = CACHE / f"npm-{_digest((HERE / 'package-lock.json').read_bytes())}"
    if not stamp.exists() or not (HERE / "node_modules").is_dir():
        done = _run(npm, "ci", "--no-audit", "--no-fund", timeout=300)
        if done.returncode != 0:
            pytest.skip(f"npm ci failed (is the npm registry reachable?): {done.stderr[-400:]}")
        CACHE.mkdir(exist_ok=True)
        stamp.touch()
    return HERE / "node_modules" / ".bin"


def test_redocly_finds_no_error(node_bin: Path, document: Path) -> None:
    done = _run(str(node_bin / "redocly"), "lint", "--extends", "recommended", "--format",
                "json", str(document))  # fmt: skip
    report = json.loads(done.stdout)
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    assert report["totals"]["errors"] == 0, json.dumps(errors, indent=1)[:3000]


@pytest.fixture(scope="module")
def python_client(document: Path) -> Iterator[Any]:
    """openapi-generator's python client of `document` (generated once per document)."""
    if shutil.which("java") is None:
        pytest.skip("Java (17+) is not installed: run tests/clients_setup.sh")
    out = CACHE / f"python-{document.stem.removeprefix('openapi-')}"
    if not (out / PACKAGE / "__init__.py").exists():
        shutil.rmtree(out, ignore_errors=True)
        done = _run(
            str(BIN / "openapi-generator-cli"), "generate", "-g", "python", "-i", str(document),
            "-o", str(out), "--package-name", PACKAGE, "--global-property",
            "apiTests=false,modelTests=false,apiDocs=false,modelDocs=false",
            timeout=180,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_openapi_generator_python_client(python_client: Any, gateway: Gateway) -> None:
    sg = python_client
    config = sg.Configuration(host=gateway.server.url, access_token=gateway.keys["full"])
    with sg.ApiClient(config) as api:
        keys = sg.ApiKeysApi(api).list_keys()  # a bearer is sent: the route declares it
        assert sorted(k.name for k in keys) == ["full", "read", "scoped"]
        found = sg.DiscoveryApi(api).search_endpoints(
            q="user profile", integration="sample", limit=3
        )
        assert found.results[0].name == "get_user"
        body = sg.ExecuteEndpointRequest(params={"username": "octo"}, dry_run=True)
        run = sg.ExecutionApi(api).execute_endpoint(
            "sample", "get_user", idempotency_key="python-dry-run", execute_endpoint_request=body
        )
    assert run.dry_run is True
    assert run.request["method"] == DRY_RUN["method"]
    assert run.request["url"].endswith(DRY_RUN["path"])


@pytest.fixture(scope="module")
def typescript_client(node_bin: Path, document: Path) -> Path:
    """openapi-typescript's types of `document`, and client.ts compiled against them by
    `tsc --strict` (a type the document gets wrong fails here)."""
    stamp = (
        HERE / "build" / f"built-from-{document.stem}-{_digest((HERE / 'client.ts').read_bytes())}"
    )
    if not stamp.exists():
        shutil.rmtree(HERE / "build", ignore_errors=True)
        made = _run(str(node_bin / "openapi-typescript"), str(document), "-o",
                    str(HERE / "generated" / "schema.d.ts"))  # fmt: skip
        assert made.returncode == 0, made.stderr
        built = _run(str(node_bin / "tsc"), "-p", str(HERE))
        assert built.returncode == 0, built.stdout + built.stderr
        stamp.touch()
    return HERE / "build" / "client.js"


def test_openapi_typescript_client(typescript_client: Path, gateway: Gateway) -> None:
    node = shutil.which("node")
    assert node is not None
    done = _run(node, str(typescript_client), gateway.server.url, gateway.keys["full"])
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    mine = [gateway.keys[kind][:8] for kind in ("full", "scoped", "read")]
    assert out["keys"]["status"] == 200
    assert sorted(out["keys"]["prefixes"]) == sorted(mine)
    assert out["search"]["status"] == 200
    assert out["search"]["found"][0] == "sample/get_user"
    assert out["run"]["status"] == 200, out["run"]
    assert out["run"]["dry_run"] is True
    assert out["run"]["request"]["method"] == DRY_RUN["method"]
    assert out["run"]["request"]["url"].endswith(DRY_RUN["path"])
