"""Parameters a connection variable fills (issue 25: "an agent's first try succeeds").

Some parameters name what the user already gave when connecting: Twilio's every call
takes `AccountSid`, the account the user connected. A connection variable
(catalog.hosts) declares the parameters it fills, by their upstream name
(`maps_to` or `name`), on every endpoint that has one:

    variables:
      - name: account_sid
        label: Account SID
        fills: [AccountSid]

or one parameter names the variable itself (`from_connection: account_sid`: Twilio's
`get_account` takes the account as `Sid`, a name other calls use for other things).

Such a parameter is optional (whatever the source says: the gateway always sends a
value), carries no example (a copied placeholder would name someone else's account)
and its description ends "Defaults to the connected account's <label>." When a call
leaves it out, the executor takes the connection's value (executor.params,
`from_connection`); a value the call gives is sent as given (a Twilio subaccount).
A connection without the value is a 400 naming the parameter, never a guess.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skillgate.catalog.hosts import ConnectionVariable
    from skillgate.catalog.models import Endpoint

NOTE = "Defaults to the connected account's {label}."


def _declared(variables: Any) -> tuple[dict[str, str], dict[str, str]]:
    """(variable name -> label, upstream parameter name -> variable name)."""
    labels: dict[str, str] = {}
    by_wire: dict[str, str] = {}
    for var in variables if isinstance(variables, list | tuple) else ():
        if not isinstance(var, dict):
            var = getattr(var, "__dict__", {})  # a ConnectionVariable
        name, label = var.get("name"), var.get("label")
        if not isinstance(name, str) or not isinstance(label, str):
            continue  # the model reports it
        labels[name] = label
        for wire in var.get("fills") or ():
            if isinstance(wire, str):
                by_wire.setdefault(wire, name)
    return labels, by_wire


def _marked(param: Any, labels: dict[str, str], by_wire: dict[str, str]) -> Any:
    if not isinstance(param, dict):
        return param
    wire = str(param.get("maps_to") or param.get("name"))
    var = param.get("from_connection") or by_wire.get(wire)
    if not isinstance(var, str) or var not in labels:
        return param  # none, or an undeclared one: Integration reports it
    note = NOTE.format(label=labels[var])
    description = str(param.get("description") or "").rstrip()
    if note not in description:
        description = f"{description} {note}".strip()
    return {
        **param,
        "from_connection": var,
        "required": False,
        "example": None,
        "description": description,
    }


def expand(data: Any) -> Any:
    """An integration's mapping with each parameter a connection variable fills marked
    `from_connection`, optional, without example, its description noting the default."""
    if not isinstance(data, dict) or not data.get("variables"):
        return data
    labels, by_wire = _declared(data["variables"])
    endpoints = data.get("endpoints")
    if not labels or not isinstance(endpoints, list | tuple):
        return data
    marked = []
    for endpoint in endpoints:
        params = endpoint.get("parameters") if isinstance(endpoint, dict) else None
        if isinstance(params, list | tuple):
            endpoint = {**endpoint, "parameters": [_marked(p, labels, by_wire) for p in params]}
        marked.append(endpoint)
    return {**data, "endpoints": marked}


def check(variables: Iterable[ConnectionVariable], endpoints: Iterable[Endpoint]) -> None:
    """ValueError when a parameter names an undeclared variable, or a variable fills
    a parameter no endpoint has (a misspelt name would fill nothing)."""
    declared = {v.name for v in variables}
    filled: set[str] = set()
    for endpoint in endpoints:
        for p in endpoint.parameters:
            if p.from_connection is None:
                continue
            if p.from_connection not in declared:
                raise ValueError(
                    f"endpoint {endpoint.name!r} parameter {p.name!r}: from_connection "
                    f"{p.from_connection!r} is not a declared variable"
                )
            filled.add(p.wire_name)
    for var in variables:
        for wire in var.fills:
            if wire not in filled:
                raise ValueError(f"variable {var.name!r} fills {wire!r}, which no endpoint has")
