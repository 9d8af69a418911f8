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
"""

from __future__ import annotations

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
CAPITALISED = frozenset(n for n in _names(_CAPITALISED) if n.lower() not in _OURS)
