"""Activities and things of everyday life that no integration of the catalog acts on
(docs/catalog.md, "Search": the no-match flag; docs/search-tables.md).

A request that names no product and asks for something in a domain none of the catalog's
47 integrations acts in ("book me a flight to Denver", "what's the weather tomorrow",
"turn off the living room lights", "buy 10 shares of Apple") has no endpoint, however
well its other words match one in another sense ("book": a calendar event, "order":
Square's, "balance": Stripe's). This table is world knowledge, not tuning: by domain
(travel, food, rides, home, money, weather, shopping, health, government, local
services, entertainment, navigation, devices, errands), the distinctive nouns of what is
acted on (`THINGS`) and the verb-object pairs that start such a request (`ACTS`), written
from general knowledge before any request of the evaluation sets was read for it. Each
word was checked against what the catalog's endpoints do: a word an endpoint's name
holds ("table": BigQuery's, "room": Zoom's, "ticket": Netlify's, "order": Square's,
"bank account": Square's, "exchange rate": Stripe's, "gift": Square's gift cards,
"package": GitHub's, "episode": Spotify's) is in the table only in a phrase whose sense
is clear ("a table for 4", "hotel room"), never alone; a loaded catalog whose endpoint
names hold an entry (its article left out, singular: "Weather_1_GetWeather") takes it out
(`World`), and on the shipped catalog none is taken out (tests/skillgate/discovery/
test_search_match.py), but for name phrases known to hold a word in another sense
(`OTHER_SENSE`: GitHub's "pre_flight", Entra's "translate_exchange_ids").

`World.acts_on` says whether the clause that asks acts on such a thing: a `THINGS`
phrase ending the noun phrase of its object place ("book me *a flight* to Denver", not
"find the *flight* confirmation"), or an `ACTS` pair leading it ("*reserve a table*"),
unless its verb is one that carries anything somewhere a catalog integration keeps
(`CARRIERS`: "add my flight to the calendar", "email Dana the hotel confirmation", "remind
me to check in for my flight"). Numbers are read as "#" ("table for #"). The check is one
set look-up per word of the request, and more only when one may start an entry.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from skillgate.discovery.literals import Runs

# What is acted on, by domain: noun phrases (lower case, numbers as "#").
_THINGS = {
    "travel": "flights, a flight, my flight, the flight, our flight, return flight, "
    "connecting flight, flight ticket, flight tickets, plane ticket, plane tickets, "
    "airline, airlines, airfare, airfares, boarding pass, boarding passes, hotel, hotels, "
    "hotel room, hotel rooms, motel, hostel, resort, rental car, car rental, "
    "train ticket, train tickets, bus ticket, bus tickets, cruise, layover, window seat, "
    "aisle seat, seat upgrade, frequent flyer miles, luggage, baggage, lost luggage, "
    "vacation package, travel insurance",
    "food": "pizza, pizzas, takeout, take-out, sushi, burger, burgers, tacos, burrito, "
    "chinese food, thai food, indian food, food, groceries, grocery, dinner reservation, "
    "restaurant reservation, reservation for #, restaurant, restaurants, table for #, "
    "a table for #, coffee, latte, cappuccino, recipe, recipes, meal kit, a sandwich, "
    "a salad",
    "rides": "taxi, taxis, cab, a cab, a ride, ride home, limo, chauffeur, tow truck",
    "home": "lights, the lights, the light, lamp, lamps, thermostat, the heat, "
    "the heating, air conditioning, heater, furnace, garage door, front door, "
    "door lock, the doorbell, vacuum, robot vacuum, sprinklers, the tv, "
    "television, the oven, dishwasher, washing machine, dryer, smart plug, ceiling fan, "
    "the fan, alarm system",
    "money": "bank balance, checking account, savings account, credit card bill, "
    "credit score, mortgage, mortgage rate, loan, stock price, stocks, shares of, "
    "share price, stock market, crypto, bitcoin, ethereum, dividend, dividends, "
    "wire transfer, atm, tax return, 401k, ira",
    "weather": "weather, forecast, the temperature, rain, raining, snow, snowing, "
    "umbrella, humidity, air quality, sunrise, sunset, pollen count",
    "shopping": "shoes, sneakers, jacket, paper towels, toilet paper, diapers, dog food, "
    "cat food, flowers, a bouquet, furniture, a couch, a sofa, mattress, headphones, "
    "phone case, batteries, printer ink, ink cartridges, detergent, shampoo",
    "health": "doctor, doctors, dentist, "
    "prescription, prescriptions, pharmacy, vaccine, vaccination, flu shot, covid test, "
    "blood pressure, symptoms, therapist, physical therapy, medication, medicine, pills, "
    "insulin, calories, heart rate, my workout, a workout",
    "government": "passport, visa, drivers license, driving license, license plate, "
    "car registration, vehicle registration, dmv, social security, ballot, "
    "voter registration, jury duty, parking ticket, speeding ticket, green card, "
    "birth certificate, marriage license, tax refund",
    "local services": "plumber, electrician, locksmith, handyman, house cleaner, "
    "cleaning service, babysitter, nanny, dog walker, mechanic, oil change, haircut, "
    "barber, hair salon, massage, manicure, movers, moving truck, car wash",
    "entertainment": "movie tickets, concert tickets, showtimes, a movie, movies, "
    "concert, tv show, the game score, sports scores, lottery, lottery ticket",
    "navigation": "directions, traffic, gas station, parking spot, nearest gas station",
    "devices": "a timer, stopwatch, alarm clock, wifi, wifi password, bluetooth, "
    "brightness, battery",
    "errands": "the dog, my dog, the cat, my cat, the plants, the lawn, the garden, "
    "the laundry, the dishes",
}
# What starts such a request: verb-object pairs, read where the request's verb is.
# Phrases of the shipped catalog's endpoint names that hold a word of the table in another
# sense (GitHub's "codespaces_pre_flight_with_repo...": a check before a codespace is made;
# Entra's "users_user_translate_exchange_ids"): they take no entry out (`World`).
OTHER_SENSE = ("pre flight", "translate exchange")
# The words an entry is compared with an endpoint's name without ("a flight": flight).
_DETERMINERS = frozenset(["a", "an", "the", "my", "our", "me"])
_ACTS = (
    "check in for, check into, fly to, fly from, fly me, hail a, rent a, "
    "rent an, rent me, reserve a table, book a table, "
    "order food, order dinner, order lunch, order breakfast, order takeout, "
    "translate this, translate that, translate it, translate the, translate my, "
    "translate these, translate into, translate to, translate from, buy shares, "
    "sell shares, buy stock, sell stock, navigate to, take me to, dim the, water the, "
    "walk the"
)
# Verbs that carry whatever they act on somewhere a catalog integration keeps it ("add my
# flight to the calendar", "email Dana the hotel confirmation", "post the pizza order in
# #office", "remind me to check in"): the thing is in passing.
CARRIERS = frozenset(
    ["add", "put", "email", "mail", "send", "forward", "post", "share", "save", "upload",
     "attach", "copy", "move", "remind", "text", "message", "tell", "invite", "schedule",
     "reschedule", "note", "write", "draft", "log", "record", "create", "block", "notify",
     "ping", "dm", "reply", "respond", "file", "archive", "star", "label", "pin", "store",
     "sms", "append", "insert", "update", "edit", "rename", "delete", "remove"]
)  # fmt: skip
# What may be said before the verb ("can you please", "I need to", "help me").
_LEADS = frozenset(
    ["please", "pls", "can", "could", "would", "will", "you", "i", "we", "want", "need",
     "to", "like", "id", "help", "me", "lets", "let", "us", "go", "ahead", "and", "hey",
     "ok", "okay", "kindly", "just", "quickly", "also"]
)  # fmt: skip
# What may follow a thing where it ends the object's noun phrase ("a flight *to* Denver",
# "the weather *tomorrow*", "the lights *off*", "my bank *balance*"); any other word makes
# it a word of what is acted on ("the hotel *confirmation*", "the pizza *order*").
_AFTER = frozenset(
    ["for", "to", "in", "on", "at", "about", "with", "from", "into", "onto", "by", "of",
     "near", "around", "between", "under", "over", "off", "up", "down", "out", "please",
     "tonight", "today", "tomorrow", "now", "asap", "this", "next", "me", "and", "or",
     "but", "so", "because", "if", "when", "#", "balance", "price", "prices", "status",
     "forecast", "like", "going", "be", "is", "are", "was", "will"]
)  # fmt: skip
_NUMBERS = frozenset(
    ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
     "eleven", "twelve"]
)  # fmt: skip
_WORD = re.compile(r"[a-z0-9]+(?:['\u2019-][a-z0-9]+)*")
_PLAIN = Runs("a-z0-9")  # `_WORD`'s words in a text without an apostrophe or a hyphen
# An endpoint name's words: split at a lower-case letter before a capital, then at anything
# but letters.
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_NAME_WORD = re.compile(r"[a-z]+")


def _entries(text: str) -> frozenset[str]:
    return frozenset(e.strip() for e in text.split(",") if e.strip())


THINGS = frozenset(e for text in _THINGS.values() for e in _entries(text))
ACTS = _entries(_ACTS)


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _name_phrases(names: Iterable[str], held: frozenset[str]) -> set[str]:
    """The phrases (one to three words, singular) of endpoints' `names` ("Hotels_4_SearchHotel":
    search hotel, hotel...), `OTHER_SENSE` ones joined into one word; only of the names
    holding a word of `held` (no other phrase is an entry's)."""
    phrases: set[str] = set()
    for name in names:
        ws = [_singular(w) for w in _NAME_WORD.findall(_CAMEL.sub(" ", name).lower())]
        if held.isdisjoint(ws):
            continue
        spaced = " ".join(ws)
        for other in OTHER_SENSE:
            spaced = spaced.replace(other, other.replace(" ", ""))
        ws = spaced.split()
        for n in (1, 2, 3):
            phrases.update(" ".join(ws[i : i + n]) for i in range(len(ws) - n + 1))
    return phrases


def taken_out(endpoints: Iterable[str]) -> frozenset[str]:
    """The entries a phrase of one of the endpoints' names holds (`World`; kept in the
    index's snapshot: discovery/analysed.py)."""
    entries = {e: bare(e) for e in THINGS | ACTS}
    held = _name_phrases(endpoints, frozenset(w for b in entries.values() for w in b.split()))
    return frozenset(e for e, b in entries.items() if b in held)


def bare(entry: str) -> str:
    """`entry` as compared with endpoints' names: no article, singular ("the lights": light)."""
    return " ".join(_singular(w) for w in entry.split() if w not in _DETERMINERS)


def words(text: str) -> list[str]:
    """`text`'s words as the table writes them: lower case, apostrophes left out
    ("driver's": drivers), numbers as "#"."""
    out = []
    for w in _words_of(text.lower()):
        w = w.replace("'", "").replace("\u2019", "")
        out.append("#" if w.isdigit() or w in _NUMBERS else w)
    return out


class World:
    """Whether a request acts on a thing, or does an activity, no integration acts in."""

    def __init__(
        self, endpoints: Iterable[str] = (), dropped: Collection[str] | None = None
    ) -> None:
        """`endpoints`: the loaded catalog's endpoint names; an entry that is a phrase of
        one of them is something the catalog does, not foreign to it (a catalog with
        "Weather_1_GetWeather" takes "weather" out; the shipped catalog takes none).
        `dropped`: those entries when known (`taken_out`), instead of `endpoints`."""
        self.dropped = frozenset(taken_out(endpoints) if dropped is None else dropped)
        self._things = {tuple(e.split()) for e in THINGS - self.dropped}
        self._acts = {tuple(e.split()) for e in ACTS - self.dropped}
        self._starts = frozenset(e[0] for e in self._things | self._acts)
        self._numbered = "#" in self._starts  # an entry starting with a number
        self._longest = max((len(e) for e in self._things | self._acts), default=0)

    def acts_on(self, clause: str, head: str) -> bool:
        """Whether `clause` (the clause that asks) leads with an `ACTS` pair, or has a
        `THINGS` phrase start in `head` (its object place) and end its noun phrase, and
        its verb is not one of `CARRIERS`."""
        if self._none_start(clause):
            return False  # the cost of most requests: one pass and a set look-up per word
        said = words(clause)
        if self._starts.isdisjoint(said):
            return False
        verb = _verb(said)
        if said[verb] in CARRIERS:
            return False  # carried somewhere of ours: in passing
        if any(tuple(said[verb : verb + n]) in self._acts for n in range(2, self._longest + 1)):
            return True
        end = len(words(head))
        for i in range(verb, min(end, len(said))):
            if said[i] not in self._starts:
                continue
            for n in range(min(self._longest, len(said) - i), 0, -1):
                if tuple(said[i : i + n]) in self._things:
                    # An entry that ends with a preposition ends its own noun phrase
                    # ("shares of": Apple is whose shares).
                    after = said[i + n] if i + n < len(said) else None
                    if after is None or after in _AFTER or said[i + n - 1] in _AFTER:
                        return True
                    break
        return False

    def _none_start(self, clause: str) -> bool:
        """True when no word of `clause` as `words` reads it starts an entry (False:
        maybe one does): without an apostrophe, and with no entry starting with a number,
        `words` is the pattern's words of its lower case, numbers as "#"."""
        lower = clause.lower()
        if self._numbered or "'" in lower or "\u2019" in lower:
            return False
        return self._starts.isdisjoint(_words_of(lower))


def _words_of(lower: str) -> list[str]:
    """`_WORD`'s words of a text in lower case (found without the regex engine where
    they are the runs of letters and digits: literals.Runs)."""
    if "-" in lower or "'" in lower or "\u2019" in lower:
        return _WORD.findall(lower)
    return _PLAIN.findall(lower)


def _verb(said: list[str]) -> int:
    """Where the verb of `said` (a clause's words) is: past what may be said before it."""
    verb = 0
    while verb < len(said) - 1 and said[verb] in _LEADS:
        verb += 1
    return verb


def carries(clause: str) -> bool:
    """Whether the verb of `clause` (the clause that asks) is one of `CARRIERS`."""
    said = words(clause)
    return bool(said) and said[_verb(said)] in CARRIERS
