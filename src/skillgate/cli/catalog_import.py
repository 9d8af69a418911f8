"""`skillgate catalog import openapi|google FILE --slug S`: a catalog file from a description.

The catalog YAML goes to `--out` (or stdout), written 0600 (owner only); a
one-line summary and every skipped operation with its reason go to stderr.
When no operation imports, nothing is written: the reasons, each with how many
operations it left out, go to stderr and the exit code is 1. The
file is validated the way the server loads it (models, then
`check_integration`) before it is written; any problem names the file, the
operation and the problem, and exits 1. A base URL on a loopback, private or
link-local address (or `localhost`) needs `--allow-private-network`, recorded in
the file as `allow_private_network: true`: without it the executor refuses such
addresses, names that resolve to them included.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

AUTH_HELP = (
    "How a pasted token is sent: bearer, header:NAME or query:NAME (default: the document's)."
)
PRIVATE_HELP = (
    "Let this integration's calls reach loopback, private or link-local addresses "
    "(recorded in the file as allow_private_network: true)."
)


@click.group("import")
def import_group() -> None:
    """Compile an OpenAPI (or Swagger 2.0) or Google Discovery document into a catalog file."""


def _common(fn: Any) -> Any:
    options = [
        click.argument("file"),  # a file or an http(s) URL
        click.option(
            "--slug", required=True, help="The integration's slug ([a-z][a-z0-9_]{1,39})."
        ),
        click.option("--name", default=None, help="Display name (default: the document's title)."),
        click.option("--verify-path", default=None, help="GET path that proves a token works."),
        click.option(
            "--out",
            type=click.Path(dir_okay=False, allow_dash=True),
            default=None,
            help="Default: <slug>.yaml in the catalog directory; - for stdout.",
        ),
        click.option("--allow-private-network", is_flag=True, help=PRIVATE_HELP),
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
    allow_private_network: bool,
    base_url: str | None,
    auth: str | None,
) -> None:
    """An OpenAPI 3.0 or 3.1 or a Swagger 2.0 document (JSON or YAML)."""
    options = {"name": name, "verify_path": verify_path, "base_url": base_url, "auth": auth}
    _run("openapi", file, slug, out, allow_private_network, **options)


@import_group.command("google")
@_common
def import_google_cmd(
    file: str,
    slug: str,
    name: str | None,
    verify_path: str | None,
    out: str | None,
    allow_private_network: bool,
) -> None:
    """A Google API Discovery document (e.g. gmail.v1.json from google-api-python-client)."""
    _run("google", file, slug, out, allow_private_network, name=name, verify_path=verify_path)


def _run(kind: str, file: str, slug: str, out: str | None, private: bool, **options: Any) -> None:
    from skillgate.catalog.importers import (
        DocumentError,
        import_discovery,
        import_openapi,
        integration_dict,
        load_document,
    )
    from skillgate.settings import split_catalog_path

    importer = import_openapi if kind == "openapi" else import_discovery
    try:
        document = load_document(fetch_url(file) if is_url(file) else Path(file))
        imported = importer(document, slug=slug)
        if not imported.endpoints:
            _fail(f"{file}: no operation imported" + reason_counts(imported.skipped))
        data = integration_dict(imported, slug=slug, **options)
    except DocumentError as exc:
        message = str(exc)
        _fail(message if message.startswith(file) else f"{file}: {message}")
    data = _network(data, private)
    if not private and private_host(str(data.get("base_url") or "")):
        _fail(
            f"{file}: base_url {data['base_url']} is a loopback, private or link-local "
            "address; the gateway calls such addresses only for an integration that allows "
            "it: pass --allow-private-network if this is intended"
        )
    problems = _problems(data)
    if problems:
        _fail("\n".join(f"{file}: {p}" for p in problems))
    text = _yaml(data)
    paths: list[str] = []
    if out is None:
        target: Path | None
        target, paths = default_target(slug)
    else:
        target = None if out == "-" else Path(out)
        paths = split_catalog_path(os.environ.get("SKILLGATE_CATALOG_PATH"))
    if target is None:
        click.echo(text, nl=False)
    else:
        problem = fits_the_catalog(target, text, paths)
        if problem:
            _fail(f"{file}: {problem}")
        write_private(target, text)
    where = str(target) if target else "stdout"
    click.echo(
        f"skillgate: {file}: {len(imported.endpoints)} endpoints for {slug!r} written to "
        f"{where}; {len(imported.skipped)} operations skipped"
        + ("; a running server serves it after `skillgate catalog reload`" if target else ""),
        err=True,
    )
    for s in imported.skipped:
        click.echo(f"  skipped {s.operation} ({s.method} {s.path}): {s.reason}", err=True)
    for note in imported.notes:
        click.echo(f"  note {note}", err=True)


def reason_counts(skipped: list[Any]) -> str:
    """`: N operations skipped`, then one line per reason with its count, most first."""
    from collections import Counter

    counts = Counter(s.reason for s in skipped)
    lines = [f"\n  {n} skipped: {reason}" for reason, n in counts.most_common()]
    return f": {len(skipped)} operations skipped" + "".join(lines)


def _network(data: dict[str, Any], private: bool) -> dict[str, Any]:
    """`data` with `allow_private_network: true` after its base URL when `private`."""
    if not private:
        return data
    out: dict[str, Any] = {}
    for key, value in data.items():
        out[key] = value
        if key == "base_url":
            out["allow_private_network"] = True
    return out


def private_host(url: str) -> bool:
    """Whether `url`'s host is `localhost` or an address that is not global."""
    from urllib.parse import urlsplit

    from skillgate.kit.outbound import is_global, is_ip_literal

    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    return is_ip_literal(host) and not is_global(host)


