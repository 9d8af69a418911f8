"""A key's policy: which calls it may make, which it may not, which need a person's
approval, and what their arguments may be (docs/execution.md, "Policies").

A policy is a JSON (or YAML) document of ordered rules; the first rule whose `match`
fits the call decides, and `default` (allow unless said) decides the rest:

    {"rules": [
       {"name": "no deletes", "match": {"class": "destructive"}, "action": "deny"},
       {"match": {"integration": "gmail", "endpoint": "send_message"},
        "action": "allow", "params": {"to": {"domains": ["example.com"]}}},
       {"match": {"integration": "stripe"}, "action": "approve",
        "params": {"amount": {"max": 5000}}}],
     "default": "allow"}

`match` fields (all that are given must fit; a list is any of its values):
`integration` (slug), `endpoint` (name), `category`, `class` (`read`: changes no
data; `write`: changes data, not destructive; `destructive`). `params` constraints
apply to the calls the rule matched, whatever its action: a call that breaks one is
denied by that rule. A constraint checks a parameter the call sends; `pin` also
fills it when the call leaves it out.

`parse` checks a document (names against the catalog) and compiles it; `compile_`
compiles one already checked (the key verifier, at each cache fill). The executor
asks the compiled `Policy` for a `Ruling` per call (`ruling`), which fills pinned
values (`fill`) and says what the call's validated values break (`violation`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Endpoint
from skillgate.errors import BadRequest
from skillgate.http.handlers import describe_validation

Action = Literal["allow", "deny", "approve"]
Class = Literal["read", "write", "destructive"]
ACTIONS: tuple[Action, ...] = ("allow", "deny", "approve")
MAX_RULES = 200
MAX_VALUES = 1000  # of one list: a match's names, a constraint's allowed values

Scalar = str | int | float | bool
Names = str | list[str]


def endpoint_class(endpoint: Endpoint) -> Class:
    """`read`, `write` or `destructive`: what a `class` match compares."""
    if endpoint.destructive:
        return "destructive"
    return "write" if endpoint.mutates else "read"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class MatchDoc(_Strict):
    integration: Names | None = None
    endpoint: Names | None = None
    category: Names | None = None
    class_: Class | list[Class] | None = Field(default=None, alias="class")


class ParamDoc(_Strict):
    one_of: list[Scalar] | None = Field(default=None, min_length=1, max_length=MAX_VALUES)
    domains: list[str] | None = Field(default=None, min_length=1, max_length=MAX_VALUES)
    max: float | None = None
    min: float | None = None
    pin: Scalar | list[Scalar] | None = None


class RuleDoc(_Strict):
    name: str | None = Field(default=None, min_length=1, max_length=100)
    match: MatchDoc = MatchDoc()
    action: Action
    params: dict[str, ParamDoc] = Field(default_factory=dict, max_length=50)


class PolicyDoc(_Strict):
    """The document's schema (PUT /api-keys/{id}/policy takes it as its body)."""

    rules: list[RuleDoc] = Field(default_factory=list, max_length=MAX_RULES)
    default: Action = "allow"

    def stored(self) -> dict[str, Any]:
        """The document as stored and shown: unset fields left out, `class` by its name."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_unset=True)


# -- compiled


def _names(value: Names | list[Class] | None) -> frozenset[str] | None:
    if value is None:
        return None
    return frozenset([value] if isinstance(value, str) else value)


_ADDRESS = re.compile(r"<([^<>]*)>")


def _addresses(value: Any) -> list[str] | None:
    """The e-mail addresses in `value` (`a@x.com, Bob <b@y.com>` or a list), or None
    when it is not text."""
    items = value if isinstance(value, list) else [value]
    found: list[str] = []
    for item in items:
        if not isinstance(item, str):
            return None
        for part in re.split(r"[,;]", item):
            bracketed = _ADDRESS.search(part)
            address = (bracketed.group(1) if bracketed else part).strip()
            if address:
                found.append(address)
    return found


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Constraint:
    param: str
    doc: ParamDoc
    pinned: bool  # `pin` was given (a pinned null is a value too)

    def violation(self, values: dict[str, Any]) -> str | None:
        """Why the call's value of `param` breaks this constraint, or None."""
        if self.param not in values:
            return None
        value, doc, name = values[self.param], self.doc, self.param
        items = value if isinstance(value, list) else [value]
        if self.pinned and value != doc.pin:
            return f"{name} must be {_show(doc.pin)} (pinned), not {_show(value)}"
        if doc.one_of is not None:
            bad = [v for v in items if not any(_same(v, a) for a in doc.one_of)]
            if bad:
                return f"{name}: {_show(bad[0])} is not one of {_show(doc.one_of)}"
        if doc.domains is not None:
            addresses = _addresses(value)
            if addresses is None:
                return f"{name} must be e-mail addresses (allowed domains: {_show(doc.domains)})"
            allowed = {d.lower() for d in doc.domains}
            for address in addresses:
                if address.rpartition("@")[2].lower() not in allowed or "@" not in address:
                    return f"{name}: {address} is not at an allowed domain {_show(doc.domains)}"
        for bound, limit in (("max", doc.max), ("min", doc.min)):
            if limit is None:
                continue
            for v in items:
                if not _number(v):
                    return f"{name} must be a number (its {bound} is {_show(limit)})"
                if (v > limit) if bound == "max" else (v < limit):
                    return f"{name}: {_show(v)} is beyond the {bound} {_show(limit)}"
        return None


