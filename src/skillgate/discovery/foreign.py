"""Products and online services the catalog does not integrate (docs/catalog.md, "Search":
the no-match flag).

A request that says where to act, and names a product nothing here reaches ("send $20 to
Sam on Venmo", "add the lead to Salesforce", "get me an Uber"), has no endpoint, however
well its other words match one ("lead", "user"). This table is world knowledge, not
tuning: well-known software products and online services by category (SaaS, developer
tools, consumer apps, payments, banks, travel, food delivery, social networks, streaming,
shopping...), written from general knowledge before any request of the evaluation sets
was read for it, without the catalog's own products (its 47 integrations, their common
names and nicknames: Gmail, Drive, Teams, Outlook, OneDrive, SharePoint, Meet, Hangouts,
Azure AD...) and without the products those integrations act on (Excel and Word files
in OneDrive, Facebook and Instagram ads in Mailchimp...).

`PRODUCTS` are names read whatever their case (lower case here; a name of two or more
words is matched as a phrase). `CAPITALISED` are names that are also common English
words ("Chase", "Signal", "Target", "Discord"): they name the product only when written
with a capital, and not as a request's first word.

`Foreign.placed` says whether the clause that asks names one as the place or means of its
action (discovery/confidence.py's `FOREIGN_PENALTY`); the words of the names are never
spelling-corrected into catalog words (discovery/spelling.py). The check is one set
look-up per word of the request, and more only when one may start a name.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from skillgate.discovery.world import carries

# Read whatever the case. One string per category, split on commas (a name may have spaces).
_PRODUCTS = (
    # CRM, sales, support, marketing
    "salesforce, hubspot, pipedrive, zoho, zoho crm, zendesk, freshdesk, freshworks, "
    "intercom, helpscout, help scout, front app, gorgias, kustomer, servicenow, "
    "sugarcrm, close crm, copper crm, insightly, dynamics 365, marketo, pardot, "
    "klaviyo, constant contact, activecampaign, convertkit, mailerlite, brevo, "
    "sendinblue, mailgun, customer io, braze, outreach io, "
    "salesloft, apollo io, chorus ai, zoominfo, clearbit, hootsuite, "
    "buffer app, sprout social, semrush, ahrefs, moz, hotjar, mixpanel, "
    "heap analytics, segment io, optimizely, unbounce, typeform, surveymonkey, "
    "qualtrics, jotform, google forms, calendly, acuity scheduling, "
    "chili piper, yesware, mailshake, lemlist, "
    # project management, docs, collaboration (not ours)
    "monday com, clickup, basecamp, wrike, smartsheet, airtable, confluence, "
    "evernote, obsidian, roam research, logseq, bear notes, todoist, ticktick, "
    "things 3, omnifocus, any do, workflowy, dynalist, miro, lucidchart, "
    "figjam, figma, sketch app, invision, zeplin, canva, adobe xd, "
    "photoshop, lightroom, indesign, premiere pro, after effects, "
    "adobe adobe sign, hellosign, dropbox sign, pandadoc, "
    "dropbox, icloud, icloud drive, pcloud, mega nz, sync com, egnyte, "
    "google photos, vidyard, webex, gotomeeting, "
    "bluejeans, skype, facetime, ringcentral, dialpad, aircall, vonage, "
    "grasshopper, 8x8, "
    # office suites not ours
    "libreoffice, openoffice, wps office, google sites, "
    # developer tools, hosting, cloud (not ours)
    "gitlab, sourcehut, gitea, gerrit, phabricator, jenkins, circleci, travis ci, "
    "travisci, teamcity, bamboo ci, buildkite, drone ci, argocd, argo cd, "
    "azure devops, azure pipelines, heroku, render com, fly io, railway app, "
    "cloudflare, fastly, akamai, aws, amazon web services, ec2, s3, lambda aws, "
    "s3 bucket, dynamodb, cloudwatch, route53, route 53, azure, azure blob, "
    "linode, vultr, hetzner, ovh, ovhcloud, godaddy, namecheap, squarespace, "
    "wix, weebly, wordpress, webflow, ghost blog, shopify, bigcommerce, "
    "woocommerce, magento, prestashop, firebase, supabase, planetscale, "
    "mongodb atlas, redis cloud, databricks, redshift, "
    "elasticsearch, kibana, datadog, new relic, newrelic, pagerduty, "
    "opsgenie, splunk, grafana, prometheus, rollbar, bugsnag, "
    "statuspage, pingdom, uptimerobot, docker hub, dockerhub, quay io, npm js, "
    "npmjs, pypi, rubygems, packagist, crates io, maven central, artifactory, "
    "jfrog, nexus repository, sonarqube, sonarcloud, snyk, codecov, "
    "coveralls, swagger hub, stackoverflow, stack overflow, "
    "replit, codepen, codesandbox, jupyterhub, kaggle, colab, "
    "hugging face, huggingface, openai, chatgpt, claude ai, anthropic console, "
    "midjourney, cursor ide, terraform cloud, pulumi, "
    "kubernetes dashboard, openshift, "
    "auth0, okta, onelogin, 1password, lastpass, bitwarden, dashlane, "
    "duo security, twingate, tailscale, zerotier, ngrok, "
    # HR, finance, accounting, legal
    "workday, bamboohr, gusto, rippling, adp, paychex, deel, remote com, "
    "justworks, greenhouse io, lever co, workable, ashby, breezy hr, lattice hr, "
    "15five, culture amp, quickbooks, xero, freshbooks, wave accounting, "
    "netsuite, expensify, brex, ramp card, divvy, bill com, "
    "tipalti, gusto payroll, carta, turbotax, h&r block, intuit, ynab, "
    "you need a budget, personal capital, credit karma, nerdwallet, "
    ""
    # payments, money, banks, crypto
    "paypal, venmo, zelle, cash app, cashapp, apple pay, google pay, gpay, "
    "samsung pay, alipay, wechat pay, paytm, phonepe, upi, revolut, "
    "transferwise, western union, moneygram, remitly, worldremit, payoneer, "
    "skrill, neteller, klarna, afterpay, sezzle, braintree, adyen, "
    "authorize net, checkout com, mollie, razorpay, chargebee, recurly, "
    "chase bank, jpmorgan, bank of america, wells fargo, citibank, citi, "
    "capital one, us bank, pnc, td bank, hsbc, barclays, lloyds, natwest, "
    "santander, monzo, starling, n26, ally bank, discover card, amex, "
    "american express, mastercard, visa card, schwab, charles schwab, "
    "robinhood, etrade, e trade, webull, interactive brokers, "
    "coinbase, binance, kraken, gemini exchange, metamask, crypto com, "
    "blockchain com, sofi, stash app, betterment, wealthfront, "
    # travel, transport, maps
    "uber, lyft, didi, ola cabs, gojek, blablacar, airbnb, vrbo, "
    "booking com, expedia, hotels com, priceline, skyscanner, trivago, "
    "tripadvisor, orbitz, travelocity, agoda, trainline, amtrak, "
    "flixbus, eurostar, united airlines, american airlines, "
    "jetblue, ryanair, easyjet, lufthansa, british airways, "
    "air france, emirates, qatar airways, turo, zipcar, avis, enterprise "
    "rent a car, lime scooter, bird scooter, citi bike, google maps, apple maps, "
    "waze, mapquest, here wego, moovit, citymapper, transit app, tripit, "
    "parkmobile, spothero, "
    # food, groceries, delivery, shopping
    "doordash, ubereats, uber eats, grubhub, postmates, deliveroo, "
    "just eat, swiggy, zomato, instacart, shipt, gopuff, hellofresh, "
    "blue apron, factor meals, opentable, resy, yelp, toast pos, starbucks, "
    "dominos, domino's, mcdonalds, mcdonald's, chipotle, amazon, amazon prime, "
    "prime video, ebay, etsy, walmart, costco, aliexpress, alibaba, temu, shein, "
    "wayfair, ikea, best buy, bestbuy, home depot, lowes, craigslist, "
    "facebook marketplace, offerup, poshmark, depop, mercari, vinted, wish com, "
    "groupon, rakuten, honey app, fedex, usps, dhl, royal mail, "
    "canada post, shipstation, easypost, aftership, taskrabbit, thumbtack, "
    "angi, angie's list, wag app, care com, fiverr, upwork, "
    "freelancer com, "
    # social networks, messaging, communities
    "instagram, twitter, tiktok, snapchat, linkedin, pinterest, "
    "reddit, tumblr, mastodon, bluesky, threads app, quora, medium com, "
    "substack, patreon, onlyfans, twitch, kick com, vimeo, dailymotion, "
    "messenger app, facebook messenger, fb messenger, imessage, "
    "wechat, viber, kakaotalk, kakao, snapchat, nextdoor, eventbrite, "
    "goodreads, letterboxd, strava, bumble, tinder, grindr, okcupid, "
    "match com, behance, dribbble, deviantart, flickr, 500px, "
    "vsco, bereal, "
    # streaming, music, media, games
    "netflix, hulu, disney plus, disney+, hbo max, hbo, max streaming, "
    "paramount plus, paramount+, peacock tv, apple tv, crunchyroll, "
    "sling tv, fubo, plex, roku, apple music, "
    "amazon music, deezer, soundcloud, bandcamp, shazam, "
    "sirius xm, siriusxm, iheartradio, tunein, pocket casts, "
    "epic games, xbox, xbox live, playstation, psn, nintendo, "
    "nintendo switch, roblox, minecraft, fortnite, battle net, origin ea, "
    "ubisoft connect, gog com, "
    # smart home, devices, health, fitness, education
    "alexa, siri, google home, google assistant, google nest, nest thermostat, "
    "ring doorbell, philips hue, smartthings, ifttt, zapier, make com, "
    "integromat, n8n, home assistant, ecobee, sonos, fitbit, garmin connect, "
    "apple health, apple watch, myfitnesspal, peloton, calm app, "
    "noom, oura, zocdoc, teladoc, mychart, goodrx, cvs, walgreens, "
    "duolingo, coursera, udemy, edx, khan academy, canvas lms, "
    "moodle, schoology, quizlet, chegg, grammarly, "
    # news, reading, storage, misc
    "pocket app, instapaper, feedly, inoreader, wikipedia, imdb, rotten tomatoes, "
    "ticketmaster, stubhub, seatgeek, fandango, weather com, accuweather, "
    "dark sky, nytimes, new york times, wall street journal, wsj, bloomberg, "
    "reuters, tesla app, mychevrolet, carfax, carvana, "
    "autotrader, zillow, redfin, realtor com, trulia, apartments com, "
    "rocket mortgage, lemonade insurance, geico, progressive insurance, "
    "state farm, allstate"
)
# Names that are also common English words: a product only when capitalised.
_CAPITALISED = (
    "Signal, Telegram, Discord, Apple, Keynote, Discover, Wise, Stash, Acorns, Mint, "
    "Empower, Ramp, Copper, Drift, Lever, Greenhouse, Heap, Amplitude, "
    "Buffer, Loom, Bear, Coda, Quip, Mural, Sketch, Gong, "
    "Vault, Consul, Nomad, Railway, Fly, Ghost, Medium, Pocket, Overcast, Steam, "
    "Peacock, Hinge, Tidal, Bolt, Grab, Lime, Bird, Ring, Nest, Calm, Whoop, Blackboard, "
    "Sentry, Delta, Southwest, Frontier, Spirit, Progressive, "
    "Keeper, Toast, Seamless, Rover, Wag, Meetup, Clubhouse, "
    "Gemini, Perplexity, Acrobat, Affirm, Audible, Chime, Concur, Fidelity, Glitch, "
    "Hopper, Illustrator, Insomnia, Kayak, Paddle, Whereby, Vanguard, Greyhound, UPS, "
    "Pandora, SAP, Rancher, Postmark, Whimsical, Doodle, Clio, Ironclad, Hertz, Headspace, "
    "Honeycomb, Postman, Vagrant, Snowflake, Kindle"
)
# Products of ours (or acted on by ours) that a general list could hold: never foreign.
_OURS = frozenset(["notion", "excel", "word", "whatsapp", "facebook", "copilot"])


def _names(text: str) -> frozenset[str]:
    return frozenset(n.strip() for n in text.split(",") if n.strip())


# Lower case, whatever case the request writes them in.
PRODUCTS = frozenset(n.lower() for n in _names(_PRODUCTS)) - _OURS
# As written (capitalised): the product only with its capital.
CAPITALISED = frozenset(
    n for n in _names(_CAPITALISED) if n.lower() not in _OURS
)  # Every word of a name read whatever its case: never a typo of a catalog word ("uber" is
# not "user"; discovery/spelling.py).
WORDS = frozenset(w for n in PRODUCTS for w in n.split() if w.isalpha())

# A word as the table's names are split into (letters, digits, "&", "+": "h&r", "disney+"),
# with an owner's "'s" after it ("Salesforce's pipeline").
_TOKEN = re.compile(r"([A-Za-z0-9][A-Za-z0-9&+]*)(['\u2019]s\b)?")
# Its words in an all-ASCII text's lower case, each owner's "s" a word of its own: the
# words of `_TOKEN`, lower case, and maybe "s" (`Foreign._names_none`).
_LOWER_WORD = re.compile(r"[a-z0-9][a-z0-9&+]*")
# Words that put what follows as where or by what the request is done ("on Venmo", "via
# Telegram", "in Salesforce", "to LinkedIn"), and those that do so only before the caller's
# own ("from my Revolut account", "with our PayPal"): without it they more often say who
# ("the email from PayPal", "a meeting with Salesforce", "Dana at Stripe").
_PLACING = frozenset(["in", "on", "to", "into", "onto", "via", "using", "through", "over"])
_PLACING_OWN = frozenset(["from", "with", "at"])
_OWN = frozenset(["my", "our", "your"])
# The words that may stand between those and the name ("in my Salesforce", "on the Shopify
# store").
_BETWEEN = frozenset(["my", "our", "your", "the", "their", "his", "her"])
# A name used as a thing, with an article, at the end of what the request acts on: the
# product's service ("get me an Uber", "book a Lyft").
_ARTICLES = frozenset(["a", "an"])
# The words for where things are kept in a product, which may follow its name where the
# name says the place ("on my Venmo balance", "in the Shopify store"); any other word
# after the name makes it a word of what is acted on ("my Delta flight", "with the HubSpot
# sales rep"): in passing.
_PLACES = frozenset(
    ["account", "accounts", "app", "profile", "page", "feed", "story", "timeline", "store",
     "shop", "site", "website", "workspace", "dashboard", "console", "portal", "inbox",
     "wallet", "balance", "library", "cart", "wishlist", "watchlist", "queue", "instance",
     "server", "cluster", "channel", "group", "chat"]
)  # fmt: skip
# What ends a name's phrase: a word that starts another (a preposition, a clause word).
_ENDS = frozenset(
    ["for", "to", "in", "on", "at", "about", "with", "from", "into", "onto", "by", "and",
     "or", "but", "so", "because", "before", "after", "when", "if", "that", "which", "as",
     "saying", "called", "named", "titled", "tomorrow", "today", "tonight", "now", "asap"]
)  # fmt: skip

# What follows a name as a word of what is acted on and still leaves it in passing: what
# the product sends or exports, kept in a place of ours ("find the Uber *receipt*", "the
# Stripe *invoice* email"), and who works there ("the HubSpot sales *rep*", "the
# Salesforce *team*").
_SENT = frozenset(
    ["receipt", "receipts", "email", "emails", "mail", "invoice", "invoices", "bill",
     "bills", "confirmation", "confirmations", "notification", "notifications", "alert",
     "alerts", "statement", "statements", "export", "exports", "newsletter", "link",
     "links", "code", "codes", "message", "messages", "digest", "summary", "password",
     "login", "reset"]
)  # fmt: skip
_PEOPLE = frozenset(
    ["team", "teams", "rep", "reps", "people", "folks", "guy", "guys", "person", "staff",
     "crew", "manager", "managers", "admin", "admins", "owner", "owners", "founder",
     "founders", "ceo", "cto", "support", "sales", "recruiter", "contact", "contacts",
     "lead", "leads", "engineer", "engineers", "friend", "friends", "account"]
)  # fmt: skip


# A clause's words, each with whether an owner's "'s" follows it, and their lower case.
_Read = tuple[list[tuple[str, bool]], list[str]]


class Foreign:
    """Where a request names a product of the table as the place or means of its action."""

    def __init__(
        self,
        ours: Iterable[str] = (),
        products: Collection[str] = PRODUCTS,
        capitalised: Collection[str] = CAPITALISED,
    ) -> None:
        """`ours`: the loaded catalog's integration names and slugs: a name of the table
        that is (part of) one of them is ours, not foreign (a catalog may add an
        integration the table holds: "Uber Rides" takes "uber")."""
        held = [" " + re.sub(r"[\W_]+", " ", o.lower()).strip() + " " for o in ours]
        self._names = frozenset(n for n in products if not _within(n, held))
        self._capitalised = frozenset(n for n in capitalised if not _within(n.lower(), held))
        # The words a name may start with (lower case), and the most words a name has.
        self._starts = frozenset(n.split()[0] for n in self._names) | frozenset(
            n.split()[0].lower() for n in self._capitalised
        )
        self._longest = max((len(n.split()) for n in (*self._names, *self._capitalised)), default=0)
        # The last clause read (`_read`): `placed` and then `modified` read the same one.
        self._last: tuple[str, _Read | None] | None = None

    def placed(self, clause: str, head: str) -> bool:
        """Whether `clause` (the clause that asks, as written) names a product of the table
        as where or by what to act: after a word that places it ("on Venmo", "via
        Telegram", "from my Revolut account") or "my" ("my Uber account"), ending its
        phrase or before a word for a place in it ("my Venmo balance"); with an owner's
        "'s" ("Salesforce's pipeline"); as its first word ("Venmo Jake $30"); or with an
        article as the last word of its object place `head` ("get me an Uber"). Not in
        passing ("email the Salesforce export to Dana", "my Delta flight")."""
        read = self._read(clause)
        if read is None:
            return False
        tokens, lower = read
        last = len(_TOKEN.findall(head)) - 1  # where the object place ends
        for i, word in enumerate(lower):
            if word not in self._starts:
                continue
            end = self._name_end(tokens, lower, i)
            if end is None:
                continue
            if i == 0 or tokens[end][1]:
                return True  # the request's verb, or the owner of what it acts on
            if end == last and lower[i - 1] in _ARTICLES:
                return True
            after = lower[end + 1] if end + 1 < len(lower) else None
            if (after is None or after in _ENDS or after in _PLACES) and _placed_at(lower, i):
                return True
        return False

    def modified(self, clause: str, head: str) -> bool:
        """Whether `clause` (the clause that asks, as written) acts on a thing in a
        product of the table, named as a word of it: in its object place `head`, before
        any "of" ("retry the *gitlab* pipeline", "close the *zendesk* ticket", its place
        itself: "restart the *ec2* instance"), unless
        its verb carries it somewhere (world.CARRIERS: "text my brother the Venmo request
        link"); or after a word that places it ("in", "to"...) as the one word before
        the end of its phrase ("add a row to the *airtable* base", "reply to the
        *intercom* conversation with Jane"). Not a phrase that ends with what the product
        sends or who works there (`_SENT`, `_PEOPLE`: "find the Expedia booking email",
        "the HubSpot sales rep")."""
        read = self._read(clause)
        if read is None:
            return False
        tokens, lower = read
        object_place = [m.group(1).lower() for m in _TOKEN.finditer(head)]
        if "of" in object_place:
            object_place = object_place[: object_place.index("of")]
        for i, word in enumerate(lower):
            end = self._name_end(tokens, lower, i) if word in self._starts else None
            if end is None or end + 1 >= len(lower) or not lower[end + 1].isalpha():
                continue
            stop = next((j for j in range(end + 1, len(lower)) if lower[j] in _ENDS), len(lower))
            phrase = lower[end + 1 : stop]
            if not phrase or not _SENT.isdisjoint(phrase) or not _PEOPLE.isdisjoint(phrase):
                continue
            if i < len(object_place):  # its place or thing acted on ("restart EC2 instance")
                if not carries(clause):
                    return True
            elif phrase[0] in _PLACES:
                continue  # the place itself, after the object: `placed` reads it
            elif len(phrase) == 1 and _placing_before(lower, i):
                return True
        return False

    def _read(self, clause: str) -> _Read | None:
        """`clause`'s words (each with whether an owner's "'s" follows it) and their lower
        case; None when no word of it may start a name of the table (the last clause's
        kept: neither caller changes them)."""
        last = self._last
        if last is not None and last[0] == clause:
            return last[1]
        found = self._read_words(clause)
        self._last = (clause, found)
        return found

    def _read_words(self, clause: str) -> _Read | None:
        """`_read`, without the last clause's kept."""
        if self._names_none(clause):
            return None  # the cost of most requests: one set look-up per word
        tokens = [(m.group(1), bool(m.group(2))) for m in _TOKEN.finditer(clause)]
        lower = [t.lower() for t, _ in tokens]
        if self._starts.isdisjoint(lower):
            return None
        return tokens, lower

    def _names_none(self, clause: str) -> bool:
        """True when no word of `clause` starts a name of the table (False: maybe one
        does): for an all-ASCII clause, read off its lower case's words in one pass."""
        return clause.isascii() and self._starts.isdisjoint(_LOWER_WORD.findall(clause.lower()))

    def _name_end(self, tokens: list[tuple[str, bool]], lower: list[str], i: int) -> int | None:
        """The last word of the longest name of the table starting at word `i`, if any."""
        for n in range(min(self._longest, len(lower) - i), 0, -1):
            name = " ".join(lower[i : i + n])
            if name in self._names:
                return i + n - 1
            written = " ".join(t for t, _ in tokens[i : i + n])
            if i and written in self._capitalised:
                return i + n - 1
        return None


def _within(name: str, held: list[str]) -> bool:
    """Whether `name` is a whole-word part of one of `held` (spaced, lower case)."""
    return any(f" {name} " in h for h in held)


def _placed_at(lower: list[str], i: int) -> bool:
    """Whether the name at word `i` follows a word that places it, or "my" / "our"."""
    if i and lower[i - 1] in _OWN:
        return True
    j = i - 1
    while j >= 0 and lower[j] in _BETWEEN and i - j <= 2:
        j -= 1
    if j < 0:
        return False
    own = j + 1 < i and lower[j + 1] in _OWN
    return lower[j] in _PLACING or (own and lower[j] in _PLACING_OWN)


def _placing_before(lower: list[str], i: int) -> bool:
    """Whether a word that places (`_PLACING`) comes before word `i`, with at most two of
    `_BETWEEN` between ("to the Airtable base", not "for my Delta flight")."""
    j = i - 1
    while j >= 0 and lower[j] in _BETWEEN and i - j <= 2:
        j -= 1
    return j >= 0 and lower[j] in _PLACING
