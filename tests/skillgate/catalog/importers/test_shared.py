"""The helpers both importers use: names, text, schema types, errors."""

from __future__ import annotations

from typing import Any

import pytest

from skillgate.catalog.importers import naming, text
from skillgate.catalog.importers.errors import errors
from skillgate.catalog.importers.schema import Typed, merged, typed
from skillgate.catalog.models import NAME_RE, PARAM_RE


@pytest.mark.parametrize(
    ("operation_id", "expected"),
    [
        ("issues/list-for-repo", "issues_list_for_repo"),
        ("users.messages.list", "users_messages_list"),
        ("users.settings.getAutoForwarding", "users_settings_get_auto_forwarding"),
        (
            "spreadsheets.values.batchGetByDataFilter",
            "spreadsheets_values_batch_get_by_data_filter",
        ),
        ("listHTTPRoutes", "list_http_routes"),
        ("2fa/enable", "op_2fa_enable"),
    ],
)
def test_endpoint_names(operation_id: str, expected: str) -> None:
    assert naming.endpoint_name(operation_id, "GET", "/x") == expected


def test_endpoint_names_without_id_and_too_long() -> None:
    assert naming.endpoint_name("", "GET", "/repos/{owner}/{repo}") == "get_repos_owner_repo"
    long = naming.endpoint_name("a" + "/word" * 30, "GET", "/")
    assert len(long) <= 64
    assert NAME_RE.match(long)
    assert long.startswith("a_word_word")
    assert long == naming.endpoint_name("a" + "/word" * 30, "GET", "/")  # stable hash
    assert long != naming.endpoint_name("a" + "/word" * 31, "GET", "/")


PR = "/repositories/{workspace}/{repo_slug}/pullrequests/{pull_request_id}"
ENV = "/v2.1/accounts/{accountId}/envelopes/{envelopeId}/workflow"


@pytest.mark.parametrize(
    ("operation_id", "method", "path", "summary", "expected"),
    [
        # No operation id: the summary, written by a person (Bitbucket).
        ("", "POST", PR + "/decline", "Decline a pull request", "decline_pull_request"),
        ("", "DELETE", PR + "/approve", "Unapprove a pull request.", "unapprove_pull_request"),
        # Graph's typed views: the path, not an id made unique by a hash.
        (
            "Get.microsoft.graph.directoryObject.Items.As.microsoft.graph.user-3de8",
            "GET",
            "/groups/{group-id}/owners/microsoft.graph.user",
            "Get the items of type microsoft.graph.user",
            "groups_owners_as_user",
        ),
        (
            "Get.microsoft.graph.directoryObject.Item.As.microsoft.graph.device-77d4",
            "GET",
            "/me/memberOf/{directoryObject-id}/microsoft.graph.device",
            "",
            "me_member_of_item_as_device",
        ),
        # A Graph id without the parts naming one item of the collection before them.
        (
            "me.onenote.notebooks.notebook.sections.onenoteSection.copyToNotebook",
            "POST",
            "/me/onenote/notebooks/{notebook-id}/sections/{onenoteSection-id}/x",
            "Invoke action copyToNotebook",
            "me_onenote_notebooks_sections_copy_to_notebook",
        ),
        # Trello's `ByIdCard...` tail; one item's name in the singular.
        (
            "getMembersCustomBoardBackgroundsByIdMemberByIdBoardBackground",
            "GET",
            "/members/{idMember}/customBoardBackgrounds/{idBoardBackground}",
            "",
            "get_members_custom_board_background",
        ),
        # DocuSign's `Tag_` and GitHub's `group/` go when the rest is still too long.
        (
            "EnvelopeWorkflowDelayedRouting_DeleteEnvelopeDelayedRoutingDefinition",
            "DELETE",
            ENV + "/steps/{workflowStepId}/delayedRouting",
            "Deletes the delayed routing rules for the step",
            "delete_envelope_delayed_routing_definition",
        ),
        (
            "actions/get-fork-pr-contributor-approval-permissions-organization",
            "GET",
            "/orgs/{org}/actions/permissions/fork-pr-contributor-approval",
            "Get fork PR contributor approval permissions for an organization",
            "get_fork_pr_contributor_approval_permissions_organization",
        ),
        # Stripe: a run said again in the singular.
        (
            "PostTestHelpersTreasuryOutboundTransfersOutboundTransferFail",
            "POST",
            "/v1/test_helpers/treasury/outbound_transfers/{outbound_transfer}/fail",
            "",
            "post_test_helpers_treasury_outbound_transfers_fail",
        ),
        # Box: an id inside the operation id goes; too long still, the summary.
        (
            "put_metadata_templates_enterprise_securityClassification-6VMVochwUWo_schema#add",
            "PUT",
            "/metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema",
            "Add classification",
            "add_classification",
        ),
    ],
)
def test_a_cut_name_is_said_shorter(
    operation_id: str, method: str, path: str, summary: str, expected: str
) -> None:
    assert len(naming.endpoint_name(operation_id, method, path)) == 64  # cut, with a hash
    said = naming.readable(operation_id, method, path, summary)
    assert said == expected
    assert NAME_RE.match(said)