def _same(value: Any, allowed: Scalar) -> bool:
    """Equal and of the same kind (`true` is not 1)."""
    return value == allowed and isinstance(value, bool) == isinstance(allowed, bool)


def _show(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True, slots=True)
class Rule:
    index: int  # 1-based, as a person counts the document's rules
    name: str | None
    action: Action
    integrations: frozenset[str] | None
    endpoints: frozenset[str] | None
    categories: frozenset[str] | None
    classes: frozenset[str] | None
    constraints: tuple[Constraint, ...]

    def matches(self, slug: str, endpoint: Endpoint) -> bool:
        return (
            (self.integrations is None or slug in self.integrations)
            and (
                self.endpoints is None
                or endpoint.name in self.endpoints
                or not self.endpoints.isdisjoint(endpoint.aliases)  # a former name
            )
            and (self.categories is None or endpoint.category in self.categories)
            and (self.classes is None or endpoint_class(endpoint) in self.classes)
        )

    @property
    def label(self) -> str:
        return f"rule {self.index}" + (f" ({self.name!r})" if self.name else "")

    def shown(self) -> dict[str, Any]:
        return {"index": self.index, "name": self.name}


@dataclass(frozen=True, slots=True)
class Ruling:
    """What the policy says about one call: the `action` of `rule` (None: the policy's
    default) and the rule's constraints."""

    action: Action
    rule: Rule | None

    @property
    def plain(self) -> bool:
        """An allow with nothing to check: the call goes as it would without a policy."""
        return self.action == "allow" and not self.constraints

    @property
    def constraints(self) -> tuple[Constraint, ...]:
        return self.rule.constraints if self.rule is not None else ()

    @property
    def label(self) -> str:
        return self.rule.label if self.rule is not None else "the policy's default"

    def fill(self, params: Any) -> Any:
        """`params` with each pinned value the call left out filled in."""
        pins = [c for c in self.constraints if c.pinned]
        if not pins or not isinstance(params, dict):
            return params
        return {**{c.param: c.doc.pin for c in pins if c.param not in params}, **params}

    def violation(self, values: dict[str, Any]) -> str | None:
        for constraint in self.constraints:
            why = constraint.violation(values)
            if why is not None:
                return why
        return None

    def shown(self, values: dict[str, Any]) -> dict[str, Any]:
        """The ruling as a dry run shows it: the action the call would meet, the rule,
        and the constraint it breaks (then the action is `deny`)."""
        why = self.violation(values)
        shown: dict[str, Any] = {
            "action": "deny" if why else self.action,
            "rule": self.rule.shown() if self.rule is not None else "default",
        }
        if why:
            shown["violation"] = why
        return shown


@dataclass(frozen=True, slots=True)
class Policy:
    rules: tuple[Rule, ...]
    default: Action
    document: dict[str, Any]  # as stored

    def ruling(self, slug: str, endpoint: Endpoint) -> Ruling:
        for rule in self.rules:
            if rule.matches(slug, endpoint):
                return Ruling(rule.action, rule)
        return Ruling(self.default, None)


