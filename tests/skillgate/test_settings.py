"""Embedded defaults and the production guard."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from skillgate.settings import SECRETS_FILE, ConfigError, Settings, finalize


def test_defaults_use_sqlite_in_the_working_directory(tmp_path: Path) -> None:
    s = finalize(Settings(data_dir=tmp_path))
    assert s.resolved_database_url == f"sqlite+aiosqlite:///{tmp_path / 'skillgate.db'}"
    secrets_file = tmp_path / SECRETS_FILE
    assert stat.S_IMODE(secrets_file.stat().st_mode) == 0o600
    again = finalize(Settings(data_dir=tmp_path))
    assert again.secret_key == s.secret_key
    assert again.encryption_keys == s.encryption_keys
    assert json.loads(secrets_file.read_text())["secret_key"] == s.secret_key


def test_production_without_secrets_refuses_to_start(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        finalize(Settings(env="production", data_dir=tmp_path))
    message = str(err.value)
    assert "\n" not in message
    assert "SKILLGATE_DATABASE_URL" in message
    assert "SKILLGATE_SECRET_KEY" in message
    assert not (tmp_path / SECRETS_FILE).exists()


def test_production_with_everything_explicit_starts(tmp_path: Path) -> None:
    s = finalize(
        Settings(
            env="production",
            data_dir=tmp_path,
            database_url="postgresql://db/x",
            secret_key="s" * 40,
            encryption_keys="k1:" + "A" * 43 + "=",
        )
    )
    assert s.is_production
    assert not (tmp_path / SECRETS_FILE).exists()


def test_corrupt_secrets_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / SECRETS_FILE).write_text("{nope")
    with pytest.raises(ConfigError, match="cannot read generated secrets"):
        finalize(Settings(data_dir=tmp_path))
