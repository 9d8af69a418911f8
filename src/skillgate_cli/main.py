"""`svc`: the agent-facing command line.

Start-up is paid on every agent call, so each command lives in its own module
under `skillgate_cli.commands` and is imported only when it runs (`svc
--version` and `svc --help` import none of them). Every failure ends here as
one line on stderr and the exit code of `errors.ExitCode`.
"""

from __future__ import annotations

import importlib
import io
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, BinaryIO

import click

from skillgate_cli import __version__
from skillgate_cli.errors import CliError, ExitCode, one_line

# name -> (module, one-line help shown by `svc --help`)
COMMANDS: dict[str, tuple[str, str]] = {
    "login": ("login", "Sign in (browser or --key) and save the key to the project's .env."),
    "skills": ("skills", "List integrations, their endpoints or one; --search by task."),
    "status": ("status", "Who is signed in and which integrations are connected."),
    "run": ("run", "Call an endpoint: svc run <integration> <endpoint> --param value."),
    "pull": ("pull", "Save an integration's documentation where the agent looks."),
    "connect": ("connect", "Connect an integration in the browser and wait for it."),
    "mcp": ("mcp", "MCP on stdio for MCP clients; `svc mcp config` prints set-ups."),
    "logout": ("logout", "Remove SVC_API_KEY from the project's .env."),
    "approve": ("approve", "Approve (or --deny) a call held for your approval."),
    "help": ("help", "Show help for svc or one command."),
}


class LazyGroup(click.Group):
    """Commands imported on first use; the listing comes from COMMANDS."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module = importlib.import_module(f"skillgate_cli.commands.{entry[0]}")
        command: click.Command = module.command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, text) for name, (_, text) in COMMANDS.items()])


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    invoke_without_command=True,
)
@click.version_option(
    __version__, "-V", "--version", prog_name="svc", message="%(prog)s %(version)s"
)
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Discover and call third-party APIs through Skill Gateway.

    Data goes to stdout (JSON when piped), messages to stderr. Exit codes:
    0 success, 1 something to fix (the message says what), 2 network or
    server error (retry later), 130 interrupted.
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


def _usage_line(exc: click.UsageError) -> str:
    ctx = exc.ctx
    where = f"svc {ctx.command_path.partition(' ')[2]}".strip() if ctx else "svc"
    hint = f"see `{where} --help`" if where != "svc" else "run `svc help`"
    return f"{one_line(exc.format_message()).rstrip('.')}: {hint}"


def run(argv: list[str]) -> int:
    """Run `svc argv` and return its exit code; stderr gets at most one error line."""
    try:
        result: Any = cli.main(args=argv, prog_name="svc", standalone_mode=False)
    except CliError as exc:
        click.echo(f"svc: {one_line(exc.message)}", err=True)
        return int(exc.code)
    except click.UsageError as exc:
        line = _usage_line(exc)
        if exc.ctx is not None and exc.ctx.command.name == "run":
            # `svc run` prints exactly one JSON document, even for a usage error.
            from skillgate_cli.output import print_json

            print_json({"error": "bad_request", "message": line})
        click.echo(f"svc: {line}", err=True)
        return int(ExitCode.FAILURE)
    except click.ClickException as exc:
        click.echo(f"svc: {one_line(exc.format_message())}", err=True)
        return int(ExitCode.FAILURE)
    except (click.Abort, KeyboardInterrupt):
        click.echo("svc: interrupted", err=True)
        return int(ExitCode.INTERRUPTED)
    except BrokenPipeError:
        raise
    except Exception as exc:  # a bug: still one line, unless SVC_DEBUG asks for the traceback
        if os.environ.get("SVC_DEBUG"):
            raise
        detail = one_line(f"{type(exc).__name__}: {exc}")
        click.echo(f"svc: internal error ({detail}): set SVC_DEBUG=1 for details", err=True)
        return int(ExitCode.FAILURE)
    return result if isinstance(result, int) else int(ExitCode.OK)


def run_in(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: str | os.PathLike[str],
    stdin: BinaryIO,
    stdout: BinaryIO,
    stderr: BinaryIO,
) -> int:
    """Run `svc argv` in this process as if it had been started with `env`, in `cwd`, on
    these (binary) streams, and return the exit code `main()` would exit with.

    For tests and embedding: the process's environment, working directory and standard
    streams are swapped for the call and put back after, so one call runs at a time.
    A stream that is not a terminal behaves as a pipe does (JSON output, no prompts).
    """
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    text_in = io.TextIOWrapper(stdin, encoding="utf-8")
    text_out = io.TextIOWrapper(stdout, encoding="utf-8", write_through=True)
    text_err = io.TextIOWrapper(stderr, encoding="utf-8", errors="backslashreplace")
    try:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        sys.stdin, sys.stdout, sys.stderr = text_in, text_out, text_err
        return run(list(argv))
    finally:
        for stream in (text_out, text_err):
            stream.flush()
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        for stream in (text_in, text_out, text_err):
            stream.detach()  # the caller's streams stay open


def main() -> None:
    try:
        code = run(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`svc skills | head`): not our failure to report.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = int(ExitCode.OK)
    sys.exit(code)