def _compile(doc: PolicyDoc) -> Policy:
    rules = tuple(
        Rule(
            index=i,
            name=r.name,
            action=r.action,
            integrations=_names(r.match.integration),
            endpoints=_names(r.match.endpoint),
            categories=_names(r.match.category),
            classes=_names(r.match.class_),
            constraints=tuple(
                Constraint(param, p, "pin" in p.model_fields_set) for param, p in r.params.items()
            ),
        )
        for i, r in enumerate(doc.rules, start=1)
    )
    return Policy(rules, doc.default, doc.stored())


def _doc(document: Any) -> PolicyDoc:
    try:
        return PolicyDoc.model_validate(document)
    except ValidationError as exc:
        raise BadRequest("policy: " + describe_validation(list(exc.errors()))) from None


def compile_(document: Any) -> Policy:
    """The compiled policy of a stored document (checked when it was stored)."""
    return _compile(_doc(document))


def parse(document: Any, catalog: Catalog) -> Policy:
    """A document a person sent, checked (its shape, and every integration, endpoint,
    category and parameter it names against the catalog: a misspelt deny rule would
    never match) and compiled; 400 naming the field otherwise."""
    doc = document if isinstance(document, PolicyDoc) else _doc(document)
    for i, rule in enumerate(doc.rules, start=1):
        _check_names(f"policy.rules[{i}]", rule, catalog)
    return _compile(doc)


def checked(document: Any, catalog: Catalog | None) -> dict[str, Any] | None:
    """The document to store for `document` (checked by `parse`), None for none: what
    a key's and an OAuth grant's policy setters share."""
    if document is None:
        return None
    if catalog is None:
        raise BadRequest("policy: this command cannot check a policy.")
    return parse(document, catalog).document


def holder(connected_app: bool) -> str:
    """What a policy belongs to, as messages name it: a connected app's OAuth grant
    (`Principal.connected_app`, `is_grant_id` of a stored row) or an API key."""
    return "connected app" if connected_app else "API key"


# The choices the consent page offers an app (docs/mcp.md, "Sign-in with OAuth"): a
# policy the person may pick when they allow it, edited later like any other.
PRESETS: dict[str, dict[str, Any] | None] = {
    "": None,
    "approve_writes": {
        "rules": [
            {
                "name": "changes wait for my approval",
                "match": {"class": ["write", "destructive"]},
                "action": "approve",
            }
        ]
    },
    "deny_destructive": {
        "rules": [
            {"name": "no destructive calls", "match": {"class": "destructive"}, "action": "deny"}
        ]
    },
}


def _check_names(where: str, rule: RuleDoc, catalog: Catalog) -> None:
    slugs = _names(rule.match.integration)
    for slug in sorted(slugs or ()):
        if catalog.get(slug) is None:
            raise BadRequest(f"{where}.match.integration: no integration {slug!r}.")
    scope = [catalog.integrations[s] for s in sorted(slugs)] if slugs else None
    integrations = scope if scope is not None else list(catalog.integrations.values())
    endpoints = [e for i in integrations for e in i.endpoints]
    named = _names(rule.match.endpoint)
    for name in sorted(named or ()):
        if not any(name in e.names for e in endpoints):
            raise BadRequest(f"{where}.match.endpoint: no endpoint {name!r}{_in(slugs)}.")
    for category in sorted(_names(rule.match.category) or ()):
        if not any(e.category == category for e in endpoints):
            raise BadRequest(f"{where}.match.category: no category {category!r}{_in(slugs)}.")
    if named:  # the parameters of the named endpoints are known
        matched = [e for e in endpoints if not named.isdisjoint(e.names)]
        for param in rule.params:
            if not any(any(p.name == param for p in e.parameters) for e in matched):
                raise BadRequest(
                    f"{where}.params.{param}: {', '.join(sorted(named))} takes no such parameter."
                )
    for param, p in rule.params.items():
        if p.min is not None and p.max is not None and p.min > p.max:
            raise BadRequest(f"{where}.params.{param}: min is above max.")


def _in(slugs: Iterable[str] | None) -> str:
    return f" in {', '.join(sorted(slugs))}" if slugs else ""
