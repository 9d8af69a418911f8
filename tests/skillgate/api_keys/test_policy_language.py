"""The policy rule language on its own: matching order, classes, and each constraint
(a recipient-domain allow-list for mail, a value allow-list, bounds, a pin) on the
values a call would send."""

from __future__ import annotations

from typing import Any

import pytest

from skillgate.api_keys.policy import compile_, endpoint_class, parse
from skillgate.catalog.loader import Catalog
from skillgate.errors import BadRequest


def _ruling(catalog: Catalog, document: dict[str, Any], name: str) -> Any:
    endpoint = catalog.endpoint("sample", name)
    assert endpoint is not None
    return parse(document, catalog).ruling("sample", endpoint)


def test_classes_follow_the_catalog(test_catalog: Catalog) -> None:
    kinds = {e.name: endpoint_class(e) for e in test_catalog.integrations["sample"].endpoints}
    assert kinds["list_issues"] == "read"
    assert kinds["create_issue"] == "write"
    assert kinds["delete_issue"] == "destructive"


def test_the_first_matching_rule_decides(test_catalog: Catalog) -> None:
    document = {
        "rules": [
            {"match": {"class": ["write", "destructive"], "category": "users"}, "action": "deny"},
            {"match": {"category": "issues", "class": "destructive"}, "action": "approve"},
            {"match": {"integration": "sample"}, "action": "allow"},
        ],
        "default": "deny",
    }
    assert _ruling(test_catalog, document, "delete_issue").action == "approve"
    assert _ruling(test_catalog, document, "delete_issue").rule.index == 2
    assert _ruling(test_catalog, document, "get_user").rule.index == 3
    no_rules = parse({"rules": []}, test_catalog)
    endpoint = test_catalog.endpoint("sample", "get_user")
    assert endpoint is not None
    assert no_rules.ruling("sample", endpoint).action == "allow"  # the default default


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("ann@example.com", None),
        ("Ann <ann@EXAMPLE.com>, bob@example.com", None),
        (["ann@example.com", "x@corp.example.com"], None),
        ("ann@example.com; eve@evil.test", "to: eve@evil.test is not at an allowed domain"),
        (["eve@example.com.evil.test"], "to: eve@example.com.evil.test is not at an allowed"),
        ("no-address", "to: no-address is not at an allowed domain"),
        (7, "to must be e-mail addresses"),
    ],
)
def test_domains_allow_listed_recipients(value: Any, why: str | None) -> None:
    policy = compile_(
        {
            "rules": [
                {
                    "action": "allow",
                    "params": {"to": {"domains": ["example.com", "corp.example.com"]}},
                }
            ]
        }
    )
    violation = policy.rules[0].constraints[0].violation({"to": value})
    assert (violation is None) if why is None else (violation or "").startswith(why), violation


def test_bounds_allow_lists_and_pins(test_catalog: Catalog) -> None:
    policy = compile_(
        {
            "rules": [
                {
                    "action": "approve",
                    "params": {
                        "amount": {"max": 5000, "min": 1},
                        "currency": {"pin": "eur"},
                        "flag": {"one_of": [True]},
                    },
                }
            ]
        }
    )
    rule = policy.rules[0]
    [amount, currency, flag] = rule.constraints
    assert amount.violation({"amount": 5000}) is None
    assert amount.violation({"amount": 5001}) == "amount: 5001 is beyond the max 5000"
    assert amount.violation({"amount": 0}) == "amount: 0 is beyond the min 1"
    assert amount.violation({"amount": "5"}) == "amount must be a number (its max is 5000)"
    assert amount.violation({}) is None  # a constraint checks what the call sends
    assert currency.violation({"currency": "usd"}) == "currency must be 'eur' (pinned), not 'usd'"
    assert flag.violation({"flag": 1}) == "flag: 1 is not one of [true]"  # 1 is not true
    endpoint = test_catalog.endpoint("sample", "get_user")
    assert endpoint is not None
    ruling = policy.ruling("sample", endpoint)
    assert ruling.fill({"amount": 3}) == {"currency": "eur", "amount": 3}
    assert ruling.fill({"currency": "usd"}) == {"currency": "usd"}  # then refused


def test_min_above_max_is_refused(test_catalog: Catalog) -> None:
    with pytest.raises(BadRequest, match=r"policy.rules\[1\].params.n: min is above max"):
        parse({"rules": [{"action": "allow", "params": {"n": {"min": 5, "max": 1}}}]}, test_catalog)
