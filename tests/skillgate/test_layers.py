"""Arrows point down (docs/architecture.md): kit and http import no feature, nothing
below the composition root imports it, and no service imports a door."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "skillgate"
FEATURES = (
    "api_keys", "auth", "catalog", "connections", "dashboard", "device", "discovery",
    "executions", "executor", "me", "users",
)  # fmt: skip


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
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
