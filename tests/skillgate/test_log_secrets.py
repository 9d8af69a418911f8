"""No log line carries a key, token, key hash, password hash or credential, even when
the database fails under the routes that handle them (issue 11, item 2).

A real server process on a database only this test uses; its stderr is captured.
After a user, key and connection exist, the tables the routes use are broken
(triggers that fail every write, renamed tables) and every route is called again:
the errors (500 with tracebacks, or 503) must leave no secret in the log.
"""

from __future__ import annotations

import io
import logging
import re
import secrets
from pathlib import Path

import httpx
import pytest

from skillgate import logging as sg_logging
from skillgate.auth.sessions import COOKIE_NAME
from skillgate.kit.redact import redact
from tests.backing import own_database, run_sql
from tests.conftest import FIXTURES, PG_URL
from tests.process import clean_env, run_cli, serve
from tests.upstream import Provider

PASSWORD = "log-secrets-passphrase"
SECRET_PATTERNS = (
    re.compile(r"sk_[0-9A-Za-z]{36}"),
    re.compile(r"(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])"),
    re.compile(r"\$argon2"),
    re.compile(r"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\."),
)
BACKENDS = [
    "sqlite",
    pytest.param(
        "postgres",
        marks=pytest.mark.skipif(not PG_URL, reason="needs SKILLGATE_TEST_DATABASE_URL"),
    ),
]


def _fail_writes_sql(kind: str, table: str) -> list[str]:
    """A trigger that makes every INSERT and UPDATE of `table` fail (not an outage: a 500)."""
    if kind == "sqlite":
        return [
            f"CREATE TRIGGER sg_break_{table}_{op} BEFORE {op} ON {table} "
            "BEGIN SELECT RAISE(ABORT, 'forced failure'); END"
            for op in ("INSERT", "UPDATE")
        ]
    return [
        "CREATE OR REPLACE FUNCTION sg_break() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'forced failure'; END $$",
        f"CREATE TRIGGER sg_break_{table} BEFORE INSERT OR UPDATE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION sg_break()",
    ]


