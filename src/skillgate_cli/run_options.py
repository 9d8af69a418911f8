"""svc's own options of `svc run`, told apart from the endpoint's parameters.

| option                     | becomes (issue 15's execute contract)             |
|----------------------------|---------------------------------------------------|
| `--svc-dry-run`            | `"dry_run": true`                                 |
| `--svc-confirm TOKEN`      | `"confirm": TOKEN`                                |
| `--svc-idempotency-key K`  | header `Idempotency-Key: K`                       |
| `--svc-retry`              | up to 3 tries (see `retry.py`); no field          |
| `--svc-all`                | `"paginate": {}` (the gateway's defaults)         |
| `--svc-max-items N`        | `"paginate": {"max_items": N}` (implies `--all`)  |
| `--svc-max-pages P`        | `"paginate": {"max_pages": P}` (implies `--all`)  |
| `--svc-fields a,b.c`       | `"fields": ["a", "b.c"]` (repeatable)             |
| `--svc-max-bytes N`        | `"max_bytes": N`                                  |
| `--svc-max-output BYTES`   | svc's own bound on stdout (see `bounded.py`)      |

Each has two spellings (issue 23): `--svc-NAME` is always svc's, whatever the
endpoint; the short `--NAME` is svc's unless the endpoint declares a parameter of
that name (Google's `fields`, Box's `fields`, Stripe's `confirm`, GitHub's `all`), in
which case `--NAME` is that parameter, as the endpoint's example prints it. So every
documented example runs as printed, and the short spelling keeps working wherever it
cannot be ambiguous. Who says what the endpoint declares: `split(args, declared)`;
`None` (not known) reads every short spelling as svc's, as before; `svc run` passes the
names it knows (`svc pull`'s cache, else the endpoint's documentation, see
`commands/run.py`). No catalog parameter may be named `svc_<option>` (the catalog
validator refuses it), so `--svc-NAME` never collides.

They are recognised anywhere among the flags (before a `--`), spelled with `-` or
`_` as parameters are, as `--name value` or `--name=value`. Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from skillgate_cli.params import parse_number

DEFAULT_MAX_OUTPUT = 65536
_FLAG_RE = re.compile(r"^--([A-Za-z][A-Za-z0-9_-]*)(=(.*))?$", re.DOTALL)
_PATH_RE = re.compile(r"^[^.\s]+(\.[^.\s]+)*$")
PREFIX = "svc-"  # `--svc-NAME`: svc's own whatever the endpoint declares

# Canonical name -> takes a value. The order is the one `--help` lists them in.
OPTIONS: dict[str, bool] = {
    "dry-run": False,
    "confirm": True,
    "idempotency-key": True,
    "retry": False,
    "all": False,
    "max-items": True,
    "max-pages": True,
    "fields": True,
    "max-bytes": True,
    "max-output": True,
}
HELP: dict[str, tuple[str, str]] = {  # name -> (metavar, one line)
    "dry-run": ("", "build and show the exact upstream request; send nothing"),
    "confirm": ("TOKEN", "send a call that needed confirmation (the token of its 409)"),
    "idempotency-key": ("K", "send it once: the gateway answers a repeat from its store"),
    "retry": ("", "up to 3 tries on network errors, timeouts and 5xx, with one key"),
    "all": ("", "follow the pagination; all items in one answer"),
    "max-items": ("N", "stop paginating after N items (1-10000; implies --all)"),
    "max-pages": ("P", "stop paginating after P pages (1-100; implies --all)"),
    "fields": ("a,b.c", "keep only these (dotted) fields of the data"),
    "max-bytes": ("N", "the gateway cuts the data to N bytes (at least 1024)"),
    "max-output": ("BYTES", "piped answers above this go to a file (default 65536; 0: never)"),
}
CLASH_NOTE = (
    "--NAME is the endpoint's parameter when the endpoint has one of that name "
    "(Drive's fields): svc's option is then --svc-NAME, which is always svc's "
    "(--svc-fields files.name). The JSON object reaches the parameter too: "
    'svc run google_drive list_files \'{"fields": "files(id,name)"}\'.'
)

# (canonical name, value, the flag as typed: "--max-items" or "--svc-max-items")
Given = tuple[str, str | None, str]


class OptionError(ValueError):
    """A bad value for one of svc's options; the message names the option."""


