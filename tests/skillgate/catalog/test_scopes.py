"""OAuth scopes per endpoint: the validator refuses an endpoint the connection's scopes
cannot call, an overlay's `exclude` (or requesting a scope) settles it, and discovery
shows the scopes to agents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from skillgate.catalog.loader import SHIPPED_DIR, CatalogError, load_catalog, parse_file
from skillgate.catalog.overlay import exclusions
from skillgate.catalog.validate import check_integration, validate_paths
from skillgate.discovery.bundle import endpoint_md
from skillgate.discovery.documents import endpoint_doc

WRITE = "https://things.example.com/auth/things.write"
ADMIN = "https://things.example.com/auth/things.admin"
READ = "https://things.example.com/auth/things.read"
OAUTH = """\
auth:
  oauth2:
    authorize_url: https://things.example.com/authorize
    token_url: https://things.example.com/token
    scopes: [{requested}]
"""
INTEGRATION = """\
slug: things
name: Things
description: A fixture integration with OAuth scopes per endpoint.
base_url: https://api.things.test
{auth}verify: {{path: /things}}
endpoints:
  - name: list_things
    method: GET
    path: /things
    category: things
    description: List the things the user can see.
    scopes: [{read}]
    parameters: []
    errors: [{{code: 403, cause: Not allowed., fix: Reconnect.}}]
  - name: delete_thing
    operation: things.delete
    method: DELETE
    path: /things/{{thing_id}}
    category: things
    description: Delete a thing for good.
    scopes: [{write}, {admin}]
    parameters:
      - {{name: thing_id, type: string, in: path, required: true, description: Id., example: t1}}
    errors: [{{code: 404, cause: No such thing., fix: Check the id.}}]
