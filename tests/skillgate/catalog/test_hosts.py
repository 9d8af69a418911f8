"""An integration's hosts (catalog.hosts): what a catalog file may declare, and what a
user's connection variable may be. A host variable is always followed by the
provider's fixed domain, and no value can move the request elsewhere."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from skillgate.catalog.hosts import check_values, fill, under
from skillgate.catalog.models import Integration
from skillgate.errors import BadRequest

SHOP = {
    "name": "shop",
    "label": "Shop name",
    "help": "The part before .myshopify.com.",
    "pattern": "[a-z0-9][a-z0-9-]*",
    "example": "acme",
}


def _integration(url: str, variables: list[dict[str, Any]], **endpoint: Any) -> Integration:
    return Integration.model_validate(
        {
            "slug": "shop",
            "name": "Shop",
            "description": "A shop's admin API.",
            "base_url": url,
            "variables": variables,
            "auth": {"token": {"help": "Paste an access token.", "header": "X-Token"}},
            "verify": {"path": "/shop.json"},
            "endpoints": [
                {
                    "name": "get_shop",
                    "method": "GET",
                    "path": "/shop.json",
                    "category": "shop",
                    "description": "The shop's settings.",
                    "parameters": [],
                    "errors": [{"code": 404, "cause": "No shop.", "fix": "Check it."}],
                    **endpoint,
                }
            ],
        }
    )


def test_a_host_variable_under_a_fixed_domain_is_accepted() -> None:
    shop = _integration("https://{shop}.myshopify.com/admin/api/2024-01", [SHOP])
    assert shop.hosts == ("https://{shop}.myshopify.com/admin/api/2024-01",)
    assert fill(shop.base_url, {"shop": "acme"}) == "https://acme.myshopify.com/admin/api/2024-01"


@pytest.mark.parametrize(
    ("base_url", "variables", "message"),
    [
        ("https://{shop}/admin", [SHOP], "followed by the provider's fixed domain"),
        ("https://{shop}.com/admin", [SHOP], "followed by the provider's fixed domain"),
        ("https://{shop}.myshopify.com", [], "{shop} is not a declared variable"),
        ("{shop}://x.myshopify.com", [SHOP], "pattern"),  # not even an http(s) URL
        ("https://{shop}.myshopify.com", [SHOP, SHOP], "declared twice"),
    ],
)
def test_hosts_that_could_leave_the_domain_are_refused(
    base_url: str, variables: list[dict[str, Any]], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        _integration(base_url, variables)


def test_an_endpoint_host_is_checked_like_the_integrations() -> None:
    with pytest.raises(ValidationError, match="not a declared variable"):
        _integration("https://api.example.com", [], base_url="https://{region}.example.com")
    with pytest.raises(ValidationError, match="must not carry credentials"):
        _integration("https://api.example.com", [], base_url="https://u:p@up.example.com")
    two = _integration("https://api.example.com", [], base_url="https://up.example.com/v2/")
    assert two.hosts == ("https://api.example.com", "https://up.example.com/v2")


def test_values_are_one_plain_label_matching_the_pattern() -> None:
    shop = _integration("https://{shop}.myshopify.com", [SHOP])
    assert check_values(shop.variables, {"shop": " acme "}) == {"shop": "acme"}
    refused = {
        "evil.com/": "is not a valid Shop name",
        "ACME": "is not a valid Shop name",  # the pattern: lower case
        "a b": "is not a valid Shop name",
        "x@evil.com": "is not a valid Shop name",
        "": r"required: Shop name \(e.g. acme\)",
    }
    for value, message in refused.items():
        with pytest.raises(BadRequest, match=rf"variables\.shop: (.* )?{message}"):
            check_values(shop.variables, {"shop": value})
    with pytest.raises(BadRequest, match=r"variables\.region: not a variable"):
        check_values(shop.variables, {"shop": "acme", "region": "eu"})


def test_fill_needs_every_variable_and_under_compares_origin_and_path() -> None:
    with pytest.raises(BadRequest, match=r"variables\.shop: this connection has none"):
        fill("https://{shop}.myshopify.com", {})
    allowed = ["https://api.example.com/2.0", "https://up.example.com"]
    assert under("https://api.example.com/2.0/files", allowed)
    assert under("https://up.example.com/x", allowed)
    assert not under("https://api.example.com/2.00/files", allowed)
    assert not under("http://api.example.com/2.0/files", allowed)
    assert not under("https://api.example.com.evil.com/2.0", allowed)
