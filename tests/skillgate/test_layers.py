"""Arrows point down (docs/architecture.md): kit and http import no feature, nothing
below the composition root imports it, and no service imports a door.

A feature reaches another feature only through its public modules: `service`,
`repository`, `schemas` and `models` (the layers docs/architecture.md names), the
package itself, and the modules `PUBLIC` lists for it, each a service the
composition root builds or a value the features share. Every other module of a
feature is its internals (how the executor builds an upstream request or reads
its envelope, how connections verify a token): when a second feature needs one,
it moves to kit/. `catalog/` is a layer below the services; all of it is public.
The rule is between features (the composition root, the doors, the CLI and
db's model registry sit above them and import what they wire).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "skillgate"
FEATURES = (
    "api_keys", "auth", "catalog", "connections", "dashboard", "device", "discovery",
    "executions", "executor", "mcpauth", "me", "users",
)  # fmt: skip


# A feature's public modules besides service, repository, schemas and models.
PUBLIC = {
    "api_keys": {"policy", "scopes", "verifier"},  # a key's policy; who may see and run what
    "auth": {"deps", "sessions", "signin"},  # the routes' credentials; WebSessions; SignIn
    "connections": {"cache", "credentials", "refresh", "status", "stored"},
    "discovery": {"rendered"},  # RenderedCatalog
    "executions": {"writer"},  # ExecutionWriter
    "executor": {"approvals"},  # Approvals: held calls, decided by a person
    "users": {"limiter", "passwords", "plans", "webhook"},  # webhook: opt-in notifications
}
_LAYERS = {"service", "repository", "schemas", "models"}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            package = SRC.parent.joinpath(*node.module.split("."))
            found.update(  # `from skillgate.executor import options` names a module
                f"{node.module}.{alias.name}"
                for alias in node.names
                if (package / f"{alias.name}.py").is_file()
            )
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("skillgate")}


def _modules(package: str) -> list[Path]:
    return sorted((SRC / package).rglob("*.py"))


@pytest.mark.parametrize("path", _modules("kit"), ids=lambda p: p.name)
def test_kit_imports_only_kit_and_errors(path: Path) -> None:
    for name in _imports(path):
        assert name == "skillgate.errors" or name.startswith("skillgate.kit"), name


@pytest.mark.parametrize("path", _modules("http"), ids=lambda p: p.name)
def test_http_plumbing_imports_no_feature(path: Path) -> None:
    for name in _imports(path):
        assert name.split(".")[1] not in (*FEATURES, "doors", "gateway", "app"), name


@pytest.mark.parametrize(
    "path", [p for f in FEATURES for p in _modules(f)], ids=lambda p: str(p.relative_to(SRC))
)
def test_a_feature_imports_another_only_through_its_public_modules(path: Path) -> None:
    own = path.relative_to(SRC).parts[0]
    for name in _imports(path):
        parts = name.split(".")
        if len(parts) < 3 or parts[1] in (own, "catalog") or parts[1] not in FEATURES:
            continue  # its own package, the catalog layer, the package itself, not a feature
        module = parts[2]
        assert module in _LAYERS | PUBLIC.get(parts[1], set()), (
            f"{name} is {parts[1]}'s internals: move what both need to kit/"
        )


def test_only_the_app_imports_the_composition_root_and_the_doors() -> None:
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        for name in _imports(path):
            if name.startswith("skillgate.gateway"):
                assert rel == "app.py", (rel, name)
            if name.startswith("skillgate.doors"):
                assert rel == "app.py" or rel.startswith("doors/"), (rel, name)


def test_no_route_reaches_into_the_gateway() -> None:
    """Routes receive their services (http/provide.py); only create_app touches the
    gateway it leaves on app.state for tooling and tests."""
    for path in SRC.rglob("*.py"):
        if path.relative_to(SRC).as_posix() not in ("app.py", "gateway.py"):
            assert "state.gateway" not in path.read_text(), path