@dataclass(frozen=True)
class RunOptions:
    dry_run: bool = False
    confirm: str | None = None
    idempotency_key: str | None = None
    retry: bool = False
    paginate: dict[str, int] | None = None
    fields: tuple[str, ...] | None = None
    max_bytes: int | None = None
    max_output: int = DEFAULT_MAX_OUTPUT
    given: tuple[Given, ...] = field(default=())  # as typed, in order

    def body(self) -> dict[str, Any]:
        """The fields this adds to the execute body beside `params`."""
        out: dict[str, Any] = {}
        if self.dry_run:
            out["dry_run"] = True
        if self.confirm is not None:
            out["confirm"] = self.confirm
        if self.paginate is not None:
            out["paginate"] = dict(self.paginate)
        if self.fields is not None:
            out["fields"] = list(self.fields)
        if self.max_bytes is not None:
            out["max_bytes"] = self.max_bytes
        return out

    def argv(self, *, without: str = "", declared: Collection[str] | None = None) -> list[str]:
        """The options as given, as `svc run` arguments (`--name=value`), less `without`;
        `--svc-NAME` for one whose short spelling names one of `declared`."""
        out: list[str] = []
        for name, value, flag in self.given:
            if name == without:
                continue
            if declared is not None and name.replace("-", "_") in declared:
                flag = f"--{PREFIX}{name}"
            out.append(flag if value is None else f"{flag}={value}")
        return out


def _integer(flag: str, text: str, low: int, high: int | None) -> int:
    number = parse_number(text.strip())
    if not isinstance(number, int) or number < low or (high is not None and number > high):
        upper = f" to {high}" if high is not None else " or more"
        raise OptionError(f"{flag} expects a whole number from {low}{upper}, got {text!r}")
    return number


def _token(flag: str, text: str, limit: int) -> str:
    if not text or len(text) > limit or not text.isascii() or not text.isprintable():
        raise OptionError(
            f"{flag} expects 1 to {limit} printable ASCII characters, got {text[:40]!r}"
        )
    return text


def _fields(flag: str, texts: list[str]) -> tuple[str, ...]:
    paths = [p.strip() for text in texts for p in text.split(",")]
    for path in paths:
        if not _PATH_RE.match(path):
            raise OptionError(
                f"{flag} expects comma-separated dotted paths (number,user.login), "
                f"got {','.join(texts)!r}"
            )
    unique = tuple(dict.fromkeys(paths))
    if len(unique) > 100:
        raise OptionError(f"{flag} takes at most 100 paths, got {len(unique)}")
    return unique


def _max_output(flag: str, text: str) -> int:
    number = parse_number(text.strip())
    if number == 0:
        return 0
    return _integer(flag, text, 1024, None)


def build(given: list[Given]) -> RunOptions:
    """RunOptions of (canonical name, value, flag as typed); OptionError for a bad value."""
    values: dict[str, str | None] = {}
    flags: dict[str, str] = {}
    fields: list[str] = []
    for name, value, flag in given:
        if OPTIONS[name] and value is None:
            raise OptionError(f"{flag} needs a value ({HELP[name][0]})")
        if not OPTIONS[name] and value is not None:
            raise OptionError(f"{flag} takes no value, got {value!r}")
        if name == "fields":
            fields.append(str(value))
        values[name] = value  # the last one wins, as with click's options
        flags[name] = flag
    paginate: dict[str, int] | None = {} if "all" in values else None
    for name, cap in (("max-items", 10000), ("max-pages", 100)):
        text = values.get(name)
        if text is not None:
            paginate = paginate if paginate is not None else {}
            paginate[name.replace("-", "_")] = _integer(flags[name], text, 1, cap)
    max_bytes = values.get("max-bytes")
    max_output = values.get("max-output")
    confirm = values.get("confirm")
    key = values.get("idempotency-key")
    return RunOptions(
        dry_run="dry-run" in values,
        confirm=None if confirm is None else _token(flags["confirm"], confirm, 255),
        idempotency_key=None if key is None else _token(flags["idempotency-key"], key, 255),
        retry="retry" in values,
        paginate=paginate,
        fields=_fields(flags["fields"], fields) if fields else None,
        max_bytes=None
        if max_bytes is None
        else _integer(flags["max-bytes"], max_bytes, 1024, None),
        max_output=(
            DEFAULT_MAX_OUTPUT
            if max_output is None
            else _max_output(flags["max-output"], max_output)
        ),
        given=tuple(given),
    )


