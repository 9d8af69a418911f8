"""Chat's verbs of putting, moving, taking away and changing, as the plain verbs they stand
for: a part of discovery/idioms.py's table, read in its order where they stand there ("toss
them in the trash", "throw away that file", "drop Sam from the ticket", "drop a task into the
project", "hand the review over to Mei", "slide the card over to Done", "make that switch").
General English, not any API's words (docs/search-tables.md, rounds 11, 25 and 26).
"""

from __future__ import annotations

# (pattern, plain verb), as the idioms' table holds them.
PUTTING: tuple[tuple[str, str], ...] = (
    # "toss them in the trash", "chuck the receipts in the bin": trash them.
    (
        r"\b(?:toss|throw|chuck|dump|bin)\s+((?:\S+\s+){0,4}?)(?:in|into|to)\s+(?:the\s+)?"
        r"(?:trash|bin|garbage|rubbish)\b",
        r"trash \1",
    ),
    # "throw away that file", "toss out the old draft": delete it.
    (r"\b(?:throw|toss|chuck)\s+(?:away|out)\b", "delete"),
    (r"\b(?:throw|toss|chuck)\s+((?:\S+\s+){1,4}?)(?:away|out)\b", r"delete \1"),
    # "drop the contractor from ticket 301": remove them from it.
    (r"\bdrop\s+((?:\S+\s+){1,5}?)(?=from\b)", r"remove \1"),
    # "drop a task into the project", "throw a new card onto my plan", "toss a
    # task into the events plan": add a new one there.
    (
        r"\b(?:drop|throw|toss)\s+(?=(?:a|an|another|new)\s+(?!(?:quick\s+)?(?:update|note|line"
        r"|message|msg|word|comment|reply)\b)(?:\S+\s+){0,5}?(?:in|into|on|onto|to)\b)",
        "add ",
    ),
    # "hand the review over to Mei": assign it to her; "slide the card over to Done":
    # move it there.
    (r"\b(?:hand|pass)\s+((?:\S+\s+){1,5}?)over\s+to\b", r"assign \1to"),
    (
        r"\b(?:slide|drag|shift|scoot)\s+((?:\S+\s+){1,5}?)over\s+(?:to|into)\b",
        r"move \1to",
    ),
    # "can you make that switch?", "make the change on the invoice": change it (nothing
    # is made).
    (
        r"\bmake\s+(?:that|the|this|those|these|a|an|one|some|any)\s+(?:small\s+|quick\s+)?"
        r"(change|changes|switch|swap|update|edit|edits|fix|correction)\b",
        r"\1",
    ),
    # "make it quieter", "make the title shorter": set it so (nothing is made).
    (
        r"\bmake\s+((?:it|that|this|them|(?:the|my|our)\s+\w+)\s+(?:a\s+lot\s+|much\s+|a\s+bit\s+)?"
        r"(?:quieter|louder|bigger|smaller|larger|shorter|longer|higher|lower|faster|slower"
        r"|brighter|darker|wider|narrower))\b",
        r"set \1",
    ),
)
