"""`skillgate catalog import openapi|google FILE --slug S`: a catalog file from a description.

The catalog YAML goes to `--out` (or stdout); a one-line summary and every
skipped operation with its reason go to stderr. The file is validated the way
the server loads it (models, then `check_integration`) before it is written;
any problem names the file, the operation and the problem, and exits 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

AUTH_HELP = (
    "How a pasted token is sent: bearer, header:NAME or query:NAME (default: the document's)."
)


@click.group("import")
def import_group() -> None:
    """Compile an OpenAPI or Google Discovery document into a catalog file."""


def _common(fn: Any) -> Any:
    options = [
        click.argument("file", type=click.Path(dir_okay=False)),
        click.option(
            "--slug", required=True, help="The integration's slug ([a-z][a-z0-9_]{1,39})."
        ),
        click.option("--name", default=None, help="Display name (default: the document's title)."),
        click.option("--verify-path", default=None, help="GET path that proves a token works."),
        click.option(
            "--out", type=click.Path(dir_okay=False), default=None, help="Default: stdout."
        ),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


@import_group.command("openapi")
@_common
@click.option("--base-url", default=None, help="The API's base URL (default: the first server).")
@click.option("--auth", default=None, help=AUTH_HELP)
def import_openapi_cmd(
    file: str,
    slug: str,
    name: str | None,
    verify_path: str | None,
    out: str | None,
    base_url: str | None,
    auth: str | None,
) -> None:
    """An OpenAPI 3.0 or 3.1 document (JSON or YAML)."""
    _run(
        "openapi", file, slug, out, name=name, verify_path=verify_path, base_url=base_url, auth=auth
    )


@import_group.command("google")
@_common
def import_google_cmd(
    file: str, slug: str, name: str | None, verify_path: str | None, out: str | None
) -> None:
    """A Google API Discovery document (e.g. gmail.v1.json from google-api-python-client)."""
    _run("google", file, slug, out, name=name, verify_path=verify_path)


def _run(kind: str, file: str, slug: str, out: str | None, **options: Any) -> None:
    from skillgate.catalog.importers import (
        DocumentError,
        import_discovery,
        import_openapi,
        integration_dict,
        load_document,
    )

    importer = import_openapi if kind == "openapi" else import_discovery
    try:
        imported = importer(load_document(Path(file)), slug=slug)
        data = integration_dict(imported, slug=slug, **options)
    except DocumentError as exc:
        message = str(exc)
        _fail(message if message.startswith(file) else f"{file}: {message}")
    problems = _problems(data)
    if problems:
        _fail("\n".join(f"{file}: {p}" for p in problems))
    text = _yaml(data)
    if out:
        Path(out).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
    where = out or "stdout"
    click.echo(
        f"skillgate: {file}: {len(imported.endpoints)} endpoints for {slug!r} written to "
        f"{where}; {len(imported.skipped)} operations skipped",
        err=True,
    )
    for s in imported.skipped:
        click.echo(f"  skipped {s.operation} ({s.method} {s.path}): {s.reason}", err=True)
    for note in imported.notes:
        click.echo(f"  note {note}", err=True)


def _problems(data: dict[str, Any]) -> list[str]:
    """What the server's loader would refuse, one line each."""
    from pydantic import ValidationError

    from skillgate.catalog.models import Integration
    from skillgate.catalog.validate import check_integration

    try:
        integration = Integration.model_validate(data)
    except ValidationError as exc:
        return [
            ".".join(str(x) for x in e["loc"]) + ": " + e["msg"].removeprefix("Value error, ")
            for e in exc.errors()
        ]
    return check_integration(integration)


def _yaml(data: dict[str, Any]) -> str:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return str(yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=100))


def _fail(message: str) -> None:
    click.echo(f"skillgate: {message}", err=True)
    raise SystemExit(1)