"""


def _file(tmp_path: Path, requested: str | None, name: str = "things.yaml") -> Path:
    auth = (
        OAUTH.format(requested=requested) if requested else "auth: {token: {help: Paste a key.}}\n"
    )
    path = tmp_path / name
    path.write_text(INTEGRATION.format(auth=auth, read=READ, write=WRITE, admin=ADMIN))
    return path


def test_an_endpoint_needing_an_unrequested_scope_is_a_problem(tmp_path: Path) -> None:
    path = _file(tmp_path, READ)
    problems = validate_paths([str(path)])
    assert problems == [
        f"{path}: endpoint 'delete_thing': needs one of the OAuth scopes {WRITE}, {ADMIN}, "
        "none of which auth.oauth2.scopes or a scope set requests; request one of them or "
        "exclude it (things.delete) with the reason"
    ]
    with pytest.raises(CatalogError, match="delete_thing': needs one of the OAuth scopes"):
        load_catalog([path], shipped=False)


@pytest.mark.parametrize("requested", [f"{READ}, {ADMIN}", f"{WRITE}, {READ}"])
def test_requesting_any_one_of_its_scopes_settles_it(tmp_path: Path, requested: str) -> None:
    assert check_integration(parse_file(_file(tmp_path, requested))) == []


def test_without_oauth_scopes_are_not_checked(tmp_path: Path) -> None:
    # A pasted key's permissions are the user's business; only OAuth requests scopes.
    integration = parse_file(_file(tmp_path, None))
    assert integration.endpoints[1].scopes == (WRITE, ADMIN)
    assert check_integration(integration) == []


def test_an_overlay_exclusion_settles_it(tmp_path: Path) -> None:
    source = yaml.safe_load(INTEGRATION.format(auth="", read=READ, write=WRITE, admin=ADMIN))
    source["endpoints"][0]["operation"] = "things.list"
    (tmp_path / "things.json").write_text(json.dumps(source))
    overlay = yaml.safe_load(OAUTH.format(requested=READ))
    overlay |= {
        "slug": "things",
        "compiled": "things.json",
        "exclude": [{"operation": "things.delete", "reason": f"Needs {WRITE}, not requested."}],
    }
    path = tmp_path / "things.yaml"
    path.write_text(yaml.safe_dump(overlay))
    integration = parse_file(path)
    assert [e.name for e in integration.endpoints] == ["list_things"]
    assert check_integration(integration) == []
    assert exclusions(source, overlay) == [("things.delete", f"Needs {WRITE}, not requested.")]


def test_discovery_shows_the_scopes_of_an_endpoint(tmp_path: Path) -> None:
    integration = parse_file(_file(tmp_path, f"{READ}, {WRITE}"))
    listed, delete = integration.endpoints
    assert endpoint_doc(integration, delete)["scopes"] == [WRITE, ADMIN]
    assert f"## OAuth scopes\n\nThe connection's token needs one of: `{WRITE}`, `{ADMIN}`." in (
        endpoint_md(integration, delete)
    )
    integration = integration.model_copy(
        update={"endpoints": (listed.model_copy(update={"scopes": ()}),)}
    )
    assert "scopes" not in endpoint_doc(integration, integration.endpoints[0])
    assert "OAuth scopes" not in endpoint_md(integration, integration.endpoints[0])


AUTH = "https://www.googleapis.com/auth/"
GOOGLE = {
    "gmail": [
        "https://www.googleapis.com/auth/gmail.modify",
        "https://www.googleapis.com/auth/gmail.send",
    ],
    "google_calendar": ["https://www.googleapis.com/auth/calendar"],
    "google_drive": ["https://www.googleapis.com/auth/drive"],
    "google_sheets": ["https://www.googleapis.com/auth/spreadsheets"],
    "google_docs": ["https://www.googleapis.com/auth/documents"],
    "google_tasks": ["https://www.googleapis.com/auth/tasks"],
    "google_contacts": [
        "https://www.googleapis.com/auth/contacts",
        "https://www.googleapis.com/auth/contacts.other.readonly",
    ],
    # issue 25.3
    "youtube": [AUTH + "youtube.force-ssl"],
    "google_chat": [
        AUTH + "chat.spaces",
        AUTH + "chat.messages",
        AUTH + "chat.memberships",
        AUTH + "chat.messages.reactions",
    ],
    "google_slides": [AUTH + "presentations"],
    "google_admin": [
        AUTH + "admin.directory.user",
        AUTH + "admin.directory.user.security",
        AUTH + "admin.directory.group",
        AUTH + "admin.directory.orgunit",
        AUTH + "admin.directory.resource.calendar",
        AUTH + "admin.directory.domain.readonly",
        AUTH + "admin.directory.rolemanagement.readonly",
        AUTH + "admin.directory.device.chromeos",
        AUTH + "admin.directory.device.mobile",
    ],
    "google_classroom": [
        AUTH + "classroom.courses",
        AUTH + "classroom.rosters",
        AUTH + "classroom.coursework.students",
        AUTH + "classroom.coursework.me",
        AUTH + "classroom.announcements",
        AUTH + "classroom.topics",
        AUTH + "classroom.courseworkmaterials",
        AUTH + "classroom.profile.emails",
        AUTH + "classroom.guardianlinks.students",
        AUTH + "classroom.student-submissions.students.readonly",
    ],
    "google_cloud_storage": [AUTH + "devstorage.full_control"],
    "google_bigquery": [AUTH + "bigquery"],
    "google_compute": [AUTH + "compute"],
    "google_meet": [AUTH + "meetings.space.created"],
    "google_keep": [AUTH + "keep"],
    "google_cloud_sql": [AUTH + "sqlservice.admin"],
    "google_search_console": [AUTH + "webmasters"],
    "google_analytics": [AUTH + "analytics.readonly"],
    "google_cloud_projects": [AUTH + "cloud-platform"],
}


@pytest.mark.parametrize("slug", GOOGLE)
def test_every_google_endpoint_is_callable_with_the_scopes_requested(slug: str) -> None:
    integration = parse_file(SHIPPED_DIR / f"{slug}.yaml")
    assert integration.auth.oauth2 is not None
    assert list(integration.auth.oauth2.scopes) == GOOGLE[slug]
    oauth = integration.auth.oauth2
    sets = {s for chosen in oauth.scope_sets.values() for s in chosen.scopes}
    for e in integration.endpoints:
        if e.operation is None:
            continue  # hand-written (Drive's download_file): no source to take scopes from
        assert e.scopes, e.name  # every Google method documents its scopes
        if set(e.scopes) & set(GOOGLE[slug]):
            continue
        # Else a scope set adds what it needs when it is first called (step-up).
        assert set(e.scopes) & sets, e.name
        assert oauth.scope_set_for(e.scopes) is not None, e.name


def test_each_google_exclusion_names_the_scope_it_would_need() -> None:
    for slug in GOOGLE:
        overlay = yaml.safe_load((SHIPPED_DIR / f"{slug}.yaml").read_text())
        compiled = json.loads((SHIPPED_DIR / overlay["compiled"]).read_text())
        scopes = {e["operation"]: e.get("scopes", []) for e in compiled["endpoints"]}
        oauth = overlay["auth"]["oauth2"]
        reachable = set(oauth["scopes"]) | {
            s for chosen in (oauth.get("scope_sets") or {}).values() for s in chosen["scopes"]
        }
        for op, reason in exclusions(compiled, overlay):
            if not scopes[op]:  # a method documenting none: not callable with OAuth
                assert "no OAuth scope" in reason, (op, reason)
                continue
            if set(scopes[op]) & reachable:
                # Left out for another reason than its scope (key material, a fuller
                # duplicate): the reason must not blame a scope.
                assert "scope" not in reason, (op, reason)
                continue
            short = {s.removeprefix("https://www.googleapis.com/auth/") for s in scopes[op]}
            assert any(s in reason for s in short), (op, reason)
