"""Ids and references as evidence of the integration and the object (synonyms.SHAPES,
cues.CUE_SHAPES), and a deleting call never first unless asked for (discovery/rerank.py)."""

from __future__ import annotations

import pytest

from skillgate.discovery.search import SearchIndex


def _ranked(index: SearchIndex, text: str, limit: int = 3) -> list[str]:
    return [
        f"{h.integration.slug}/{h.endpoint.name}" for h in index.search(text, ("*",), limit=limit)
    ]


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ("close acme/web#12", "github/update_issue"),
        ("retrieve in_1PxyZABCdef", "stripe/get_invoice"),
        ("cus_Q1w2E3r4T5y6U7 invoices", "stripe/list_invoices"),
        ("post in C01ABCDEF that the release is out", "slack/post_message"),
        ("members of C09ZYXWVU", "slack/list_channel_members"),
    ],
)
def test_a_reference_says_the_integration_and_object(
    index: SearchIndex, request_: str, expected: str
) -> None:
    assert expected in _ranked(index, request_)


def test_shapes_read_as_objects(index: SearchIndex) -> None:
    analyzer = index.analyzer
    for text, meant in [
        ("cancel sub_1PqrStUvWxYz", "subscription"),
        ("refund ch_3Mabc123", "charge"),
        ("pi_3PabcDEFghiJKL details", "payment intent"),
        ("close acme/web#12", "issue"),
        ("who is U024BE7LH", "user"),
    ]:
        q = analyzer.query(text)
        assert set(analyzer.terms(meant)) <= set(q.related) | set(q.terms), (text, q)
    # An id's own letters are no words ("pqr", "st", "uv"): dropped with the shape.
    assert analyzer.query("cancel sub_1PqrStUvWxYz").terms == ("cancel",)
    uuid = analyzer.query("page 1c2b3a4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d properties")
    assert uuid.terms == (*analyzer.terms("page"), *analyzer.terms("properties"))
    # Capitals in a word are not a Slack id without a digit ("CUSTOMERS").
    assert "channel" not in analyzer.query("export CUSTOMERSX list").related


def test_a_notion_id_cues_notion(index: SearchIndex) -> None:
    top = _ranked(index, "properties of 1c2b3a4d5e6f4a7b8c9d0e1f2a3b4c5d", limit=1)
    assert top[0].startswith("notion/")


DOC_LINK = "https://docs.google.com/document/d/1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT/edit"


def test_a_docs_link_names_drive_too(index: SearchIndex) -> None:
    """A Docs, Sheets or Slides file is a Drive file (cues.FILES_IN): sharing or reading
    it by its link stays among Google's calls."""
    assert index._cues.linked(f"open {DOC_LINK}") == {"google_docs", "google_drive"}
    assert index._cues.linked("https://trello.com/c/Xy7Qp2Lm/48") == {"trello"}
    read = _ranked(index, f"read {DOC_LINK}")
    assert all(r.startswith(("google_docs/", "google_drive/")) for r in read), read
    shared = _ranked(index, f"stop sharing {DOC_LINK} with ana@vendor.io", limit=2)
    assert "google_drive/delete_permission" in shared


@pytest.mark.parametrize(
    "request_",
    [
        "thread 18a1b2c3d4e5f6a7 in gmail",
        "show me the whole email conversation with the landlord",
        "what's in my Box folder Contracts",
        # "permission" is no word of deleting: list_permissions, below, holds it too.
        "share the budget file with Ana",
    ],
)
def test_a_deleting_call_is_not_first_unless_asked(index: SearchIndex, request_: str) -> None:
    first = index.search(request_, ("*",), limit=1)[0].endpoint
    assert not first.destructive, first.name


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ("trash the thread with the landlord", "gmail/trash_thread"),
        ("delete the Contracts folder in Box", "box/delete_folder"),
        ("stop sharing the file with the intern", "google_drive/delete_permission"),
        ("unstar the old-lib repo", "github/activity_unstar_repo_for_authenticated_user"),
    ],
)
def test_a_deleting_call_asked_for_stays_first(
    index: SearchIndex, request_: str, expected: str
) -> None:
    assert _ranked(index, request_, limit=1) == [expected]


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ("pi_3PabcDEFghiJKL details", "stripe/get_payment_intent"),
        ("thread 18a1b2c3d4e5f6a7 in gmail", "gmail/get_thread"),
    ],
)
def test_one_named_item_and_no_action_reads_it(
    index: SearchIndex, request_: str, expected: str
) -> None:
    """Issue 26, third round: a request naming one item (a reference of a known shape, a
    long hex id) and saying no action asks to read that item: its get comes first, not
    the listing of its kind."""
    assert _ranked(index, request_, limit=1) == [expected]


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        # A link to a product's own page says the product and the thing (synonyms.LINKS).
        ("when is https://trello.com/c/Xy7Qp2Lm/48-fix-footer due?", "trello/get_card"),
        (
            "add the action items at the bottom of https://www.notion.so/acme/Weekly-4f2a9c1e8b7d",
            "notion/append_block_children",
        ),
        # A Box shared link (app.box.com/s/<token>) holds no file id: its file is found
        # through the shared items call; a link to the file itself holds its id.
        ("what's behind this box link? https://app.box.com/s/4hq8zr2mwv0c", "box/get_shared_items"),
        ("rename https://app.box.com/file/1183745520 to q3-final.pdf", "box/update_file"),
        # A product named without its vendor, or by a nickname (discovery/products.py).
        ("Add 'renew passport' to Microsoft To Do", "microsoft_todo/create_task"),
        ("that dark mode issue on GH is not happening, please close it", "github/update_issue"),
        # A product's own thing named: a droplet is DigitalOcean's (its endpoints' names say so).
        ("spin up a small droplet in NYC", "digitalocean/create_droplet"),
        # A phone number cues Twilio; "text her" sends an SMS.
        ("could you text her at +15551234567 that I landed", "twilio/send_sms"),
    ],
)
def test_links_names_and_product_words_say_the_integration(
    index: SearchIndex, request_: str, expected: str
) -> None:
    assert expected in _ranked(index, request_)