def test_a_name_not_cut_is_kept_and_a_shared_short_name_is_not_used() -> None:
    assert naming.readable("issues/list-for-repo", "GET", "/x", "List issues") is None
    # Graph's generated summaries are never read: nothing shorter fits, the cut name stays.
    assert (
        naming.readable(
            "me.contactFolders.childFolders.CreateMultiValueExtendedPropertiesForTheFolder",
            "POST",
            "/me/contactFolders/{id}/childFolders/{id1}/multiValueExtendedProperties",
            "Create new navigation property",
        )
        is None
    )
    names = ["a_cut_123456", "b_cut_654321", "c_cut_abcdef", "taken"]
    said: list[str | None] = ["get_default_reviewer", "get_default_reviewer", "taken", None]
    assert naming.shortened(names, said) == [
        ("a_cut_123456", None),  # two calls would share the short name: neither takes it
        ("b_cut_654321", None),
        ("c_cut_abcdef", None),  # another call has that name
        ("taken", None),
    ]
    assert naming.shortened(["x_cut_123456"], ["decline_pull_request"]) == [
        ("decline_pull_request", "x_cut_123456")
    ]


@pytest.mark.parametrize(
    ("operation_id", "method", "path", "said"),
    [
        (
            "updateCardsLabelsByIdCard",
            "PUT",
            "/cards/{idCard}/labels",
            "Update the labels of a card.",
        ),
        ("deleteTokensByToken", "DELETE", "/tokens/{token}", "Delete a token."),
        (
            "getActionsBoardByIdActionByField",
            "GET",
            "/actions/{idAction}/board/{field}",
            "Get a field of the board of an action.",
        ),
        ("UpdateEmployee", "PUT", "/v1/me/employees/{employee_id}", "Update an employee."),
    ],
)
def test_a_call_whose_text_is_its_id_is_said_from_its_path(
    operation_id: str, method: str, path: str, said: str
) -> None:
    assert text.only_the_id(operation_id, "", f"{operation_id}().")
    assert text.said_from_path(operation_id, method, path) == said


def test_a_text_of_words_is_not_only_the_id() -> None:
    assert not text.only_the_id("listAccountsForUser", "", "List accounts for user.")
    assert not text.only_the_id("getThing", "Get a thing", "")
    assert not text.only_the_id("", "", "x")


def test_unique_is_deterministic() -> None:
    assert naming.unique(["a_b", "a_b", "c", "a_b"]) == ["a_b", "a_b_2", "c", "a_b_3"]


@pytest.mark.parametrize(
    ("wire", "expected"),
    [
        ("per-page", "per_page"),
        ("$filter", "filter"),
        ("X-Api-Version", "X_Api_Version"),
        ("2fa", "p_2fa"),
        ("start.dateTime", "start_dateTime"),
        ("client[id]", "client_id"),
    ],
)
def test_param_names(wire: str, expected: str) -> None:
    assert naming.param_name(wire) == expected
    assert PARAM_RE.match(expected)


def test_categories() -> None:
    assert naming.category("Code Scanning") == "code_scanning"
    assert naming.category("users.settings.sendAs") == "users_settings_send_as"
    assert naming.category("x" * 50) == "x" * 40
    assert naming.category("") == "general"


