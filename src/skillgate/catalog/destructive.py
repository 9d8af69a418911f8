"""Which endpoints are destructive: deletes, irreversible sends, merges, transfers.

An endpoint's `destructive` is what its catalog file says (an overlay may set it
either way); when the file says nothing it is derived here: never for a GET or HEAD;
always for a DELETE; otherwise when a word of its name or of the provider's
operation id is one of `VERBS` (`gmail/send_message`, GitHub's `pulls/merge`,
Slack's `chat.delete` as POST, Stripe's `PostRefunds`). The per-key confirmation
policy (executor.confirmations) asks for a token before such a call.
"""

from __future__ import annotations

import re

VERBS = frozenset(
    {
        "delete",
        "destroy",
        "purge",
        "trash",
        "empty",
        "erase",
        "wipe",
        "send",
        "merge",
        "transfer",
        "revoke",
        "cancel",
        "refund",
        "void",
        "payout",
    }
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def words(text: str) -> set[str]:
    """Lower-case words of a snake_case, camelCase, dotted or slashed identifier,
    each also without a plural `s` (`refunds` -> `refund`)."""
    found = {w.lower() for w in _WORD.findall(text)}
    return found | {w[:-1] for w in found if w.endswith("s") and len(w) > 3}


def derive(method: str, name: str, operation: str | None) -> bool:
    if method in ("GET", "HEAD"):
        return False
    if method == "DELETE":
        return True
    return not VERBS.isdisjoint(words(name) | words(operation or ""))
