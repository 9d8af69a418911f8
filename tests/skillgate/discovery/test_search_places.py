"""A place asked about is asked for its contents, and a place the request's object is in
or goes to is not its object (discovery/places.py): "what's on my calendar" lists the
events, not the calendars; "add 'Airport pickup' to my calendar" makes an event, not a
calendar. Cases written for these tests."""

from __future__ import annotations

import pytest

from skillgate.discovery.analysis import Analyzer, Query
from skillgate.discovery.places import Places, within
from skillgate.discovery.search import SearchIndex

NAMES = [
    "list_calendars", "get_calendar", "list_events", "list_folder", "list_folder_items",
    "create_calendar", "create_event", "insert_folder",
]  # fmt: skip


def _found(places: Places, q: Query) -> list[str]:
    return sorted(NAMES[i] for rows in places.rows(q) for i in rows.tolist())


def test_calls_named_for_the_place_itself() -> None:
    analyzer = Analyzer()
    places = Places(analyzer, NAMES)
    (calendar,) = analyzer.terms("calendar")
    (folder,) = analyzer.terms("folder")
    # Asked what it holds: reading the place is not asked (`list_folder` lists the
    # folder's children; `list_folder_items` names what it holds), making one may be.
    asked = Query((), (), places=(calendar, folder))
    assert _found(places, asked) == ["get_calendar", "list_calendars"]
    # The place the object goes to: neither reading it nor making one.
    inside = Query((), (), within=(calendar, folder))
    assert _found(places, inside) == [
        "create_calendar", "get_calendar", "insert_folder", "list_calendars"
    ]  # fmt: skip
    assert places.rows(Query((), ())) == []


@pytest.mark.parametrize(
    ("request_", "place"),
    [
        ("list the files in the acme-backups bucket under 2025/03/", "acme-backups bucket"),
        ("add 'Airport pickup' to my calendar", "calendar"),
        ("invite her to the #onboarding channel . she starts monday", "#onboarding channel"),
        ("move the invoice into our Finance folder on Drive", "Finance folder"),
        # No object before it, a word asking about what follows, a plural: no place.
        ("in my calendar", ""),
        ("give me the details on the infra repo", ""),
        ("save Dr. Patel in my contacts", ""),
        ("show me my open pull requests", ""),
    ],
)
def test_the_place_a_requests_object_is_in(request_: str, place: str) -> None:
    assert within(request_) == place


def test_whats_on_my_calendar_lists_its_events(index: SearchIndex) -> None:
    hits = index.search("what's on my google calendar on thursday?", ("*",), None, 3)
    assert f"{hits[0].integration.slug}/{hits[0].endpoint.name}" == "google_calendar/list_events"


@pytest.mark.parametrize(
    ("request_", "first", "not_first"),
    [
        (
            "add 'Airport pickup' to my calendar on Saturday",
            ("google_calendar/create_event", "google_calendar/quick_add"),
            "google_calendar/create_calendar",
        ),
        (
            "list the files in the acme-backups bucket on Google Cloud Storage",
            ("google_cloud_storage/list_objects",),
            "google_cloud_storage/list_buckets",
        ),
    ],
)
def test_the_place_an_object_is_in_is_not_the_call(
    index: SearchIndex, request_: str, first: tuple[str, ...], not_first: str
) -> None:
    hits = index.search(request_, ("*",), None, 3)
    found = [f"{h.integration.slug}/{h.endpoint.name}" for h in hits]
    assert found[0] in first, found
    assert not_first != found[0]