def _own(raw: str, declared: Collection[str] | None) -> tuple[str, str] | None:
    """(canonical name, flag) when `--raw` is one of svc's options here; else None.

    `--svc-NAME` always is; `--NAME` is unless the endpoint declares the parameter
    `--NAME` names (`params.parse_args` reads `--max-items` as `max_items`)."""
    name = raw.replace("_", "-")
    if name.startswith(PREFIX) and name[len(PREFIX) :] in OPTIONS:
        return name[len(PREFIX) :], f"--{name}"
    if name in OPTIONS and (declared is None or raw.replace("-", "_") not in declared):
        return name, f"--{name}"
    return None


def flag_for(name: str, declared: Collection[str] | None) -> str:
    """The spelling of svc's option `name` to print in a command: the short one unless
    the endpoint declares (or may declare: `None`) a parameter it would name."""
    if declared is not None and name.replace("-", "_") not in declared:
        return f"--{name}"
    return f"--{PREFIX}{name}"


def short_spellings(args: list[str] | tuple[str, ...]) -> bool:
    """Whether `args` use the short `--NAME` of one of svc's options (before `--`): only
    then does reading them depend on the endpoint's parameter names."""
    for arg in args:
        if arg == "--":
            return False
        match = _FLAG_RE.match(arg)
        if match and match.group(1).replace("_", "-") in OPTIONS:
            return True
    return False


def scan(
    args: list[str] | tuple[str, ...], declared: Collection[str] | None = None
) -> tuple[list[Given], list[str]]:
    """(svc's options as typed, the arguments left for the parameters); no value checked.

    The scan follows `params.parse_args`: a token `--name` is a flag wherever it stands
    before `--` (a value that starts with `--` needs `--name=value`), so an option is
    never mistaken for a parameter's value, nor a value for an option. `declared`: the
    endpoint's parameter names, None when not known (see the module's docstring).
    """
    given: list[Given] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            rest.extend(args[i - 1 :])
            break
        match = _FLAG_RE.match(arg)
        own = _own(match.group(1), declared) if match else None
        if match is None or own is None:
            rest.append(arg)
            continue
        name, flag = own
        value: str | None = match.group(3) if match.group(2) is not None else None
        if value is None and OPTIONS[name] and i < len(args):
            nxt = args[i]
            if nxt != "--" and not (nxt.startswith("--") and parse_number(nxt) is None):
                value = nxt
                i += 1
        given.append((name, value, flag))
    return given, rest


def split(
    args: list[str] | tuple[str, ...], declared: Collection[str] | None = None
) -> tuple[RunOptions, list[str]]:
    """(svc's options, the arguments left for the parameters) of `svc run` arguments;
    OptionError for a bad value. `declared` as for `scan`."""
    given, rest = scan(args, declared)
    return build(given), rest


def help_lines() -> list[str]:
    """The options as `--help` lists them after an endpoint's parameters."""
    width = max(len(f"--{n} {HELP[n][0]}".strip()) for n in OPTIONS)
    lines = ["svc options (anywhere among the flags; each also spelled --svc-NAME):"]
    for name in OPTIONS:
        flag = f"--{name} {HELP[name][0]}".strip()
        lines.append(f"  {flag.ljust(width)}  {HELP[name][1]}")
    lines.append(f"  {CLASH_NOTE}")
    return lines