def test_markup_removed() -> None:
    source = (
        "Use the **[search](https://x.io/s)** API ![img](https://x.io/a.png) with `q`.\n"
        "> [!NOTE]\n> Careful &amp; <em>slow</em>.\n\n"
        '| a | b |\n|---|---|\n\n```json\n{"a": 1}\n```\n\nLast _one_ here.'
    )
    assert text.paragraphs(source) == [
        "Use the search API with q.",
        "Careful & slow.",  # a block quote is its own block
        "Last one here.",
    ]
    assert text.strip_markup("keep snake_case_names and 2*3*4") == (
        "keep snake_case_names and 2*3*4"
    )
    # Placeholders in angle brackets are text; a stray `**` goes.
    assert text.strip_markup("Use `refs/heads/<branch name>`. **Closing down.") == (
        "Use refs/heads/<branch name>. Closing down."
    )
    assert text.paragraphs('<p>A <a href="x">link</a><br/>next</p><p>Two</p>') == [
        "A link next",
        "Two",
    ]


def test_caps_at_sentences_then_words() -> None:
    long = "First sentence is here. " + "word " * 100
    assert text.cap(long, 60) == "First sentence is here. word word word word word word word…"
    assert text.cap("A short one. " + "b" * 40, 20) == "A short one."
    assert text.cap("A short one. " + "b" * 40, 30) == "A short one.…"  # under half: word cut
    assert text.cap("Steps: 1. do this and that thing 2. other things follow", 30).endswith("…")


def test_endpoint_description_rules() -> None:
    assert text.endpoint_description("List pets", "List pets in the store.", "x") == (
        "List pets in the store."
    )
    assert text.endpoint_description("Get a pet", "", "x") == "Get a pet."
    assert text.endpoint_description("", "", "Users get profile") == "Users get profile."
    assert text.param_description("", "per_page") == "The per_page parameter."


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": ["string", "null"]}, Typed("string")),
        ({"type": "integer"}, Typed("number")),
        ({"enum": [True, False]}, Typed("boolean")),
        ({"properties": {"a": {}}}, Typed("object")),
        ({"items": {"type": "integer"}}, Typed("array", "number")),
        ({}, Typed("string")),
        (
            {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            Typed("string", note="Accepts a string or a number.", also=("number",)),
        ),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, Typed("number")),
        (
            {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
            Typed("array", "string"),
        ),
        (
            {"oneOf": [{"type": "object"}, {"type": "array"}]},
            Typed("object", note="Accepts an object or an array.", also=("array",)),
        ),
    ],
)
def test_types(schema: dict[str, Any], expected: Typed) -> None:
    assert typed(merged(schema)) == expected


def test_all_of_merge_stops_on_cycles() -> None:
    node: dict[str, Any] = {"properties": {"a": {"type": "string"}}, "required": ["a"]}
    node["allOf"] = [node, {"properties": {"b": {"type": "integer"}}, "required": ["b"]}]
    result = merged(node)
    assert set(result["properties"]) == {"a", "b"}
    assert result["required"] == ["a", "b"]


def test_errors_deduplicated_in_status_order() -> None:
    found = errors({422: "Validation failed", 404: "Forbidden", 200: "OK", 500: ""}, True)
    assert [(e["code"], e["cause"]) for e in found] == [
        (404, "Forbidden."),
        (422, "Validation failed."),
        (500, "The service had an error or is unavailable."),
    ]
    assert found[1]["fix"] == "Check the parameters: required fields, allowed values and formats."


def test_verify_prefers_the_caller_then_a_list_never_the_root() -> None:
    from skillgate.catalog.importers.compile import choose_verify

    assert choose_verify([("/", "meta_root"), ("/about", "about_get"), ("/user", "users_get")]) == (
        "/user"
    )
    assert choose_verify([("/about", "about_get"), ("/files", "files_list")]) == "/files"
    assert choose_verify([("/", "root"), ("/about", "about_get")]) == "/about"
    assert choose_verify([("/", "root")]) is None


def test_item_list_of_a_page() -> None:
    from skillgate.catalog.importers.pagination import item_list

    def obj(**props: Any) -> dict[str, Any]:
        return {"type": "object", "properties": props}

    arr = {"type": "array", "items": {"type": "object"}}
    assert item_list(obj(messages=arr, nextPageToken={"type": "string"})) == "messages"
    # Box: `order` is an array too; `entries` is the page's item list.
    assert item_list(obj(order=arr, entries=arr, total_count={"type": "integer"})) == "entries"
    # GitHub's compare: two lists, neither a known item-list name -> left to the executor.
    assert item_list(obj(commits=arr, files=arr)) is None
    assert item_list(arr) is None  # the page is the list
    assert item_list({"allOf": [obj(data=arr), obj(has_more={"type": "boolean"})]}) == "data"
