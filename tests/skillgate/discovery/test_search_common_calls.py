"""The commonest calls, eighteenth round (issue 26; docs/search-history.md): closing a pull
request without merging it and deleting a branch (curated, described in the words people
ask with), a mailing list as a group, analytics' words as its cues, Box's upload into a
folder. Cases written for these tests, not taken from the evaluation sets."""

from __future__ import annotations

import pytest

from skillgate.discovery.search import SearchIndex

# Bitbucket's decline closes a pull request without merging it: a right answer where the
# request names no product ("close PR 7 on acme/api").
CLOSING = {"github/pulls_update", "github/update_issue", "bitbucket/decline_pull_request"}


def _top(index: SearchIndex, task: str, limit: int = 3) -> list[str]:
    return [
        f"{h.integration.slug}/{h.endpoint.name}" for h in index.search(task, ("*",), limit=limit)
    ]


@pytest.mark.parametrize(
    "task",
    [
        "close pull request 31 in octo/site on github",
        "close PR 7 on acme/api, we're not taking it",
        "close pull request 12 in acme/web on github without merging it",
    ],
)
def test_closing_a_pull_request_is_a_call_that_closes_it_first(
    index: SearchIndex, task: str
) -> None:
    """Never a merge or a new pull request first: Bitbucket's merge and create took "close"
    from their descriptions' `close_source_branch`, GitHub's create came before the update
    whose description buried "close it" after its plans' list."""
    assert _top(index, task)[0] in CLOSING, _top(index, task)


@pytest.mark.parametrize(
    "task",
    [
        "delete the merged branch hotfix/typo on github",
        "remove the stale branch feature/old-nav from acme/web on github",
    ],
)
def test_deleting_a_branch_is_first_not_its_protection(index: SearchIndex, task: str) -> None:
    assert _top(index, task)[0] == "github/git_delete_ref", _top(index, task)


def test_declining_a_bitbucket_pull_request_is_in_the_top_3(index: SearchIndex) -> None:
    """Its importer's name was a hash of its path, which held no "pull request"; said from
    its summary, `decline_pull_request`, and curated, it is among the first."""
    decline = "bitbucket/decline_pull_request"
    assert decline in _top(index, "decline PR 14 in bitbucket, close it without merging")


def test_a_mailing_list_is_a_group_not_the_mailbox(index: SearchIndex) -> None:
    """Eighteenth round: "mailing list" is one term (synonyms.SYNONYMS) meaning a group of
    addresses; its "mail" had cued Gmail and read the inbox ("take dan off the engineering
    mailing list": Gmail's and Outlook's list_messages first). Mail itself still reads the
    mailbox."""
    terms = index.analyzer.query("take him off the mailing list").terms
    assert "mail" not in terms
    assert "mail_list" in terms
    assert _top(index, "remove sam@acme.com from the sales mailing list")[0] == (
        "google_admin/remove_group_member"
    )
    assert not {"gmail/list_messages", "outlook/list_messages"} & set(
        _top(index, "who is on the engineering mailing list")
    )
    assert _top(index, "check my mail for anything from the bank")[0] == "gmail/list_messages"


def test_analytics_words_cue_google_analytics(index: SearchIndex) -> None:
    """Eighteenth round: "page views" and "conversions" are Google Analytics' own words
    (cues.CUES); a site's page views were Notion's page properties."""
    assert _top(index, "how many page views did the pricing page get last week")[0] == (
        "google_analytics/run_report"
    )
    assert "google_analytics/run_report" in _top(index, "which pages got the most conversions")


def test_an_upload_into_a_box_folder_is_boxs_upload(index: SearchIndex) -> None:
    """Eighteenth round: Box's upload says it puts a file into a folder (its summary,
    "Upload file.", did not, and the folder's own calls came first)."""
    assert "box/post_files_content" in _top(
        index, "upload budget.xlsx to the Reports folder in Box", 2
    )


@pytest.mark.parametrize(
    "task",
    ["upload the flyer PDF to google drive", "upload invoice.pdf into my Receipts folder on Drive"],
)
def test_an_upload_to_google_drive_is_drives_upload(index: SearchIndex, task: str) -> None:
    """Drive's `upload_file` (its content and name in one call, twentieth round) first:
    before it, Drive's `about` (its upload limits) or the metadata-only `create_file`."""
    assert _top(index, task)[0] == "google_drive/upload_file", _top(index, task)
