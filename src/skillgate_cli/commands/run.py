"""`svc run <integration> <endpoint> [--param value ...]`: one call, one JSON answer.

stdout always carries exactly one JSON document: the gateway's envelope
`{"status": <upstream status>, "data"|"error": ...}`, the gateway's own error
body, or `{"error", "message"}` made here (bad flags, no key, network).

| outcome                                              | exit |
|------------------------------------------------------|------|
| upstream 2xx                                         | 0    |
| upstream 2xx whose envelope carries `error` (Slack)  | 1    |
| upstream 3xx or 4xx; gateway 4xx; bad flags; no key  | 1    |
| 409 confirmation_required (piped) or declined        | 1    |
| 202 approval_pending (held for a person's approval)  | 1    |
| upstream 5xx; gateway 5xx; network; timeout          | 2    |

svc's own options (`run_options`) add the execute body's fields; the call itself
goes through `retry` (one try unless --retry), a 409 confirmation_required through
`confirm`, and what is printed through `bounded`. An option's short spelling
(`--fields`) is the endpoint's parameter when the endpoint declares one of that name:
the names come from `svc pull`'s cache, else (only when a short spelling is used) from
one GET /v1/skills/:integration/:endpoint (discovery spends no rate limit); when that
cannot be read, the short spelling stays svc's and the execute reports the problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from skillgate_cli import run_options
from skillgate_cli.config import Config
from skillgate_cli.errors import CliError, ExitCode, one_line
from skillgate_cli.run_options import Given, RunOptions

if TYPE_CHECKING:
    from skillgate_cli.client import Client, Response

_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]+$")


def _upstream_message(error: Any) -> str:
    if isinstance(error, dict):
        for key in ("message", "error_description", "error", "detail"):
            value = error.get(key)
            if isinstance(value, str) and value:
                return value
    if isinstance(error, str) and error:
        return error
    import json

    return json.dumps(error, ensure_ascii=False)[:200]


def _reconnect(envelope: dict[str, Any], label: str) -> str:
    integration = label.split(" ", 1)[0]
    where = envelope.get("action_url")
    at = f" at {where}" if isinstance(where, str) and where else ""
    return (
        f"the service refused the stored credentials: reconnect{at} "
        f"or run `svc connect {integration}`, then retry"
    )


def outcome(envelope: dict[str, Any], label: str, hint: str) -> CliError | None:
    """None for success; otherwise the CliError that `run` ends with."""
    status = envelope.get("status")
    if not isinstance(status, int) or isinstance(status, bool):
        return None if "error" not in envelope else CliError(f"{label}: {hint}")
    if "error" in envelope:
        message = one_line(_upstream_message(envelope["error"]))
        if len(message) > 300:
            message = message[:297] + "..."
        wait = envelope.get("retry_after")
        if isinstance(wait, int | float) and not isinstance(wait, bool):
            hint = f"rate limited by the service: retry in {wait:g} s"
        if status == 401:  # the provider refused the stored credentials, not the parameters
            hint = _reconnect(envelope, label)
        if status >= 500:
            return CliError(
                f"{label}: the service failed ({status}): {message}: retry later",
                ExitCode.UNAVAILABLE,
                "upstream_error",
            )
        return CliError(
            f"{label}: the service refused ({status}): {message}: {hint}", error="upstream_error"
        )
    if 200 <= status < 300:
        return None
    if 300 <= status < 400:
        return CliError(
            f"{label}: the service answered {status} (a redirect); see `data`",
            error="upstream_redirect",
        )
    if status >= 500:
        return CliError(
            f"{label}: the service failed ({status}): retry later",
            ExitCode.UNAVAILABLE,
            "upstream_error",
        )
    return CliError(f"{label}: the service refused ({status}): {hint}", error="upstream_error")


def _declared_types(config: Config, integration: str, endpoint: str) -> Any:
    from skillgate_cli import platforms, typecache

    try:
        platform = platforms.resolve(config.root, config.platform)
    except CliError:
        platform = platforms.detect(config.root)
    return typecache.load(config.root / platforms.skill_dir(platform), integration, endpoint)


def _check_names(integration: str, endpoint: str) -> None:
    if integration.startswith("-"):
        raise CliError(
            f"{integration!r} is not an integration name: "
            "svc run <integration> <endpoint> --param value",
            error="bad_request",
        )
    if endpoint.startswith("-") or not _NAME_RE.match(endpoint):
        raise CliError(
            f"{endpoint!r} is not an endpoint name: svc run <integration> <endpoint> --param value",
            error="bad_request",
        )


def _parameters(client: Client, integration: str, endpoint: str) -> list[dict[str, Any]] | None:
    """The endpoint's documented parameters; None when they cannot be read (no such
    endpoint, no network: the execute that follows says so)."""
    from skillgate_cli.client import segment

    try:
        resp = client.request("GET", f"/v1/skills/{segment(integration)}/{segment(endpoint)}")
    except CliError:
        return None
    doc = resp.json() if resp.status == 200 else None
    params = doc.get("parameters") if isinstance(doc, dict) else None
    if not isinstance(params, list):
        return None
    return [p for p in params if isinstance(p, dict) and isinstance(p.get("name"), str)]


class _Names:
    """The endpoint's parameter names (and file parameters), asked for once and only
    when needed."""

    def __init__(self, client: Client, integration: str, endpoint: str, known: Any) -> None:
        self.client, self.integration, self.endpoint = client, integration, endpoint
        self.known: set[str] | None = None if known is None else set(known)
        self.asked = known is not None
        self.doc: list[dict[str, Any]] | None = None
        self.doc_asked = False

    def _doc(self) -> list[dict[str, Any]] | None:
        if not self.doc_asked:
            self.doc_asked = True
            self.doc = _parameters(self.client, self.integration, self.endpoint)
        return self.doc

    def get(self) -> set[str] | None:
        if not self.asked:
            self.asked = True
            doc = self._doc()
            self.known = None if doc is None else {p["name"] for p in doc}
        return self.known

    def files(self) -> set[str] | None:
        """The file parameters (`svc run --NAME @./path`, skillgate_cli.uploads)."""
        doc = self._doc()
        return None if doc is None else {p["name"] for p in doc if p.get("file") is True}


def _options(
    ctx: click.Context, before: list[Given], args: list[str], names: _Names
) -> tuple[RunOptions, list[str]]:
    """svc's options (`before` the names, then among `args`) and the parameters'
    arguments; a usage error for a bad option."""
    declared = names.get() if run_options.short_spellings(args) else names.known
    given, rest = run_options.scan(args, declared)
    try:
        return run_options.build([*before, *given]), rest
    except run_options.OptionError as exc:
        raise click.UsageError(str(exc), ctx) from None


def _call(
    ctx: click.Context, integration: str, endpoint: str, before: list[Given], args: list[str]
) -> tuple[Any, CliError | None, RunOptions]:
    """(what to print, the failure to end with if any, svc's options)."""
    from skillgate_cli import confirm, retry, uploads
    from skillgate_cli.client import from_config, segment
    from skillgate_cli.params import ParamError, parse_args

    _check_names(integration, endpoint)
    label = f"{integration} {endpoint}"
    hint = f"check the parameters with `svc skills {integration} {endpoint}`"
    config = Config.load()
    client = from_config(config)
    types = _declared_types(config, integration, endpoint)
    names = _Names(client, integration, endpoint, types)
    options, args = _options(ctx, before, args, names)
    try:
        params, as_typed = parse_args(args, types)
    except ParamError as exc:
        raise CliError(f"{exc}: {hint}", error="bad_params") from None
    uploads.attach(params, as_typed, names.files)
    path = f"/v1/{segment(integration)}/{segment(endpoint)}"
    body: dict[str, Any] = {"params": params}
    if as_typed:
        body["as_typed"] = as_typed  # the gateway keeps these texts for string parameters
    body.update(options.body())
    key = retry.idempotency_key(options)
    headers = {} if key is None else {"Idempotency-Key": key}
    tries = retry.TRIES if options.retry else 1
    resp = retry.send(client, path, body, headers, tries)
    asked = confirm.challenge(resp)
    if asked is not None:
        if not confirm.interactive():
            command = confirm.command_line(
                integration, endpoint, options, args, asked["confirm"], names.get()
            )
            return (*confirm.piped(label, asked, command), options)
        if not confirm.ask(label, asked):
            return (*confirm.declined(label), options)
        resp = retry.send(client, path, {**body, "confirm": asked["confirm"]}, headers, tries)
    return (*_answer(resp, integration, label, hint), options)


def _answer(resp: Response, integration: str, label: str, hint: str) -> tuple[Any, CliError | None]:
    """(what to print, the failure to end with) for the gateway's answer to an execute."""
    from skillgate_cli.client import gateway_error

    data = resp.json()
    if resp.status == 200 and isinstance(data, dict):
        return data, outcome(data, label, hint)
    failure = gateway_error(resp, label)
    if resp.status == 202 and isinstance(data, dict) and data.get("error") == "approval_pending":
        # Held, not refused: the message says where the person approves and how to learn
        # the outcome (the same `svc run` again); exit 1, nothing was sent yet.
        message = str(data.get("message", "waits for a person's approval")).rstrip(".")
        return data, CliError(f"{label}: {message}", ExitCode.FAILURE, "approval_pending")
    if failure.error in ("integration_not_connected", "token_expired"):
        failure.message += f": run `svc connect {integration}`"
    if resp.status < 400:
        failure = CliError(
            f"{label}: unexpected HTTP {resp.status} from the gateway: check SVC_BASE_URL",
            ExitCode.UNAVAILABLE,
        )
    if isinstance(data, dict) and "error" in data:
        return data, failure
    return {"error": failure.error, "message": failure.message}, failure


def _endpoint_help(ctx: click.Context, integration: str, endpoint: str) -> int:
    """The endpoint's own documentation; the generic help and the reason when unavailable."""
    from skillgate_cli.client import expect_json, from_config, segment
    from skillgate_cli.endpoint_help import render
    from skillgate_cli.output import say

    try:
        client = from_config(Config.load())
        path = f"/v1/skills/{segment(integration)}/{segment(endpoint)}"
        doc = expect_json(client.request("GET", path), f"{integration} {endpoint}")
        if not isinstance(doc, dict):
            raise CliError("the gateway's documentation is not an object")
    except CliError as exc:
        click.echo(ctx.get_help())
        say(f"note: no documentation for {integration} {endpoint}: {one_line(exc.message)}")
        return 0
    click.echo(render(integration, endpoint, doc))
    click.echo("\n" + "\n".join(run_options.help_lines()))
    return 0


def _own_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """svc's options as click options too: listed by `svc run --help`, and taken before
    the names (`svc run --dry-run github ...`); after them `run_options.split` finds them."""
    for name in reversed(run_options.OPTIONS):
        metavar, text = run_options.HELP[name]
        spellings = (f"--{run_options.PREFIX}{name}", f"--{name}", name.replace("-", "_"))
        if run_options.OPTIONS[name]:
            option = click.option(*spellings, metavar=metavar, help=text, multiple=True)
        else:
            option = click.option(*spellings, is_flag=True, help=text)
        command = option(command)
    return command


def _before_names(given: dict[str, Any]) -> list[Given]:
    """The options click took before the names (svc's, whatever the endpoint declares)."""
    out: list[Given] = []
    for name, takes_value in run_options.OPTIONS.items():
        value = given.get(name.replace("-", "_"))
        if takes_value:
            out += [(name, str(v), f"--{name}") for v in value or ()]
        elif value:
            out.append((name, None, f"--{name}"))
    return out


@click.command(
    "run",
    context_settings={
        "ignore_unknown_options": True,
        "allow_extra_args": True,
        "allow_interspersed_args": False,
    },
)
@click.argument("integration")
@click.argument("endpoint")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@_own_options
@click.pass_context
def command(
    ctx: click.Context, /, integration: str, endpoint: str, args: tuple[str, ...], **given: Any
) -> int:
    """Call an endpoint; flags become its parameters. Output is always JSON.

    \b
    svc run github create_issue --owner o --repo r --title "Bug" --labels bug,ui
    svc run github list_issues --owner o --repo r --per-page 5 --state=open
    svc run notion create_page '{"parent": {"page_id": "..."}}' --title Notes

    \b
    --name text         a string          --flag            true
    --n 50, --n -2.5    a number          --tags a,b        ["a", "b"]
    --x true / false    a boolean         --obj '{"k": 1}'  parsed JSON
    --name=value        as --name value   --t a --t b       ["a", "b"]
    '{"k": 1}'          merged in         --                ends the flags

    After `svc pull <integration>` values are parsed to the declared types
    instead. `svc run <integration> <endpoint> --help` shows that endpoint's
    parameters. Exit 0 on an upstream 2xx, 1 for upstream 3xx/4xx, bad flags, a
    missing connection or key, 2 for upstream 5xx, network errors and timeouts.

    The options below are svc's own, recognised anywhere among the flags.
    --svc-NAME is always svc's; --NAME too, unless the endpoint has a
    parameter of that name: then --NAME is that parameter, as the endpoint's
    example prints it (svc run google_drive about --fields user: Drive's
    fields), and svc's option is --svc-NAME. The JSON object reaches such a
    parameter too: svc run google_drive list_files '{"fields": "files(id,name)"}'.
    """
    from skillgate_cli.output import print_json

    if run_options.scan(args)[1] in (["--help"], ["-h"]):
        return _endpoint_help(ctx, integration, endpoint)
    try:
        data, failure, options = _call(ctx, integration, endpoint, _before_names(given), list(args))
    except CliError as exc:
        print_json({"error": exc.error, "message": exc.message})
        raise
    from skillgate_cli.bounded import print_bounded

    print_bounded(data, options.max_output, integration, endpoint)
    if failure is not None:
        raise failure
    return 0
