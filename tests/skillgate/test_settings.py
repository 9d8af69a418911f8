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


def test_production_refuses_loopback_webhooks(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="SKILLGATE_WEBHOOK_ALLOW_LOOPBACK is for tests"):
        finalize(
            Settings(
                env="production",
                data_dir=tmp_path,
                database_url="postgresql://db/x",
                secret_key="s" * 40,
                encryption_keys="k1:" + "A" * 43 + "=",
                webhook_allow_loopback=True,
            )
        )


def test_corrupt_secrets_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / SECRETS_FILE).write_text("{nope")
    with pytest.raises(ConfigError, match="cannot read generated secrets"):
        finalize(Settings(data_dir=tmp_path))


def test_integration_settings_are_read_once_when_the_settings_are_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLGATE_GITHUB_BASE_URL", "http://127.0.0.1:9000/")
    monkeypatch.setenv("SKILLGATE_GITHUB_CLIENT_ID", "client-1")
    monkeypatch.setenv("SKILLGATE_SLACK_CLIENT_SECRET", "")  # empty: unset
    monkeypatch.setenv("SKILLGATE_BASE_URL", "https://gateway.example")  # not an integration's
    s = finalize(Settings(data_dir=tmp_path))
    monkeypatch.setenv("SKILLGATE_GITHUB_CLIENT_ID", "client-2")  # too late: not read again
    monkeypatch.setenv("SKILLGATE_SLACK_BASE_URL", "http://127.0.0.1:9001")
    assert s.integration_env("github", "CLIENT_ID") == "client-1"
    assert s.integration_env("slack", "CLIENT_SECRET") is None
    assert s.upstream_hosts() == {"github": "http://127.0.0.1:9000"}
    assert s.upstream_base_url("slack", "https://slack.com/api") == "https://slack.com/api"
    assert s.upstream_base_url_set("github")
    assert s.base_url == "https://gateway.example"
    assert "client-1" not in repr(s)


def test_integration_settings_come_from_their_own_variables_or_the_caller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLGATE_INTEGRATION_VARS", '{"SKILLGATE_X_BASE_URL": "http://evil"}')
    monkeypatch.delenv("SKILLGATE_SAMPLE_BASE_URL", raising=False)
    assert "SKILLGATE_X_BASE_URL" not in Settings(data_dir=tmp_path).integration_vars
    given = Settings(data_dir=tmp_path, integration_vars={"SKILLGATE_SAMPLE_BASE_URL": "http://a"})
    assert given.upstream_hosts() == {"sample": "http://a"}
