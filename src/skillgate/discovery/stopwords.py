"""The words of a request that say nothing of which endpoint is meant (discovery/analysis.py
reads a text without them): stop words, what comes before a request's verb, chat's filler."""

from __future__ import annotations

# Words that say nothing about which endpoint is meant.
_STOPWORDS = """a about all also am an and any are as at be been but by can could did do does
    doing for from had has have he her here his how i if in into is it its itself just
    let me might more most must my no nor not of off on once one only or other our ours
    out over own please same she should so some such than that the their them then there
    these they this those through to too very was we were what when where which while
    whom why will with would you your yours yet want need needs like using via
    s t d ll m re ve
    isn aren wasn weren hasn haven hadn doesn didn don wouldn shouldn couldn mustn needn
"""
# The documentation's and our phrasings' made-up company names ("acme/web", "Acme Corp",
# "jane@contoso.com", a label "Clients/Acme"): a name, as a caller's own company's is, no
# word of any call; a request saying one matched the phrasings that happen to use it.
PLACEHOLDERS = frozenset(["acme", "contoso", "fabrikam", "northwind"])
STOPWORDS = frozenset(_STOPWORDS.split()) | PLACEHOLDERS
# What may come before a request's verb ("please", "can you", "I want to").
_LEAD_INS = """please can could would will you i we want need to let lets us just now then also
    and hey hi hello ok okay so honestly actually really maybe kindly quickly go ahead help
    me d m am like love"""
LEAD_INS = frozenset(_LEAD_INS.split())
# The words of chat that hedge, stress or fill ("I *really* need to focus", "how much do
# we *actually* have", "*ugh*, the login page is broken *again*"), never what a request
# is for: left out of a query, but for a word an endpoint's name holds (an API whose
# things are "things": `Analyzer.filler`).
_FILLER = """really actually basically literally totally honestly seriously definitely
    probably perhaps maybe kinda sorta pretty super quick quickly anything
    somewhere anywhere somehow stuff thing things ugh oh hmm um uh well lol
    guess think sure fine gonna wanna gotta already ever even again still asap right
    though anyway anyways btw cool great awesome"""
FILLER = frozenset(_FILLER.split())
