"""Requests written for the no-match flag's table of products nothing here is
(discovery/foreign.py; docs/search-history.md, seventh round), not in search_eval.yaml:
answerable ones that name such a product in passing (never to be flagged by it) and
no-endpoint ones that name one as the place of the action (to be flagged). `first` shaped
the rules; `second` and `first_word` were written after them and changed nothing.

    PYTHONPATH=src:. .venv/bin/python bench/foreign_probe.py
"""

from __future__ import annotations

from skillgate.catalog.loader import load_catalog
from skillgate.discovery.confidence import fits
from skillgate.discovery.search import SearchIndex

# set -> (in passing: answerable, placed: no endpoint)
PROBES: dict[str, tuple[list[str], list[str]]] = {
    "first": (
        [
            "email the Salesforce export to Dana",
            "add a Slack reminder about the Uber receipt",
            "forward the Airbnb confirmation email to my wife",
            "find the email from PayPal about my refund",
            "create a Jira ticket to migrate our builds off Jenkins",
            "schedule a meeting with the HubSpot sales rep on Thursday",
            "save the Zendesk export to my Google Drive",
            "add a row to the budget sheet for the Netflix subscription",
            "create a calendar event for my Delta flight on Friday",
            "send a Slack message to the team that the AWS bill went up",
            "text my brother the Venmo request link",
            "email Dana the Shopify sales report",
            "post in #growth that our LinkedIn ad is live",
            "add my Uber receipts to the expenses spreadsheet",
            "create a task to renew the GoDaddy domain",
            "invite Sam from Salesforce to the Monday standup",
            "email the Instagram photos to Mom",
            "find the Expedia booking email",
            "send the team the LinkedIn post draft by email",
            "put the Amazon delivery on my calendar for Friday",
            "share the Figma mockups folder with Priya",
            "schedule a call with the Zendesk team next week",
            "create an issue in acme/web about the Sentry errors",
            "search my inbox for the Airbnb receipt",
            "add Netflix to the list of subscriptions in the budget doc",
        ],
        [
            "send $20 to Sam on Venmo",
            "get me an Uber",
            "add the lead to Salesforce",
            "open a merge request in GitLab",
            "post this on LinkedIn",
            "pay the electricity bill with PayPal",
            "message Tom on Telegram that I'm late",
            "order a pizza on DoorDash",
            "book a room on Airbnb in Lisbon",
            "upload the video to TikTok",
            "tweet the release notes on Twitter",
            "create a ticket in Zendesk for the refund",
            "add the song to my Apple Music library",
            "save this article to Pocket app",
            "transfer $500 from my Revolut account",
        ],
    ),
    "second": (
        [
            "reply to the Lyft support email and say thanks",
            "put my Airbnb check-in time on the calendar",
            "create a Notion page summarising the Gong call notes",
            "email the team the link to our Shopify store",
            "add a card to the Marketing board for the TikTok campaign",
            "schedule a 30 minute sync with the Okta admin tomorrow",
            "send Dana the Coinbase statement from my inbox",
            "make a spreadsheet of our monthly AWS costs",
            "remind me to cancel the Hulu trial on Friday",
            "draft an email to Priya about the Datadog invoice",
            "archive every email from Uber Eats",
            "create a GitHub issue: login fails for users who signed up with Google Pay",
            "text Sam that the DoorDash order is here",
            "find the PDF of the Expedia itinerary in my Drive",
            "add the Zillow listing link to my notes",
            "block two hours on my calendar to review the Salesforce contract",
            "list the attachments in the email from Booking.com",
            "upload the Canva design to the shared folder",
            "tell #support that Zendesk is down",
            "send a thank you note to the folks at HubSpot",
            "who emailed me about the Instagram giveaway",
            "add Alex from Airtable to the partners contact group",
            "set a reminder to renew the LinkedIn premium subscription",
            "create a task for reviewing the Figma designs",
            "post the PayPal receipt in the #finance channel",
        ],
        [
            "send my location to Dad on WhatsApp Messenger",
            "order groceries on Instacart",
            "call me an Uber to the airport",
            "add this song to my Pandora station",
            "check my Robinhood portfolio",
            "buy the book on Amazon",
            "pay Mike back through Venmo",
            "list open deals in HubSpot",
            "create a new board in Miro",
            "post a photo to my Instagram story",
            "message the group on Discord that the server is back",
            "start a build on Jenkins",
            "reserve a table on OpenTable for Friday",
            "check my Coinbase balance",
            "file an expense in Expensify",
        ],
    ),
    "first_word": (
        [
            "Amazon order confirmation: forward it to Dana",
            "Uber receipts from last month, put them in a spreadsheet",
            "Salesforce export is attached to the email from Tom, save it to the shared folder",
            "Airbnb host wants the invoice, email it to her",
            "Zendesk ticket ZD-123 needs a Jira issue",
            "Shopify sales numbers for March into the finance sheet please",
            "Netflix password: add it to my notes",
            "Datadog alert fired, post it in #ops",
        ],
        [],
    ),
}


def main() -> None:
    index = SearchIndex(load_catalog())
    for name, (passing, placed) in PROBES.items():
        for label, requests, answerable in [
            ("in passing", passing, True),
            ("placed", placed, False),
        ]:
            if requests:
                report(index, f"{name:10} {label:10}", requests, answerable)


def report(index: SearchIndex, title: str, requests: list[str], answerable: bool) -> None:
    """Print how many of `requests` the no-match flag gets wrong (flagged when
    `answerable`, unflagged when not), and which."""
    wrong = []
    for r in requests:
        hits = index.rank(r, ("*",), None, 10)
        if fits(index.matches(r, hits)) != answerable:
            wrong.append(r)
    said = "wrongly flagged" if answerable else "unflagged"
    print(f"{title} n={len(requests):2}  {said} {len(wrong)}")
    for r in wrong:
        print(f"    {r!r}")


if __name__ == "__main__":
    main()
