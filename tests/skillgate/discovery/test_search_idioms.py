"""Phrasal verbs and workplace idioms as the plain verbs they stand for (discovery/idioms.py,
issue 26): "land the PR" merges it, "kick the build off again" reruns it, "block off
some time" makes an event. Cases written for these tests from how people talk, not taken
from the evaluation sets; each idiom beside a use of its words that means something else.
"""

from __future__ import annotations

import pytest

from skillgate.discovery.idioms import idioms
from skillgate.discovery.search import SearchIndex


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        # Code hosting.
        ("land the PR for the login fix", "merge the PR for the login fix"),
        ("can you land #482", "can you merge #482"),
        ("emails land in my inbox every morning", "emails land in my inbox every morning"),
        ("put up a PR for the typo", "create a PR for the typo"),
        ("raise a ticket for the broken login", "create a ticket for the broken login"),
        ("raise the limit", "raise the limit"),
        ("sign off on PR 12", "approve PR 12"),
        ("greenlight the budget", "approve the budget"),
        ("sign off for the day", "sign off for the day"),
        ("kick the nightly build off again", "rerun the nightly build"),
        ("kick off the deploy again", "rerun the deploy"),
        ("fire off a build of main", "trigger a build of main"),
        ("push the fix to prod", "deploy the fix to prod"),
        ("push the site live", "deploy the site"),
        ("kill the build for main", "cancel the build for main"),
        ("kill the lights", "kill the lights"),
        ("bump the priority of ENG-12", "update the priority of ENG-12"),
        ("bump the 3pm to Thursday", "reschedule the 3pm to Thursday"),
        # Calendars.
        ("push out the sync to Thursday", "reschedule the sync to Thursday"),
        ("push it out a week", "reschedule it a week"),
        ("push out the release notes", "push out the release notes"),
        ("block off some time on Friday", "create an event on Friday"),
        ("grab time with Kim", "schedule a meeting with Kim"),
        ("call off tomorrow's standup", "cancel tomorrow's standup"),
        ("call the offsite off", "cancel the offsite"),
        ("call the office", "call the office"),
        ("punt the review to next week", "reschedule the review to next week"),
        # Messages and mail.
        ("reach out to the vendor", "message the vendor"),
        ("follow up with Dana about the offer", "message Dana about the offer"),
        ("circle back with Sam", "message Sam"),
        ("fill Sam in on the outage", "tell Sam about the outage"),
        ("get the contract signed by Ana", "send the contract for signing by Ana"),
        ("send the lease out for e-signature", "send the lease out for signing"),
        ("open a ticket for the outage", "create a ticket for the outage"),
        ("open up a new PR for it", "create a new PR for it"),
        ("open issues in acme/web", "open issues in acme/web"),
        ("open the attachment", "open the attachment"),
        ("mail it to Bo for his signature", "mail it to Bo for his signature"),
        ("blast out the newsletter", "send the newsletter"),
        ("fill in the form", "fill in the form"),
        ("write to Ana but don't send it yet", "write to Ana but save it as a draft"),
        ("leave it as a draft", "save it as a draft"),
        ("tee up an email to the board", "draft an email to the board"),
        # Lists, files, payments, machines, music.
        ("put them on there", "add them"),
        ("clear out the spam folder", "delete all the spam folder"),
        ("take down the landing page", "delete the landing page"),
        ("take the site down", "delete the site"),
        ("take down notes", "take down notes"),
        ("ditch the old draft", "delete the old draft"),
        ("sunset the old repo", "archive the old repo"),
        ("offboard Dana", "remove Dana"),
        ("scale up the droplet", "resize the droplet"),
        ("ring up a sale for 20 dollars", "create a payment for a sale for 20 dollars"),
        ("cash out my balance", "create a payout my balance"),
        ("chase the unpaid invoice", "send a reminder for the unpaid invoice"),
        ("throw on some jazz", "play some jazz"),
        ("throw on a jacket", "throw on a jacket"),
        ("look over my PR", "review my PR"),
        # Sixteenth round: taking someone off something removes them from it.
        ("take Omar off the invite list", "remove Omar from the invite list"),
        ("please take them off it", "please remove them from it"),
        ("take off the lid", "take off the lid"),
        ("take Friday off, block my calendar", "take Friday off, block my calendar"),
        # Seventeenth round: bowing out declines; bringing or getting something back
        # restores it (not "get back to me", "bring the team back together").
        ("could you bow out of the sync for me", "could you decline the sync for me"),
        (
            "is there any way to bring her account back?",
            "is there any way to restore her account ?",
        ),
        ("hopefully we can get it back", "hopefully we can restore it"),
        # Twenty-seventh round: read before "back out of" (which declined it).
        ("please get it back out of the trash", "please restore it out of the trash"),
        ("can you back out of the offsite", "can you decline the offsite"),
        ("get back to me by friday", "get back to me by friday"),
        ("bring the team back together", "bring the team back together"),
        ("who can see the roadmap right now", "who can see the roadmap now"),
        ("how many are on the site right this minute", "how many are on the site now"),
        ("could you log that as a bug in Linear", "could you create that as a bug in Linear"),
        ("log that in the sheet", "log that in the sheet"),
        ("get the site to go live again", "get the site to deploy again"),
        ("stick that message at the top of the space", "pin that message in the space"),
        (
            "put the dentist to-do at the top of my list",
            "put the dentist to-do at the top of my list",
        ),
        ("can you tuck that column out of sight", "can you archive that column"),
        ("it can go over to Done now", "it can move to Done now"),
        ("go to the settings page", "go to the settings page"),
        ("can you set it to go out Thursday", "can you schedule it Thursday"),
        ("have the newsletter go out at 9", "schedule the newsletter at 9"),
        ("the lights go out at night", "the lights go out at night"),
        ("how many bags do we have left", "how many bags are left in stock"),
        ("could you add a row for October", "could you add (append) a row for October"),
        ("Add a line for today: Sequoia", "add (append) a line for today: Sequoia"),
        ("add a label to the card", "add a label to the card"),
        ("move my sync with Ola to Friday 4pm", "reschedule my sync with Ola to Friday 4pm"),
        ("move the launch review to next week", "reschedule the launch review to next week"),
        ("move the invoice to the Paid folder", "move the invoice to the Paid folder"),
        # Chat's verbs of putting and taking away (twenty-fifth round).
        ("throw away that file i don't need", "delete that file i don't need"),
        ("toss out the old draft", "delete the old draft"),
        ("throw out the to-do about the printer", "delete the to-do about the printer"),
        ("drop the contractor from ticket 301", "remove the contractor from ticket 301"),
        ("drop a task into the Launch project", "add a task into the Launch project"),
        (
            "toss a card for the newsletter onto the board",
            "add a card for the newsletter onto the board",
        ),
        ("drop an update in the team channel", "drop an update in the team channel"),
        ("drop the database test_db", "drop the database test_db"),
        ("the ball got thrown out", "the ball got thrown out"),
        ("pull up the invoice for Acme", "show the invoice for Acme"),
        ("bring up her record in the CRM", "show her record in the CRM"),
        (
            "pull up suspenseful movies with Lisa in them",
            "find suspenseful movies with Lisa in them",
        ),
        ("dig up that email from Sam", "find that email from Sam"),
        ("take ana@acme.io off the design project", "remove ana@acme.io from the design project"),
        (
            "take the old laptop off the Planner board",
            "remove the old laptop from the Planner board",
        ),
        ("take the day off tomorrow", "take the day off tomorrow"),
    ],
)
def test_workplace_idioms_as_plain_verbs(text: str, plain: str) -> None:
    assert " ".join(idioms(text).split()) == plain


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("kick the nightly build off again", {"rerun_workflow"}),
        ("bump the priority of ENG-12 to urgent", {"update_issue"}),
        ("draft an email to Ana about the lease but don't send it yet", {"create_draft"}),
        ("block off some time on Friday afternoon for deep work", {"create_event"}),
        ("land PR #482 in acme/web", {"merge_pull_request"}),
        ("raise a ticket in Jira for the broken login", {"create_issue"}),
        ("sign off on the pull request for the docs", {"create_review"}),
        ("reach out to the vendor by email", {"send_message", "send_mail"}),
        ("fill Sam in on the outage over Slack", {"post_message"}),
        ("tee up an email to the board", {"create_draft"}),
        ("ring up a sale for 20 dollars in Square", {"create_payment"}),
        ("grab time with Kim next week", {"create_meeting", "create_event"}),
        ("call off tomorrow's standup", {"delete_event", "delete_meeting"}),
        ("take down the landing page in Mailchimp", {"delete_landing_page_id"}),
        ("scale up the droplet", {"run_droplet_action"}),
        ("fire off a build of the main branch", {"dispatch_workflow"}),
        ("clear out the spam in my inbox", {"trash_message"}),
        ("throw on some jazz", {"play"}),
        ("look over my PR for the parser", {"create_review"}),
        ("ditch the draft email to Ana", {"trash_message"}),
        ("cash out my Stripe balance", {"post_payouts"}),
        ("chase the unpaid invoice for Acme", {"send_invoice"}),
        ("push the fix to prod on vercel", {"create_deployment"}),
        ("push out the sync to Thursday", {"update_meeting", "update_event"}),
        ("push the site live on netlify", {"publish_deploy"}),
        ("kill the build for the main branch", {"actions_cancel_workflow_run"}),
        ("punt the review to next week", {"update_meeting", "update_event"}),
        ("offboard Dana from Google Workspace", {"delete_user"}),
        ("get the contract signed by Ana", {"create_envelope"}),
        # Box Sign does it too (its sign request sends a document for signature).
        ("send the NDA to our new hire for signature", {"create_envelope", "post_sign_requests"}),
        ("open a jira ticket for the broken checkout", {"create_issue"}),
        ("sunset the old repo", {"repos_update"}),
        ("blast out the newsletter to everyone", {"send_campaign"}),
        ("circle back with Sam about the invoice", {"send_message"}),
        # Not Google Calendar's move_event, which moves an event to another calendar.
        ("move my sync with Ola to Friday 4pm", {"update_event", "update_meeting"}),
        ("throw away the regional disk backup-disk-2 in europe-west4", {"region_disks_delete"}),
        ("drop the student who moved away from my chemistry class", {"courses_students_delete"}),
        ("pull up the Jira ticket OPS-212", {"get_issue"}),
        ("pull up the Trello card 'Venue contract'", {"get_card"}),
        ("bring up the GitHub issue acme/web#77", {"get_issue"}),
        ("tweak the title of release v2.1 on acme/parser", {"repos_update_release"}),
        (
            "toss a task for printing badges into the events plan in Planner",
            {"create_planner_task", "planner_plans_create_tasks", "planner_create_tasks"},
        ),
    ],
)
def test_an_idiom_finds_what_its_plain_verb_does(
    index: SearchIndex, text: str, names: set[str]
) -> None:
    assert index.rank(text, ("*",), None, 1)[0].endpoint.name in names
