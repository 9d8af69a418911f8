"""Checks that need more than one model: examples, errors, descriptions, OAuth scopes.

`check_integration` returns every problem as `endpoint 'x': problem` lines;
`skillgate catalog validate` prints them with the file name.
"""

from __future__ import annotations

import shlex

from skillgate.catalog.coerce import CoercionError, coerce
from skillgate.catalog.examples import build_example
from skillgate.catalog.models import Endpoint, Integration
from skillgate_cli.params import ParamError, parse_params
from skillgate_cli.run_options import OPTIONS, PREFIX

# `svc run`'s options spelled `--svc-NAME` are svc's on every endpoint: a parameter so
# named could only be passed in the JSON object, and its example would not run.
_SVC_OPTION_NAMES = {f"{PREFIX}{name}".replace("-", "_"): f"--{PREFIX}{name}" for name in OPTIONS}


def check_example(slug: str, endpoint: Endpoint) -> str | None:
    """Parse the generated example with the CLI's parser; None when it is right."""
    example = build_example(slug, endpoint)
    try:
        argv = shlex.split(example)
    except ValueError as exc:
        return f"example {example!r} is not valid shell: {exc}"
    if argv[:4] != ["svc", "run", slug, endpoint.name]:
        return f"example {example!r} does not start with `svc run {slug} {endpoint.name}`"
    try:
        parsed = parse_params(argv[4:])
    except ParamError as exc:
        return f"example {example!r} does not parse: {exc}"
    by_name = {p.name: p for p in endpoint.parameters}
    for name, value in parsed.items():
        param = by_name.get(name)
        if param is None:
            return f"example names unknown parameter {name!r}"
        try:
            coerced = coerce(param, value)
        except CoercionError as exc:
            return f"example value for {name!r} does not parse to a {param.type}: {exc}"
        if coerced != param.example:
            return f"example value for {name!r} parses to {coerced!r}, not {param.example!r}"
    return None


def check_scopes(integration: Integration, endpoint: Endpoint) -> str | None:
    """An endpoint the OAuth connection cannot call: it documents the scopes that allow
    it and `auth.oauth2.scopes` requests none of them. None when it is fine."""
    oauth = integration.auth.oauth2
    if oauth is None or not endpoint.scopes or set(endpoint.scopes) & set(oauth.scopes):
        return None
    if oauth.scope_set_for(endpoint.scopes) is not None:
        return None  # the user adds that set when the endpoint is first called
    return (
        f"needs one of the OAuth scopes {', '.join(endpoint.scopes)}, none of which "
        "auth.oauth2.scopes or a scope set requests; request one of them or exclude it "
        f"({endpoint.operation or endpoint.name}) with the reason"
    )


def check_integration(integration: Integration, *, examples: bool = True) -> list[str]:
    """Every problem of one integration. `examples=False` skips parsing each generated
    example back (the server's start-up does, for the shipped files: `skillgate catalog
    validate`, `make test` and a test over every shipped example check them)."""
    problems: list[str] = []
    for e in integration.endpoints:
        label = f"endpoint {e.name!r}"
        scope_problem = check_scopes(integration, e)
        if scope_problem:
            problems.append(f"{label}: {scope_problem}")
        if not e.parameters and e.method in ("POST", "PUT", "PATCH") and not e.operation:
            # A hand-written write with none likely forgot them (a DELETE of a fixed
            # resource, `DELETE /user/interaction-limits`, has none); a compiled one
            # (`operation` set) has none because its source declares none
            # (Netlify's `POST /deploy_keys`).
            problems.append(f"{label}: a {e.method} endpoint must declare its parameters")
        for p in e.parameters:
            if p.required and p.example is None:
                problems.append(f"{label}: required parameter {p.name!r} needs an `example`")
            option = _SVC_OPTION_NAMES.get(p.name.replace("-", "_"))
            if option:
                problems.append(
                    f"{label}: parameter {p.name!r} is named like svc's own option {option}; "
                    "rename it (`svc run` always reads that flag as its own)"
                )
        problem = check_example(integration.slug, e) if examples else None
        if problem:
            problems.append(f"{label}: {problem}")
    return problems


def validate_paths(paths: list[str]) -> list[str]:
    """Every problem in the shipped catalog plus `paths`, one line each with its file."""
    from pathlib import Path

    from skillgate.catalog.loader import CatalogError, catalog_files, parse_file

    try:
        files = catalog_files(paths)
    except CatalogError as exc:
        return [str(exc)]
    problems: list[str] = []
    seen: dict[str, Path] = {}
    for path in files:
        try:
            integration = parse_file(path)
        except CatalogError as exc:
            problems.append(str(exc))
            continue
        if integration.slug in seen:
            problems.append(
                f"{path}: integration {integration.slug!r}: slug already defined in "
                f"{seen[integration.slug]}"
            )
        seen[integration.slug] = path
        problems.extend(f"{path}: {p}" for p in check_integration(integration))
    return problems
