"""The shipped Google Sheets, Docs, Tasks and Contacts integrations, executed through the
gateway against the loopback provider (SKILLGATE_<SLUG>_BASE_URL): a pasted token is
verified with the integration's `verify` request, then one curated endpoint of each
compiled integration sends exactly the request its source describes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from skillgate.catalog.loader import SHIPPED_DIR, Catalog, parse_file
from skillgate.catalog.validate import check_integration
from tests.conftest import open_harness
from tests.upstream import Provider

SLUGS = ("google_sheets", "google_docs", "google_tasks", "google_contacts")
SHEET = "1Hq0jN7cVZpWq3xYt8kR2mL5sD9fG4hJ6bN0vC1xZ2aQ"
DOC = "1mX4pQ7rT2vW9yB3dF6hJ8kL0nP5sU7wZ1cE4gI6jK8m"


@dataclass(frozen=True)
class Case:
    slug: str
    endpoint: str
    params: dict[str, Any]
    method: str
    path: str  # as the upstream receives it (percent-encoded)
    query: list[tuple[str, str]]
    body: Any
    verify: str  # the verification request's path, as received


CASES = [
    Case(
        "google_sheets",
        "append_values",
        {
            "spreadsheetId": SHEET,
            "range": "Sheet1!A:C",
            "valueInputOption": "USER_ENTERED",
            "insertDataOption": "INSERT_ROWS",
            "values": [["2024-06-03", "Coffee", 4.5]],
        },
        "POST",
        f"/v4/spreadsheets/{SHEET}/values/Sheet1%21A%3AC:append",
        [("insertDataOption", "INSERT_ROWS"), ("valueInputOption", "USER_ENTERED")],
        {"values": [["2024-06-03", "Coffee", 4.5]]},
        "/v4/spreadsheets/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms",
    ),
    Case(
        "google_docs",
        "batch_update_document",
        {
            "documentId": DOC,
            "requests": [{"insertText": {"endOfSegmentLocation": {}, "text": "Done.\n"}}],
            "writeControl_requiredRevisionId": "rev-7",
        },
        "POST",
        f"/v1/documents/{DOC}:batchUpdate",
        [],
        {
            "requests": [{"insertText": {"endOfSegmentLocation": {}, "text": "Done.\n"}}],
            "writeControl": {"requiredRevisionId": "rev-7"},
        },
        "/v1/documents/195j9eDD3ccgjQRttHhJPymLJUCOUjs-jmwTrekvdjFE",
    ),
    Case(
        "google_tasks",
        "complete_task",
        {"tasklist": "@default", "task": "dGFzay0x", "status": "completed"},
        "PATCH",
        "/tasks/v1/lists/%40default/tasks/dGFzay0x",
        [],
        {"status": "completed"},
        "/tasks/v1/users/@me/lists",
    ),
    Case(
        "google_contacts",
        "create_contact",
        {
            "names": [{"givenName": "Ada", "familyName": "Lovelace"}],
            "emailAddresses": [{"value": "ada@example.com"}],
            "personFields": "names,emailAddresses",
        },
        "POST",
        "/v1/people:createContact",
        [("personFields", "names,emailAddresses")],
        {
            "names": [{"givenName": "Ada", "familyName": "Lovelace"}],
            "emailAddresses": [{"value": "ada@example.com"}],
        },
        "/v1/contactGroups",
    ),
]


@pytest.fixture(scope="module")
def google_catalog() -> Catalog:
    integrations = {slug: parse_file(SHIPPED_DIR / f"{slug}.yaml") for slug in SLUGS}
    for integration in integrations.values():
        assert check_integration(integration) == []
    return Catalog(integrations=integrations)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.slug}.{c.endpoint}")
async def test_a_compiled_google_endpoint_sends_what_its_source_describes(
    case: Case,
    database_url: str,
    tmp_path: Path,
    google_catalog: Catalog,
    provider: Provider,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(f"SKILLGATE_{case.slug.upper()}_BASE_URL", provider.url)
    async with open_harness(database_url, tmp_path, google_catalog) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        await harness.connect_token(full, case.slug, token="good-token")
        [verify] = provider.api_requests()
        assert (verify.method, verify.path) == ("GET", case.verify)
        assert verify.headers["authorization"] == "Bearer good-token"
        provider.clear()

        r = await harness.run(full, case.slug, case.endpoint, **case.params)
        assert r.status_code == 200, r.text
        assert r.json()["status"] == 200

    [sent] = provider.api_requests()
    assert sent.method == case.method
    assert sent.path == case.path
    assert sent.query == case.query
    assert sent.headers["authorization"] == "Bearer good-token"
    assert full not in str(sent.headers)
    if case.body is None:
        assert sent.body == b""
    else:
        assert sent.headers["content-type"] == "application/json"
        assert sent.json() == case.body
