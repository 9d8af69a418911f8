"""Search quality measured per kind of request (issue 26): top-1/3/10 hit rates, and for
requests nothing in the catalog does (`kind: none`), the share the answer flags as no
match, beside the share of answerable requests wrongly flagged.

Used by test_search_quality.py (development set, public BFCL pool, sealed aggregates) and
bench/search_dev.py. Every section of the development set (search_eval.yaml) is measured,
in file order; a new section needs no change here unless its requests carry no `kind`.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

# A ranker: (request) -> (ranked answer ids, best first; whether the answer says nothing fits).
Ranker = Callable[[str], tuple[list[str], bool]]
DEPTHS = (1, 3, 10)
HERE = Path(__file__).parent
EVAL = HERE / "search_eval.yaml"
# The sealed set, and each blind writer's held-out set as (file, key, title), in the order
# they were written: never used to choose a change (test_search_sealed.py pins each file).
SEALED = HERE / "search_sealed.yaml"
HELD_SETS = [
    (HERE / "search_blind_held.yaml", "blind_held", "blind held-out set"),
    (HERE / "search_blind3_held.yaml", "blind3_held", "third blind set, held out"),
    (HERE / "search_blind4_held.yaml", "blind4_held", "fourth blind set's held-out half"),
    (HERE / "search_blind5_held.yaml", "blind5_held", "fifth blind set's held-out half"),
    (HERE / "search_blind6_held.yaml", "blind6_held", "sixth blind set's held-out half"),
    (HERE / "search_blind7_held.yaml", "blind7_held", "seventh blind set's held-out half (chatty)"),
    (HERE / "search_blind8_held.yaml", "blind8_held", "eighth blind set's held-out half"),
    (HERE / "search_blind9_held.yaml", "blind9_held", "ninth blind set's held-out half"),
    (HERE / "search_blind10_held.yaml", "blind10_held", "tenth blind set's held-out half"),
    (HERE / "search_common_calls_held.yaml", "common_calls_held", "common calls' held-out half"),
    (HERE / "search_blind11_held.yaml", "blind11_held", "eleventh blind set's held-out half"),
    (HERE / "search_blind12_held.yaml", "blind12_held", "twelfth blind set's held-out half"),
    (HERE / "search_blind13_held.yaml", "blind13_held", "thirteenth blind set's held-out half"),
    (HERE / "search_blind14_held.yaml", "blind14_held", "fourteenth blind set's held-out half"),
    (HERE / "search_blind15_held.yaml", "blind15_held", "fifteenth blind set's held-out half"),
    (HERE / "search_blind16_held.yaml", "blind16_held", "sixteenth blind set's held-out half"),
    (HERE / "search_blind17_held.yaml", "blind17_held", "seventeenth blind set's held-out half"),
    (HERE / "search_blind18_held.yaml", "blind18_held", "eighteenth blind set's held-out half"),
    (HERE / "search_blind19_held.yaml", "blind19_held", "nineteenth blind set's held-out half"),
]
# Catalog-wide requests in users' words, five per endpoint in these styles: for every
# curated endpoint, and (the second to seventh passes) for the most asked of the others.
PHRASINGS = HERE / "search_phrasings.yaml"
PHRASINGS_SECOND = HERE / "search_phrasings_second.yaml"
PHRASINGS_THIRD = HERE / "search_phrasings_third.yaml"
PHRASINGS_FOURTH = HERE / "search_phrasings_fourth.yaml"
PHRASINGS_FIFTH = HERE / "search_phrasings_fifth.yaml"
PHRASINGS_SIXTH = HERE / "search_phrasings_sixth.yaml"
PHRASINGS_SEVENTH = HERE / "search_phrasings_seventh.yaml"
STYLES = ("terse", "question", "chatty", "idiom", "unnamed")
# The kind of a section's requests that carry none (the others are `plain`).
SECTION_KINDS = {
    "unnamed": "unnamed",
    "chatty_fresh": "chatty",
    "chatty_wide": "chatty",
    "none_wide": "none",
    "chatty_wide2": "chatty",
}


@cache
def _former() -> dict[str, str]:
    """`slug/former name` -> `slug/name` for every call renamed (`Endpoint.aliases`)."""
    from skillgate.catalog.loader import load_catalog

    return {
        f"{slug}/{alias}": f"{slug}/{e.name}"
        for slug, integration in load_catalog().integrations.items()
        for e in integration.endpoints
        for alias in e.aliases
    }


def current(answer: str) -> str:
    """An answer by the call's name today: a pinned set names calls as they were called
    when it was written (a name since said shorter is the call's alias)."""
    return _former().get(answer, answer)


@dataclass
class Rates:
    """Per kind: how many requests, hits at each depth, and how many the answer flagged."""

    count: int = 0
    hits: dict[int, int] = field(default_factory=lambda: dict.fromkeys(DEPTHS, 0))
    flagged: int = 0
    misses: list[str] = field(default_factory=list)

    def rate(self, depth: int) -> float:
        return self.hits[depth] / self.count if self.count else 0.0

    @property
    def flag_rate(self) -> float:
        return self.flagged / self.count if self.count else 0.0


def measure(rank: Ranker, tasks: Iterable[dict[str, Any]], default_kind: str) -> dict[str, Rates]:
    """Each task through `rank`, grouped by its `kind` (`default_kind` when it has none)."""
    out: dict[str, Rates] = {}
    for t in tasks:
        kind = t.get("kind", default_kind)
        r = out.setdefault(kind, Rates())
        ranked, flagged = rank(t["task"])
        r.count += 1
        r.flagged += flagged
        if kind == "none":
            continue
        good = {current(x) for x in (t["expect"], *t.get("also", []))}
        for depth in DEPTHS:
            r.hits[depth] += any(x in good for x in ranked[:depth])
        if not any(x in good for x in ranked[:3]):
            r.misses.append(f"  [{kind}] {t['task']!r}: want {t['expect']}, got {ranked[:3]}")
    return out


def total(groups: Sequence[Rates]) -> Rates:
    """The groups summed (their misses left out)."""
    out = Rates()
    for g in groups:
        out.count += g.count
        out.flagged += g.flagged
        for depth in DEPTHS:
            out.hits[depth] += g.hits[depth]
    return out


def table(title: str, by_kind: dict[str, Rates]) -> str:
    """The figures as printed: per kind top-1/3/10 (answerable) or flagged (none), then
    the answerable requests together and the share of them wrongly flagged."""
    lines = [f"{title}:"]
    answerable = [r for k, r in by_kind.items() if k != "none"]
    for kind, r in sorted(by_kind.items()):
        if kind == "none":
            lines.append(f"  {kind:<11} n={r.count:<4} flagged as no match {r.flag_rate:.3f}")
        else:
            lines.append(
                f"  {kind:<11} n={r.count:<4} top-1 {r.rate(1):.3f}  top-3 {r.rate(3):.3f}"
                f"  top-10 {r.rate(10):.3f}"
            )
    if answerable:
        a = total(answerable)
        lines.append(
            f"  {'answerable':<11} n={a.count:<4} top-1 {a.rate(1):.3f}  top-3 {a.rate(3):.3f}"
            f"  top-10 {a.rate(10):.3f}  wrongly flagged {a.flag_rate:.3f}"
        )
    return "\n".join(lines)


def new_query_p50(answer: Callable[[str], object], queries: Sequence[str]) -> float:
    """The median time of `answer` (a ranking and its matches) over `queries`, in ms."""
    times: list[float] = []
    for q in queries:
        start = time.perf_counter()
        answer(q)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def dev_set() -> dict[str, list[dict[str, Any]]]:
    """The development set's sections, in file order."""
    loaded: dict[str, list[dict[str, Any]]] = yaml.safe_load(EVAL.read_text(encoding="utf-8"))
    return loaded


def ranker(index: Any) -> Ranker:
    """`index` (a SearchIndex) as a Ranker over the whole catalog, top 10."""
    from skillgate.discovery.confidence import fits

    def rank(task: str) -> tuple[list[str], bool]:
        hits = index.rank(task, ("*",), None, 10)
        flagged = not fits(index.matches(task, hits))
        return [f"{h.integration.slug}/{h.endpoint.name}" for h in hits], flagged

    return rank


def dev_figures(index: Any) -> dict[str, dict[str, Rates]]:
    """Every development section measured, per kind."""
    rank = ranker(index)
    return {
        section: measure(rank, tasks, SECTION_KINDS.get(section, "plain"))
        for section, tasks in dev_set().items()
    }


def phrasings(path: Path = PHRASINGS) -> list[dict[str, Any]]:
    """A phrasings file (search_phrasings.yaml, or a later pass's) as tasks: each
    request, the endpoint it was written for, and its style as its kind."""
    loaded: dict[str, dict[str, list[str]]] = yaml.safe_load(path.read_text("utf-8"))
    return [
        {"task": text, "expect": f"{slug}/{name}", "kind": style}
        for slug, endpoints in loaded.items()
        for name, texts in endpoints.items()
        for style, text in zip(STYLES, texts, strict=True)
    ]


def phrasing_figures(index: Any, path: Path = PHRASINGS) -> dict[str, Rates]:
    """The catalog-wide requests of `path` measured, per style (no request is `none`)."""
    return measure(ranker(index), phrasings(path), "plain")


def best_match(index: Any, text: str) -> float:
    """The best `match` among `text`'s top 10 in `index` (a SearchIndex), the whole
    catalog searched: under `MATCH_FLOOR`, the answer says nothing fits."""
    return float(max(index.matches(text, index.rank(text, ("*",), None, 10))))


def first(index: Any, text: str) -> str:
    """The call `text` ranks first in `index` (a SearchIndex), the whole catalog searched,
    as `slug/name`."""
    hit = index.rank(text, ("*",), None, 10)[0]
    return f"{hit.integration.slug}/{hit.endpoint.name}"
