"""Parameters a connection variable fills (catalog.fills): what a catalog file may
declare, what the agent is then told, and what a connection's value may be.

The executor's side (the value sent when a call leaves the parameter out) is in
tests/skillgate/executor/test_connection_fills.py, through the real app."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from skillgate.catalog.examples import build_example
from skillgate.catalog.hosts import check_values
from skillgate.catalog.models import Integration
from skillgate.errors import BadRequest

SID = "AC" + "0123456789abcdef" * 2
KEY_SID = "SK" + "0123456789abcdef" * 2
ACCOUNT = {
    "name": "account_sid",
    "label": "Account SID",
    "help": "Your Account SID (AC...).",
    "pattern": "AC[0-9a-fA-F]{32}",
    "example": SID,
    "fills": ["AccountSid"],
    "from_username": True,
}


def _account_param(**over: Any) -> dict[str, Any]:
    return {
        "name": "AccountSid",
        "type": "string",
        "in": "path",
        "required": True,
        "description": "The account's SID.",
        "example": "ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        **over,
    }


def _integration(variables: list[dict[str, Any]], *params: dict[str, Any]) -> Integration:
    return Integration.model_validate(
        {
            "slug": "texts",
            "name": "Texts",
            "description": "Send text messages.",
            "base_url": "https://api.example.com",
            "variables": variables,
            "auth": {"basic": {"help": "Your Account SID and Auth Token."}},
            "verify": {"path": "/Accounts.json"},
            "endpoints": [
                {
                    "name": "send_text",
                    "method": "POST",
                    "path": "/Accounts/{AccountSid}/Messages.json",
                    "category": "messages",
                    "description": "Send a text message.",
                    "body": "form",
                    "parameters": [
                        *params,
                        {"name": "To", "type": "string", "in": "body", "required": True,
                         "description": "The recipient.", "example": "+15558675310"},
                    ],
                    "errors": [{"code": 404, "cause": "No account.", "fix": "Check it."}],
                }
            ],
        }
    )  # fmt: skip


def test_a_filled_parameter_is_optional_without_example_and_says_its_default() -> None:
    texts = _integration([ACCOUNT], _account_param())
    [sid, to] = texts.endpoints[0].parameters
    assert (sid.required, sid.from_connection, sid.example) == (False, "account_sid", None)
    assert sid.description == (
        "The account's SID. Defaults to the connected account's Account SID."
    )
    assert to.from_connection is None
    assert to.required
    # The example an agent copies never names an account: the connection's is used.
    assert build_example("texts", texts.endpoints[0]) == "svc run texts send_text --To +15558675310"
    # Validating the model's own dump again (an imported file, written then read) keeps
    # one note, not two.
    again = Integration.model_validate(texts.model_dump(by_alias=True))
    assert again.endpoints[0].parameters[0].description == sid.description


def test_one_parameter_can_name_its_variable() -> None:
    only = {**ACCOUNT, "fills": []}
    texts = _integration([only], _account_param(from_connection="account_sid"))
    assert texts.endpoints[0].parameters[0].from_connection == "account_sid"
    assert not texts.endpoints[0].parameters[0].required


@pytest.mark.parametrize(
    ("variables", "param", "message"),
    [
        # A misspelt name fills nothing: refused, not ignored.
        ([{**ACCOUNT, "fills": ["AcountSid"]}], _account_param(), "fills 'AcountSid', which no"),
        ([], _account_param(from_connection="account_sid"), "not a declared variable"),
        # Not filled: a path parameter stays required.
        (
            [{**ACCOUNT, "fills": []}],
            _account_param(required=False),
            "path parameter 'AccountSid' must be required",
        ),
    ],
)
def test_what_a_file_cannot_declare(
    variables: list[dict[str, Any]], param: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        _integration(variables, param)


def test_a_filled_parameter_cannot_have_a_default() -> None:
    query = {"name": "Region", "type": "string", "in": "query", "description": "The region.",
             "default": "us1", "from_connection": "account_sid"}  # fmt: skip
    with pytest.raises(ValidationError, match="filled from the connection, no default"):
        _integration([{**ACCOUNT, "fills": []}], _account_param(), query)


def test_the_basic_username_gives_the_value_when_it_is_one() -> None:
    texts = _integration([ACCOUNT], _account_param())
    variables = texts.variables
    assert check_values(variables, {}, SID) == {"account_sid": SID}
    assert check_values(variables, {"account_sid": " "}, SID) == {"account_sid": SID}
    # What the user gives wins (a key's username, or another account of theirs).
    other = "AC" + "f" * 32
    assert check_values(variables, {"account_sid": other}, SID) == {"account_sid": other}
    # An API key's SID is not an Account SID: the value must be given.
    with pytest.raises(BadRequest, match=r"variables.account_sid: required: Account SID .*"
                       r"\(the username is not one\)"):  # fmt: skip
        check_values(variables, {}, KEY_SID)
    with pytest.raises(BadRequest, match="is not a valid Account SID"):
        check_values(variables, {"account_sid": "AC123"}, KEY_SID)
    # A connect request comes before the credentials: it may leave the value out.
    assert check_values(variables, {}, credentials_later=True) == {}
    with pytest.raises(BadRequest, match=r"variables\.account_sid: required"):
        check_values(variables, {})
    # A variable without `from_username` never takes the username.
    plain = _integration([{**ACCOUNT, "from_username": False}], _account_param()).variables
    with pytest.raises(BadRequest, match=r"variables\.account_sid: required"):
        check_values(plain, {}, SID)
