"""A place asked about is asked for its contents (discovery/places.py): "what's on my
calendar" lists the events, not the calendars. Cases written for these tests."""

from __future__ import annotations

from skillgate.discovery.analysis import Analyzer
from skillgate.discovery.places import Places
from skillgate.discovery.search import SearchIndex

NAMES = ["list_calendars", "get_calendar", "list_events", "list_folder", "list_folder_items"]


def test_calls_named_for_the_place_itself() -> None:
    analyzer = Analyzer()
    places = Places(analyzer, NAMES)
    (calendar,) = analyzer.terms("calendar")
    (folder,) = analyzer.terms("folder")
    found = [NAMES[i] for rows in places.rows((calendar, folder)) for i in rows.tolist()]
    # `list_folder` lists the folder's children; `list_folder_items` names what it holds.
    assert sorted(found) == ["get_calendar", "list_calendars"]
    assert places.rows(()) == []


def test_whats_on_my_calendar_lists_its_events(index: SearchIndex) -> None:
    hits = index.search("what's on my google calendar on thursday?", ("*",), None, 3)
    assert f"{hits[0].integration.slug}/{hits[0].endpoint.name}" == "google_calendar/list_events"
