"""The second look at a ranking's first places (docs/catalog.md, "Search").

A call that deletes (an endpoint `destructive` whose method is DELETE or whose name says
it deletes, trashes, removes, cancels...) is never first for a request that does not
ask for it: "thread 18a1... in gmail" is not `trash_thread`, "pi_3P... details" not
`cancel_payment_intent`, "upload a file to box" not `delete_file`. A request asks for
it when its terms (own or related) hold a word of deleting or ending (`DELETING`,
`ENDING`: "erase" stands for delete, "stop sharing" ends a permission) or a word of
that endpoint's name which no call among the candidates that does not delete holds
("unstar the repo": `unstar`; not "permission" in "share the file", which
`list_permissions` holds too). Otherwise the best call that does not delete comes first, the others
keep their order.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from skillgate.catalog import destructive
from skillgate.discovery.analysis import Analyzer

if TYPE_CHECKING:
    from skillgate.discovery.hit import Hit

# The words of a name that say the call deletes something.
DELETING = frozenset(
    ["delete", "destroy", "purge", "trash", "empty", "erase", "wipe", "remove", "revoke",
     "cancel", "void", "clear", "unsubscribe", "detach", "uninstall", "leave"]
)  # fmt: skip
# What else a request says when it asks to end or undo something ("stop sharing the file").
ENDING = frozenset(["stop", "kill", "drop", "discard", "unshare", "disable", "deactivate"])


class Reorder:
    def __init__(self, analyzer: Analyzer, hits: Sequence[Hit], names: list[list[str]]) -> None:
        """Per hit, whether it deletes, and its name's terms (`names`, in hit order)."""
        self._deletes = [
            bool(h.endpoint.destructive)
            and (h.endpoint.method == "DELETE" or not DELETING.isdisjoint(_words(h)))
            for h in hits
        ]
        self._names = [frozenset(terms) for terms in names]
        self._asks = frozenset(t for w in DELETING | ENDING for t in analyzer.terms(w))

    def first(self, ranked: list[Hit], terms: Collection[str]) -> list[Hit]:
        """`ranked` with a deleting first hit moved after the best one that does not
        delete, unless the request (its `terms`, own and related) asks for it."""
        if not ranked or not self._deletes[ranked[0].row]:
            return ranked
        if not self._asks.isdisjoint(terms):
            return ranked
        keeping = [i for i, h in enumerate(ranked) if not self._deletes[h.row]]
        if not keeping:
            return ranked
        # The deleting call's own words: in its name and in no call here that does not
        # delete ("unstar"; not "permission", which `list_permissions` holds too).
        own = self._names[ranked[0].row].difference(*(self._names[ranked[i].row] for i in keeping))
        if not own.isdisjoint(terms):
            return ranked
        i = keeping[0]
        return [ranked[i], *ranked[:i], *ranked[i + 1 :]]


def _words(h: Hit) -> set[str]:
    return destructive.words(h.endpoint.name) | destructive.words(h.endpoint.operation or "")