@pytest.mark.parametrize("kind", BACKENDS)
def test_database_errors_leave_no_secret_in_the_log(
    kind: str, tmp_path: Path, provider: Provider
) -> None:
    stored_token = "tok_" + secrets.token_hex(16)
    provider.valid_tokens.add(stored_token)
    with own_database(kind, tmp_path) as url:
        env = clean_env(
            SKILLGATE_DATABASE_URL=url,
            SKILLGATE_CATALOG_PATH=str(FIXTURES / "catalog"),
            SKILLGATE_SAMPLE_BASE_URL=provider.url,
            SKILLGATE_KEY_CACHE_TTL="0",  # every call reads the key from the database
            SKILLGATE_AUTO_MIGRATE="false",  # own_database migrated it
            SKILLGATE_LOG_LEVEL="DEBUG",
        )
        create = ["users", "create", "--email", "s@example.com", "--password", PASSWORD]
        made = run_cli("skillgate", *create, "--plan", "pro", cwd=tmp_path, env=env)
        assert made.returncode == 0, made.stderr
        with serve(tmp_path, env=env) as server, httpx.Client(base_url=server.url) as client:
            login = {"email": "s@example.com", "password": PASSWORD}
            token = client.post("/auth/login", json=login).json()["access_token"]
            by_token = {"Authorization": f"Bearer {token}"}
            full_key = client.post("/api-keys", json={"name": "k"}, headers=by_token).json()[
                "full_key"
            ]
            by_key = {"Authorization": f"Bearer {full_key}"}
            put = client.put("/v1/connections/sample", json={"token": stored_token}, headers=by_key)
            assert put.status_code == 200, put.text
            [(password_hash,)] = run_sql(url, "SELECT password_hash FROM users")
            [(key_hash,)] = run_sql(url, "SELECT key_hash FROM api_keys")
            [(sealed,)] = run_sql(url, "SELECT credentials FROM connections")

            # Writes fail inside the routes that write secrets (500, with a traceback).
            run_sql(
                url, *_fail_writes_sql(kind, "api_keys"), *_fail_writes_sql(kind, "connections")
            )
            statuses = [
                client.post("/api-keys", json={"name": "k2"}, headers=by_token).status_code,
                client.put(
                    "/v1/connections/sample", json={"token": stored_token}, headers=by_key
                ).status_code,
            ]
            # Then the tables themselves go (SQLite: an outage, 503; PostgreSQL: 500).
            run_sql(
                url,
                "ALTER TABLE api_keys RENAME TO api_keys_gone",
                "ALTER TABLE connections RENAME TO connections_gone",
                "ALTER TABLE users RENAME TO users_gone",
                "ALTER TABLE web_sessions RENAME TO web_sessions_gone",
            )
            statuses += [
                client.get("/v1/me", headers=by_key).status_code,
                client.get("/v1/connections", headers=by_key).status_code,
                client.get("/api-keys", headers=by_token).status_code,
                client.post("/auth/login", json=login).status_code,
                client.get(
                    "/keys", headers={"Cookie": f"{COOKIE_NAME}={secrets.token_urlsafe(32)}"}
                ).status_code,
            ]
            logs = server.logs()
    assert all(s in (500, 503) for s in statuses), statuses
    assert "forced failure" in logs  # the failures reached the log...
    assert "Traceback" in logs or kind == "sqlite"
    secrets_known = {
        "full key": full_key,
        "key without prefix": full_key[3:],
        "key hash": key_hash,
        "password hash": password_hash,
        "password hash digest": password_hash.rsplit("$", 1)[1],
        "access token": token,
        "access token signature": token.rsplit(".", 1)[1],
        "stored token": stored_token,
        "sealed credentials": bytes(sealed).hex(),
        "password": PASSWORD,
    }
    for name, secret in secrets_known.items():
        assert secret not in logs, f"{name} is in the log"  # ...without any secret
    for pattern in SECRET_PATTERNS:
        assert not pattern.search(logs), pattern.pattern


def test_redact_scrubs_each_shape_of_secret() -> None:
    key = "sk_" + "aZ09" * 9
    digest = "0123abcd" * 8
    argon = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo"
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3IifQ.c2lnbmF0dXJlLXNpZw"
    line = (
        f"key={key} hash='{digest}' pw=({argon}, 1) Authorization: Bearer opaque-credential-1 "
        f"jwt {jwt} DETAIL:  Key (key_hash)=(secret-value) already exists."
    )
    out = redact(line)
    for secret in (key, digest, argon, jwt, "opaque-credential-1", "secret-value", "c2FsdHNhbHQ"):
        assert secret not in out
    assert "Key (key_hash)=([redacted])" in out
    assert "Bearer [redacted]" in out
    assert redact("GET /v1/me 200 in 1.2 ms, request 0123456789abcdef") == (
        "GET /v1/me 200 in 1.2 ms, request 0123456789abcdef"
    )


def test_standard_library_records_are_scrubbed_at_every_handler() -> None:
    """uvicorn, SQLAlchemy and asyncpg log through the standard library, with their own
    handlers: the filter reaches those handlers, message, arguments and traceback."""
    key = "sk_" + "Qx7" * 12
    digest = "f00d" * 16
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(handler)
    try:
        sg_logging.scrub_handlers()
        try:
            raise RuntimeError(f"[parameters: ('{digest}',)] Authorization: Bearer {key}")
        except RuntimeError:
            logger.exception("Exception in ASGI application for %s", key)
        logger.warning("DETAIL:  Key (key_hash)=(%s) already exists.", digest)
    finally:
        logger.removeHandler(handler)
    written = stream.getvalue()
    assert "Exception in ASGI application" in written
    assert "Traceback" in written
    assert "Key (key_hash)=([redacted])" in written
    assert key not in written
    assert digest not in written
