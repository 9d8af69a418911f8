"""`skillgate catalog`: validate files, export the JSON schema, print the integrations table,
import an OpenAPI or Google Discovery document (`catalog_import`), reload the running
server's catalog (`reload`)."""

from __future__ import annotations

import json

import click

from skillgate.catalog.workers import PID_FILE
from skillgate.cli.catalog_import import import_group
from skillgate.cli.output import emit
from skillgate.cli.reload import reload_cmd

__all__ = ["PID_FILE", "catalog"]


@click.group()
def catalog() -> None:
    """The integration catalog."""


catalog.add_command(import_group)
catalog.add_command(reload_cmd)


@catalog.command("validate")
@click.argument("paths", nargs=-1, type=click.Path())
def validate(paths: tuple[str, ...]) -> None:
    """Check the shipped catalog plus PATHS (files or directories); exit 1 on any problem."""
    from skillgate.catalog.validate import validate_paths

    problems = validate_paths(list(paths))
    for line in problems:
        click.echo(line, err=True)
    if problems:
        raise SystemExit(1)
    from skillgate.catalog.loader import load_catalog

    loaded = load_catalog(list(paths))
    emit(
        [
            {"slug": i.slug, "name": i.name, "endpoints": len(i.endpoints)}
            for i in loaded.integrations.values()
        ]
    )


@catalog.command("schema")
def schema() -> None:
    """Print the JSON schema of a catalog file (for editors)."""
    from skillgate.catalog.models import Integration

    click.echo(json.dumps(Integration.model_json_schema(by_alias=True), indent=2))


@catalog.command("table")
@click.argument("paths", nargs=-1, type=click.Path())
def table(paths: tuple[str, ...]) -> None:
    """Print the Markdown table of integrations and endpoint counts (for the README): the
    shipped catalog plus PATHS. An integration whose calls may reach private addresses
    (`allow_private_network: true`) says so beside its name."""
    from skillgate.catalog.loader import load_catalog

    loaded = load_catalog(list(paths))
    click.echo("| Integration | Slug | Endpoints | Categories |")
    click.echo("|---|---|---|---|")
    total = 0
    for i in loaded.integrations.values():
        cats = sorted({e.category for e in i.endpoints})
        total += len(i.endpoints)
        shown = ", ".join(cats) if len(cats) <= 8 else ", ".join(cats[:6]) + f", … ({len(cats)})"
        name = i.name + (" (private network allowed)" if i.allow_private_network else "")
        click.echo(f"| {name} | `{i.slug}` | {len(i.endpoints)} | {shown} |")
    click.echo(f"| **Total** | | **{total}** | |")


@catalog.command("build")
def build_cmd() -> None:
    """Compile catalog/compiled/*.json again from the stored pinned sources (no network)."""
    from skillgate.catalog.sources import SourceError, build

    try:
        written = build()
    except SourceError as exc:
        raise click.ClickException(str(exc)) from None
    emit([{"compiled": str(p), "bytes": p.stat().st_size} for p in written])


@catalog.command("sync")
@click.option("--update", is_flag=True, help="Accept new digests after a deliberate version bump.")
def sync_cmd(update: bool) -> None:
    """Download the pinned sources again (npm, PyPI), check their digests, rebuild."""
    from skillgate.catalog.sources import SourceError
    from skillgate.catalog.sync import sync

    try:
        written = sync(update=update)
    except SourceError as exc:
        raise click.ClickException(str(exc)) from None
    emit([{"compiled": str(p), "bytes": p.stat().st_size} for p in written])
