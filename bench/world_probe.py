"""Requests written for the no-match flag's table of everyday activities and things no
integration acts on (discovery/world.py; docs/search-history.md, seventh round), not in
search_eval.yaml, written with the table and before any figure was measured: answerable
ones that mention such a thing in passing while asking for a catalog action (never to be
flagged by it) and no-endpoint ones that act on one (to be flagged).

    PYTHONPATH=src:. .venv/bin/python bench/world_probe.py
"""

from __future__ import annotations

from bench.foreign_probe import report
from skillgate.catalog.loader import load_catalog
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
# Written after the rules were set and measured once, to see how they hold (not used to
# change them).
PASSING_2 = [
    "email the travel agent asking for a cheaper hotel",
    "add the restaurant address to my contacts",
    "create an event for dinner at the thai restaurant on Friday",
    "post in #random that free pizza is in the kitchen",
    "make a checklist in Notion for packing my luggage",
    "add the plumber's number to Google Contacts",
    "find the email with my boarding pass",
    "create a task to pay the mortgage",
    "send the weather alert to the team channel",
    "upload the passport scan to Dropbox",
    "share the grocery list doc with my roommate",
    "tell Dana the flight is delayed",
    "search Drive for the car rental contract",
    "create a Jira ticket: the thermostat API returns 500",
    "remind me to water the plants on Sunday",
    "add the bitcoin price chart to the slides",
    "invite Priya to the dentist appointment on my calendar",
    "schedule a zoom call about the hotel contract",
    "forward the taxi receipt to accounting",
    "list the emails about the concert tickets",
]
ACTING_2 = [
    "book a hotel room in Paris for next weekend",
    "get me a cab to the train station",
    "order sushi for dinner",
    "what's the forecast for Saturday",
    "dim the lights in the bedroom",
    "find a locksmith, I'm locked out",
    "how much is bitcoin worth right now",
    "buy flowers for my mom",
    "check in for my flight to Chicago",
    "rent a car in Denver for three days",
    "what's my credit score",
    "apply for a visa to India",
    "find showtimes for the new Batman movie",
    "get me directions to the airport",
    "book a massage for Sunday afternoon",
    "turn up the heat",
    "refill my blood pressure medication",
    "find a babysitter for Friday night",
    "what's the exchange rate from dollars to euros",
    "start the robot vacuum",
]


def main() -> None:
    index = SearchIndex(load_catalog())
    sets = [
        ("in passing", PASSING, True),
        ("acting", ACTING, False),
        ("in passing 2", PASSING_2, True),
        ("acting 2", ACTING_2, False),
    ]
    for label, requests, answerable in sets:
        report(index, f"{label:12}", requests, answerable)


if __name__ == "__main__":
    main()
