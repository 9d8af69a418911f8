"""Turn `svc run` arguments into the `params` object.

The spec's table, and what we add to it:

| argument                     | becomes                                   |
|------------------------------|-------------------------------------------|
| `--name "text"`              | `"text"`                                  |
| `--flag` (no value)          | `true`                                    |
| `--name 50`, `--n -2.5`      | a number (only when the text round-trips) |
| `--name "a,b"`               | `["a", "b"]`                              |
| `--name true` / `false`      | a boolean                                 |
| `--name '{"k":1}'`, `'[1,2]'`| parsed JSON                               |
| `--name null` (declared, not a string) | JSON null (clears a nullable field) |
| `--name=value`               | as `--name value`                         |
| `--name a --name b`          | `["a", "b"]`                              |
| `'{"k": 1}'` (positional)    | merged into the params                    |
| `--`                         | ends flags; what follows must be JSON     |

`--issue-number` and `--issue_number` name the same parameter. When the
endpoint's declared types are known (`types`), values are parsed to them
instead of guessed. Standard library only: this runs on every agent call.

Guessing loses text (`--zip 007` is fine, but `--v 1e3`, `--title true` and
`--body '{"k": 1}'` change type), so `parse_args` also returns `as_typed`: the
exact text of each flag given once with a value whose parsed value is not
that same string. The gateway uses it for parameters it declares `string`.
"""

from __future__ import annotations

import json
import re
from typing import Any

_NUMBER_RE = re.compile(r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$")
_FLAG_RE = re.compile(r"^--([A-Za-z][A-Za-z0-9_-]*)(=(.*))?$", re.DOTALL)
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


class ParamError(ValueError):
    """An argument that cannot become a parameter; the message says which."""


def parse_number(text: str) -> int | float | None:
    """The number `text` spells, only if writing it back gives the same text."""
    if not _NUMBER_RE.match(text):
        return None
    if "." not in text and "e" not in text and "E" not in text:
        return int(text)
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        return None
    return value if repr(value) == text else None


def _parse_json(text: str) -> Any:
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            return json.loads(stripped)
        except ValueError:
            return None
    return None


def guess_value(text: str) -> Any:
    """A value with no declared type, as the table says."""
    parsed = _parse_json(text)
    if parsed is not None:
        return parsed
    number = parse_number(text)
    if number is not None:
        return number
    if text in ("true", "false"):
        return text == "true"
    if "," in text:
        return text.split(",")
    return text


def typed_value(name: str, text: str, type_: str, items: str | None = None) -> Any:
    """A value parsed to its declared type; ParamError when it cannot be.

    `null` for a parameter that is not a string is JSON null: the gateway sends it
    where the source accepts null (it clears the field) and otherwise leaves the
    parameter out (or refuses a required one)."""
    if type_ == "string":
        return text
    if text == "null":
        return None
    if type_ == "number":
        number = parse_number(text)
        if number is None:
            raise ParamError(f"--{name} expects a number, got {text!r}")
        return number
    if type_ == "boolean":
        low = text.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise ParamError(f"--{name} expects true or false, got {text!r}")
    if type_ == "object":
        parsed = _parse_json(text)
        if not isinstance(parsed, dict):
            raise ParamError(f"--{name} expects a JSON object, got {text!r}")
        return parsed
    if type_ == "array":
        parsed = _parse_json(text)
        if isinstance(parsed, list):
            return parsed
        parts = text.split(",") if text else []
        if items == "number":
            return [typed_value(name, p.strip(), "number") for p in parts]
        if items == "boolean":
            return [typed_value(name, p.strip(), "boolean") for p in parts]
        return parts
    return guess_value(text)


def _add(params: dict[str, Any], name: str, value: Any, repeated: set[str]) -> None:
    if name not in params:
        params[name] = value
        return
    # A repeated flag collects its values into one array.
    current = params[name]
    if name not in repeated:
        current = list(current) if isinstance(current, list) else [current]
        repeated.add(name)
    if isinstance(value, list):
        current.extend(value)
    else:
        current.append(value)
    params[name] = current


def parse_params(
    args: list[str] | tuple[str, ...],
    types: dict[str, tuple[str, str | None]] | None = None,
) -> dict[str, Any]:
    """The `params` of `svc run` arguments after `<integration> <endpoint>`."""
    return parse_args(args, types)[0]


def parse_args(
    args: list[str] | tuple[str, ...],
    types: dict[str, tuple[str, str | None]] | None = None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """(params, as_typed) of `svc run` arguments after `<integration> <endpoint>`.

    `types` maps a parameter name to its (type, items type) when the endpoint's
    documentation is known locally. `as_typed` maps a flag given once with a value
    to the text typed for it, when the value differs from that text.
    """
    params: dict[str, Any] = {}
    texts: dict[str, str | None] = {}  # None: bare or repeated, no single text
    repeated: set[str] = set()
    positional: list[dict[str, Any]] = []
    i = 0
    flags_done = False
    while i < len(args):
        arg = args[i]
        i += 1
        if not flags_done and arg == "--":
            flags_done = True
            continue
        match = None if flags_done else _FLAG_RE.match(arg)
        if match is None:
            positional.append(_positional(arg, flags_done))
            continue
        name = match.group(1).replace("-", "_")
        declared = types.get(name) if types else None
        if match.group(2) is not None:
            text: str | None = match.group(3)
        elif i < len(args) and not (args[i].startswith("--") and parse_number(args[i]) is None):
            text = args[i]
            i += 1
        else:
            text = None
        if text is None:
            if declared is not None and declared[0] != "boolean":
                raise ParamError(f"--{name} needs a value")
            value: Any = True
        elif declared is not None:
            value = typed_value(name, text, declared[0], declared[1])
        else:
            value = guess_value(text)
        texts[name] = None if name in params else text
        _add(params, name, value, repeated)
    for obj in positional:
        for key, value in obj.items():
            params[key] = value
            texts[key] = None
    as_typed = {k: t for k, t in texts.items() if t is not None and params[k] != t}
    return params, as_typed


def _positional(arg: str, flags_done: bool) -> dict[str, Any]:
    if arg.startswith("--") and not flags_done:
        raise ParamError(f"{arg!r} is not a valid flag name")
    parsed = _parse_json(arg)
    if not isinstance(parsed, dict):
        raise ParamError(
            f"unexpected argument {arg!r}: pass parameters as --name value or one JSON object"
        )
    return parsed
