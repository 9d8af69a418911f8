"""Requests written for the no-match flag's table of everyday activities and things no
integration acts on (discovery/world.py; docs/catalog.md, "Search", seventh round), not in
search_eval.yaml, written with the table and before any figure was measured: answerable
ones that mention such a thing in passing while asking for a catalog action (never to be
flagged by it) and no-endpoint ones that act on one (to be flagged).

    PYTHONPATH=src:. .venv/bin/python bench/world_probe.py
"""

from __future__ import annotations

from skillgate.catalog.loader import load_catalog
from skillgate.discovery.confidence import fits
from skillgate.discovery.search import SearchIndex

# In passing: answerable.
PASSING = [
    "add my flight to the calendar",
    "email Dana the hotel confirmation",
    "post the pizza order in #office",
    "remind me to check in for my flight",
    "create a calendar event for the dentist appointment on Friday",
    "forward the boarding pass email to my wife",
    "find the email about the hotel booking",
    "add a task to call the plumber tomorrow",
    "send a Slack message to #team that lunch pizza is here",
    "put the passport renewal deadline on my calendar",
    "share the travel itinerary doc with Priya",
    "text Sam that the taxi is outside",
    "save the weather report PDF to my Drive",
    "schedule a meeting about the mortgage paperwork",
    "create a Trello card for buying printer ink",
    "draft an email to the landlord about the broken thermostat",
    "search my inbox for the car rental receipt",
    "add a row to the budget sheet for groceries",
    "make a note to water the plants",
    "list my calendar events for the trip to Denver",
    "block two hours on my calendar for the doctor",
    "invite the team to Friday's pizza lunch",
    "tell #general the office lights will be off tonight",
    "create a Jira issue: the parking spot sign is missing",
    "upload the flight receipts to the expenses folder",
]
# Acting on such a thing: no endpoint.
ACTING = [
    "book me a flight to Denver",
    "reserve a table for four at 8",
    "order a large pepperoni pizza",
    "call me a cab",
    "what's the weather tomorrow",
    "buy 10 shares of Apple",
    "check my bank balance",
    "renew my passport",
    "find a plumber near me",
    "translate this into French",
    "turn off the living room lights",
    "set the thermostat to 70",
    "find me a cheap hotel in Rome",
    "get me a taxi to the airport",
    "how much is a plane ticket to Tokyo",
    "is it going to rain this weekend",
    "order takeout from the thai place",
    "refill my prescription",
    "walk the dog at 6",
    "what's the stock price of Tesla",
    "cancel my flight to Boston",
    "find a dentist who takes my insurance",
    "get directions to the nearest gas station",
    "book a haircut for Saturday",
    "buy paper towels",
]


def main() -> None:
    index = SearchIndex(load_catalog())
    for label, requests, answerable in [("in passing", PASSING, True), ("acting", ACTING, False)]:
        wrong = []
        for r in requests:
            hits = index.rank(r, ("*",), None, 10)
            if fits(index.matches(r, hits)) != answerable:
                wrong.append(r)
        said = "wrongly flagged" if answerable else "unflagged"
        print(f"{label:10} n={len(requests):2}  {said} {len(wrong)}")
        for r in wrong:
            print(f"    {r!r}")


if __name__ == "__main__":
    main()