def write_private(target: Path, text: str) -> None:
    """`text` into `target`, readable by its owner only (0600), whatever the umask or
    the mode of a file it replaces."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        os.fchmod(f.fileno(), 0o600)
        f.write(text)


def is_url(file: str) -> bool:
    return file.startswith(("https://", "http://"))


def fetch_url(url: str) -> str:
    """The document at `url` (an operator's own API description), at most 64 MiB."""
    import urllib.error
    import urllib.request

    from skillgate.catalog.importers import DocumentError
    from skillgate.catalog.importers.document import MAX_DOCUMENT

    request = urllib.request.Request(url, headers={"Accept": "application/json, */*"})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            data: bytes = response.read(MAX_DOCUMENT + 1)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise DocumentError(f"{url}: cannot fetch: {exc}") from None
    if len(data) > MAX_DOCUMENT:
        raise DocumentError(f"{url}: the document is over 64 MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise DocumentError(f"{url}: the document is not UTF-8 text") from None


def default_target(slug: str) -> tuple[Path, list[str]]:
    """`<slug>.yaml` in the catalog directory the server reads (the first directory of
    SKILLGATE_CATALOG_PATH, else the data directory's `catalog/`, created), and the
    server's catalog paths."""
    from skillgate.cli.context import load_settings

    settings = load_settings()
    paths = settings.catalog_paths()
    for entry in paths:
        if Path(entry).is_dir():
            return Path(entry) / f"{slug}.yaml", paths
    settings.own_catalog_dir.mkdir(parents=True, exist_ok=True)
    return settings.own_catalog_dir / f"{slug}.yaml", paths


def fits_the_catalog(target: Path, text: str, paths: list[str]) -> str | None:
    """Whether the shipped catalog plus `paths` still loads with `text` at `target`
    (no slug taken twice, ...): what the server would refuse, or None."""
    import tempfile

    from skillgate.catalog.loader import CatalogError, load_catalog

    others = [p for p in paths if Path(p).resolve() != target.parent.resolve()]
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp) / target.name
        staged.write_text(text, encoding="utf-8")
        siblings = [
            f for f in sorted(target.parent.glob("*.y*ml")) if f.name != target.name
        ] if target.parent.is_dir() else []  # fmt: skip
        try:
            load_catalog([*others, *siblings, staged])
        except CatalogError as exc:
            return str(exc).replace(str(staged), str(target))
    return None


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
