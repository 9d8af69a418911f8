"""The operator CLI's text options refuse control characters: exit 2 naming the option,
before any database work."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from skillgate.cli.connections import connections
from skillgate.cli.main import cli
from tests.process import run_cli

REFUSED = "Invalid value for {}: must not contain control characters"


def test_a_real_process_refuses_before_touching_a_database(tmp_path: Path) -> None:
    args = ("users", "create", "--email", "a\x01@example.com", "--password", "password123")
    result = run_cli("skillgate", *args, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert REFUSED.format("--email") in result.stderr
    assert not (tmp_path / "skillgate.db").exists()


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (
            ("users", "create", "--email", "a@x.io", "--password", "p", "--display-name", "A\nB"),
            "--display-name",
        ),
        (("keys", "create", "--email", "a@example.com", "--name", "lap\ttop"), "--name"),
        (("users", "set-plan", "--email", "a\x7f@x.io", "--plan", "pro"), "--email"),
    ],
)
def test_text_options_refuse_controls(args: tuple[str, ...], option: str) -> None:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 2, result.output
    assert REFUSED.format(option) in result.output


def test_nested_groups_check_too() -> None:
    args = ["delete", "--email", "a@example.com", "--integration", "git\x1bhub"]
    result = CliRunner().invoke(connections, args)
    assert result.exit_code == 2, result.output
    assert REFUSED.format("--integration") in result.output
