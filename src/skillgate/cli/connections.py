"""`skillgate connections`: store a token without the OAuth dance, remove, list, re-encrypt."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import click
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.cli.checked import CheckedGroup
from skillgate.cli.context import run_db
from skillgate.cli.output import emit
from skillgate.settings import Settings

if TYPE_CHECKING:
    from skillgate.catalog.models import Integration


@click.group(cls=CheckedGroup)
def connections() -> None:
    """Users' connections to integrations."""


async def _user_id(session: AsyncSession, email: str) -> str:
    from skillgate.errors import NotFound
    from skillgate.users.repository import UserRepository
    from skillgate.users.service import normalize_email

    user = await UserRepository(session).by_email(normalize_email(email))
    if user is None:
        raise NotFound(f"no user with email {email!r}.")
    return user.id


@connections.command("set")
@click.option("--email", required=True)
@click.option("--integration", required=True)
@click.option("--access-token", required=True, help="Stored encrypted; never printed.")
@click.option("--refresh-token", default=None)
@click.option(
    "--expires-in", type=int, default=None, help="Seconds until the access token expires."
)
@click.option(
    "--username", default=None, help="HTTP Basic's username (then --access-token is its password)."
)
@click.option("--key", default=None, help="The key part of a key and token pair (Trello).")
@click.option(
    "--set",
    "settings_",
    multiple=True,
    metavar="NAME=VALUE",
    help="A connection variable (its site, data centre or shop); repeatable.",
)
def set_connection(
    email: str,
    integration: str,
    access_token: str,
    refresh_token: str | None,
    expires_in: int | None,
    username: str | None,
    key: str | None,
    settings_: tuple[str, ...],
) -> None:
    """Store a user's credentials for an integration (no verification request)."""
    from skillgate.catalog.hosts import check_values
    from skillgate.catalog.loader import load_catalog
    from skillgate.connections import stored
    from skillgate.connections.credentials import Credentials
    from skillgate.errors import NotFound
    from skillgate.kit.vault import Vault

    async def work(session: AsyncSession, settings: Settings) -> dict[str, object]:
        catalog = load_catalog(settings.catalog_paths())
        found = catalog.get(integration)
        if found is None:
            raise NotFound(
                f"unknown integration {integration!r}; see `skillgate catalog validate`."
            )
        creds = Credentials(
            access_token=access_token,
            refresh_token=refresh_token,
            expires_at=time.time() + expires_in if expires_in is not None else None,
            username=username,
            key=key,
        )
        row = await stored.store(
            session,
            Vault(settings.encryption_keys or ""),
            await _user_id(session, email),
            integration,
            _auth_type(found, refresh_token, username),
            creds,
            variables=check_values(found.variables, _pairs(settings_), username),
        )
        return {
            "integration": row.integration,
            "status": row.status,
            "auth_type": row.auth_type,
            "variables": row.variables,
            "token_expires_at": row.token_expires_at,
        }

    emit(run_db(work))


def _auth_type(found: Integration, refresh_token: str | None, username: str | None) -> str:
    """basic with a username (when the integration takes it), oauth2 with a refresh
    token or when there is no pasted kind, else token."""
    if username is not None and found.auth.basic is not None:
        return "basic"
    return "oauth2" if refresh_token or found.auth.pasted is None else "token"


def _pairs(items: tuple[str, ...]) -> dict[str, str]:
    """`--set NAME=VALUE` options as a dict (BadRequest naming a malformed one)."""
    from skillgate.errors import BadRequest

    out: dict[str, str] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq:
            raise BadRequest(f"--set {item!r}: expected NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


@connections.command("delete")
@click.option("--email", required=True)
@click.option("--integration", required=True)
def delete_connection(email: str, integration: str) -> None:
    """Disconnect a user from an integration."""
    from skillgate.connections import stored

    async def work(session: AsyncSession, settings: Settings) -> dict[str, object]:
        await stored.remove(session, await _user_id(session, email), integration)
        return {"integration": integration, "status": "not_connected"}

    emit(run_db(work))


@connections.command("list")
@click.option("--email", required=True)
def list_connections(email: str) -> None:
    """A user's connections (never their credentials)."""
    from skillgate.connections.repository import ConnectionRepository

    async def work(session: AsyncSession, settings: Settings) -> list[dict[str, object]]:
        rows = await ConnectionRepository(session).list_for_user(await _user_id(session, email))
        return [
            {
                "integration": c.integration,
                "status": c.status,
                "auth_type": c.auth_type,
                "account": c.account,
                "updated_at": c.updated_at,
            }
            for c in rows
        ]

    emit(run_db(work))


@connections.command("reencrypt")
def reencrypt() -> None:
    """Re-encrypt every stored credential under the first key of SKILLGATE_ENCRYPTION_KEYS."""
    from skillgate.connections import stored
    from skillgate.kit.vault import Vault

    async def work(session: AsyncSession, settings: Settings) -> dict[str, object]:
        vault = Vault(settings.encryption_keys or "")
        moved = await stored.reencrypt_all(session, vault)
        return {"reencrypted": moved, "key_id": vault.current_id}

    emit(run_db(work))