def test_a_link_is_not_a_repository(index: SearchIndex) -> None:
    """A link's path ("acme/Weekly-...") is no GitHub repository; an unknown link's
    words say nothing."""
    q = index.analyzer.query("open https://example.com/acme/web-app")
    assert not {"repositori", "acm", "web", "app"} & set(q.terms + q.related)


def test_more_shapes_read_as_objects(index: SearchIndex) -> None:
    """Stripe's other prefixes, Twilio's SIDs, Vercel's ids, a commit SHA and links to a
    commit, a release and a Box folder say their object (issue 26's references round)."""
    analyzer = index.analyzer
    sid = "0123456789abcdef0123456789abcdef"
    for text, meant in [
        ("details of evt_9Xy8Wv7Ut6", "event"),
        ("txn_1Q2w3E4r5T6y amount", "balance transaction"),
        ("dp_1AbCdEfGhIj evidence", "dispute"),
        ("cs_live_b1C2d3E4f5 status", "checkout session"),
        (f"status of SM{sid}", "message"),
        (f"end CA{sid}", "call"),
        ("dpl_AbCdEf12345 logs", "deployment"),
        (f"show {'ab12' * 10}", "commit"),
        ("https://github.com/octo/cli/commit/ab12cd34", "commit"),
        ("https://github.com/octo/cli/releases/tag/v1.2.0", "release"),
        ("https://app.box.com/folder/12345678 items", "folder"),
    ]:
        q = analyzer.query(text)
        assert set(analyzer.terms(meant)) <= set(q.related) | set(q.terms), (text, q)


def test_a_reference_to_one_item_is_an_item_but_a_person(index: SearchIndex) -> None:
    """`Query.item`: a reference to one item (values.ITEM_BOOST), not a person's address,
    a repository or a channel."""
    analyzer = index.analyzer
    assert analyzer.query("show me po_1Zz9Yy8Xx7").item
    assert analyzer.query("read thread 18a1b2c3d4e5f6a7 in gmail").item
    assert not analyzer.query("is bo@example.org a customer in stripe").item
    assert not analyzer.query("who starred acme/web").item
    assert not analyzer.query("what was posted in #eng today").item


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ("show me evt_9Xy8Wv7Ut6QqRr", "stripe/get_events_id"),
        ("why did dpl_Qw3Er5Ty7Ui9Op fail?", "vercel/get_deployment"),
        (f"how long was CA{'0123456789abcdef' * 2}?", "twilio/get_call"),
        ("who can open https://app.box.com/file/55501234", "box/list_file_collaborations"),
    ],
)
def test_a_reading_request_naming_one_item_finds_the_call_on_it(
    index: SearchIndex, request_: str, expected: str
) -> None:
    assert expected in _ranked(index, request_)


def test_a_reference_opening_a_request_is_its_subject(index: SearchIndex) -> None:
    """ "ENG-9 is done, close it": no question ("is ..."), the verb that follows leads;
    a question after a link stays one."""
    analyzer = index.analyzer
    subject = analyzer.query("OPS-77 is done, close it")
    assert (subject.lead, subject.asked) == ("close", ())
    assert analyzer.query("is OPS-77 fixed?").lead == "get"
    assert analyzer.query("https://app.box.com/file/42 who has it?").lead == "get"
