"""`skillgate connections` as a real process on the embedded database."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from tests.process import clean_env, new_data_dir, run_cli


def _json(result: object) -> object:
    assert getattr(result, "returncode") == 0, getattr(result, "stderr")
    return json.loads(getattr(result, "stdout"))


def test_set_list_reencrypt_delete(tmp_path: Path) -> None:
    new_data_dir(tmp_path)
    _json(
        run_cli(
            "skillgate",
            "users",
            "create",
            "--email",
            "o@example.com",
            "--password",
            "password123",
            cwd=tmp_path,
        )
    )
    stored = _json(
        run_cli(
            "skillgate",
            "connections",
            "set",
            "--email",
            "o@example.com",
            "--integration",
            "github",
            "--access-token",
            "ghp_secretvalue",
            "--refresh-token",
            "r1",
            "--expires-in",
            "3600",
            cwd=tmp_path,
        )
    )
    assert stored["status"] == "connected"
    assert stored["auth_type"] == "oauth2"
    listed = run_cli("skillgate", "connections", "list", "--email", "o@example.com", cwd=tmp_path)
    assert "ghp_secretvalue" not in listed.stdout + listed.stderr
    assert [c["integration"] for c in _json(listed)] == ["github"]  # type: ignore[union-attr]

    # Rotate: a new key first, the generated one after it.
    old_ring = json.loads((tmp_path / ".skillgate-secrets.json").read_text())["encryption_keys"]
    new_key = "k9:" + base64.urlsafe_b64encode(b"9" * 32).decode()
    env = clean_env(SKILLGATE_ENCRYPTION_KEYS=f"{new_key},{old_ring}")
    moved = _json(run_cli("skillgate", "connections", "reencrypt", cwd=tmp_path, env=env))
    assert moved == {"reencrypted": 1, "key_id": "k9"}
    again = _json(run_cli("skillgate", "connections", "reencrypt", cwd=tmp_path, env=env))
    assert again == {"reencrypted": 0, "key_id": "k9"}

    bad = run_cli(
        "skillgate",
        "connections",
        "reencrypt",
        cwd=tmp_path,
        env=clean_env(SKILLGATE_ENCRYPTION_KEYS="k1:not-base64!"),
    )
    assert bad.returncode == 2
    assert "SKILLGATE_ENCRYPTION_KEYS" in bad.stderr
    assert "Traceback" not in bad.stderr

    gone = _json(
        run_cli(
            "skillgate",
            "connections",
            "delete",
            "--email",
            "o@example.com",
            "--integration",
            "github",
            cwd=tmp_path,
        )
    )
    assert gone == {"integration": "github", "status": "not_connected"}
    missing = run_cli(
        "skillgate",
        "connections",
        "delete",
        "--email",
        "o@example.com",
        "--integration",
        "github",
        cwd=tmp_path,
    )
    assert missing.returncode == 1
    assert "No 'github' connection" in missing.stderr
    unknown = run_cli(
        "skillgate",
        "connections",
        "set",
        "--email",
        "o@example.com",
        "--integration",
        "nope",
        "--access-token",
        "x",
        cwd=tmp_path,
    )
    assert unknown.returncode == 1
    assert "unknown integration" in unknown.stderr


def test_set_basic_credentials_and_variables(tmp_path: Path) -> None:
    from tests.skillgate.hosts_catalog import CLOUD_ID, SITE

    new_data_dir(tmp_path)
    (tmp_path / "extra").mkdir()
    (tmp_path / "extra" / "site.yaml").write_text(SITE.format(port=9))
    env = clean_env(SKILLGATE_CATALOG_PATH=str(tmp_path / "extra"))
    user = ("--email", "o@example.com", "--password", "password123")
    _json(run_cli("skillgate", "users", "create", *user, cwd=tmp_path, env=env))
    args = ("connections", "set", "--email", "o@example.com", "--integration", "site")
    secret = ("--username", "me@example.com", "--access-token", "api-token-value")
    stored = _json(
        run_cli("skillgate", *args, *secret, "--set", f"cloudid={CLOUD_ID}", cwd=tmp_path, env=env)
    )
    assert stored["auth_type"] == "basic"  # type: ignore[index]
    assert stored["variables"] == {"cloudid": CLOUD_ID}  # type: ignore[index]
    bad = run_cli("skillgate", *args, *secret, "--set", "cloudid=../x", cwd=tmp_path, env=env)
    assert bad.returncode == 1
    assert "variables.cloudid" in bad.stderr
    assert "api-token-value" not in bad.stdout + bad.stderr


def test_set_takes_twilios_account_sid_from_the_username(tmp_path: Path) -> None:
    """A `from_username` variable left out is the Basic username when it is one
    (catalog.fills); an API key's SID is not, so then it must be given."""
    sid = "AC" + "0123456789abcdef" * 2
    new_data_dir(tmp_path)
    env = clean_env()
    user = ("--email", "o@example.com", "--password", "password123")
    _json(run_cli("skillgate", "users", "create", *user, cwd=tmp_path, env=env))
    args = ("connections", "set", "--email", "o@example.com", "--integration", "twilio")
    stored = _json(
        run_cli("skillgate", *args, "--username", sid, "--access-token", "t", cwd=tmp_path, env=env)
    )
    assert stored["variables"] == {"account_sid": sid}  # type: ignore[index]
    key = ("--username", "SK" + "0" * 32, "--access-token", "t")
    refused = run_cli("skillgate", *args, *key, cwd=tmp_path, env=env)
    assert refused.returncode == 1
    assert "variables.account_sid: required: Account SID" in refused.stderr
    given = _json(
        run_cli("skillgate", *args, *key, "--set", f"account_sid={sid}", cwd=tmp_path, env=env)
    )
    assert given["variables"] == {"account_sid": sid}  # type: ignore[index]
