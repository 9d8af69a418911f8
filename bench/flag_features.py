"""Features of the "nothing here does that" flag (issue 26) over the development set
(search_eval.yaml, every section; never the sealed set nor the blind set's held-out
half), one row per request, for bench/flag_fit.py:

    PYTHONPATH=src:. python bench/flag_features.py > /tmp/flag_features.jsonl

Each row: the section, whether the request is one nothing here does (`none`), and the
evidence of the top results: the parts of the best result's `match` (discovery/
confidence.py: the known-word share, the unknown object words, the name agreement),
whether the request names a product and the first hit is in it, whether the verb of
the request and of the first hit's name agree (create/list/get/update/delete), the
first stage's score of the first candidate beside the second's and per query term,
the semantic cosine of the request's asking clause and the first hit, and how many of
the request's words the catalog does not know.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import orjson
from tests.skillgate.discovery import quality

from skillgate.catalog.loader import load_catalog
from skillgate.discovery.confidence import (
    NAME_AGREES,
    NAME_PENALTY,
    STRONG_MATCH,
    Matcher,
    Wanted,
)
from skillgate.discovery.phrasing import phrased
from skillgate.discovery.search import SearchIndex
from skillgate.discovery.unknowns import Unknowns

# The action classes of a verb (of the request, or the first word of an endpoint's name).
CLASSES = {
    "create": "create make add new open write post send book start insert upload invite"
    " schedule put set submit tweet reply comment publish",
    "list": "list search find show query browse",
    "get": "get read retrieve fetch check view download export",
    "update": "update change edit modify rename move mark assign set patch replace"
    " reschedule close complete archive resolve",
    "delete": "delete remove erase wipe trash cancel stop revoke clear destroy",
}


def _classes(index: SearchIndex) -> dict[str, str]:
    out: dict[str, str] = {}
    for cls, words in CLASSES.items():
        for w in words.split():
            for t in index.analyzer.terms(w):
                out.setdefault(t, cls)
    return out


def parts(wanted: Wanted, document: frozenset[str], name: frozenset[str]) -> tuple[float, float]:
    """The known-word share of `document` (before the unknown words' factor and the name
    penalty; `name`: the terms of its endpoint's name), and the words' total weight."""
    got, total = Matcher.held(wanted[0], document, name)
    return (got / total if total else 0.0), total


def row(index: SearchIndex, verbs: dict[str, str], task: str) -> dict[str, Any]:
    hits = index.rank(task, ("*",), None, 10)
    text, q = index._analysed(task)
    if not hits:
        return {"hits": 0, "best": 0.0}
    matcher = index._matcher
    _, _, shares, asked, named = index.reading(task)
    wanted = matcher.wanted(text, q, named)
    # As SearchIndex.matches reads it: a named product's own name not counted for its results.
    inside = matcher.unbranded(wanted, asked) if named else wanted

    def of(h: Any) -> Wanted:  # what `h`'s match reads
        return inside if h.integration.slug in asked else wanted

    documents = index._documents
    assert documents is not None
    names = index._name_terms
    # Each result's word-share match, without what the product it is in adds.
    matches = [
        matcher.match(
            of(h),
            documents.terms(h.row),
            index._matching._agreements(q, [h.row], shares)[0],
            name=names[h.row],
        )
        for h in hits
    ]
    out: dict[str, Any] = {"hits": len(hits), "best": max(matches)}
    b = int(np.argmax(matches))
    share, total = parts(of(hits[b]), documents.terms(hits[b].row), names[hits[b].row])
    agree = index._matching._agreements(q, [hits[b].row], shares)[0]
    out.update(
        top=matches[0],
        best_rank=b,
        share=share,
        weight=total,
        words=len(wanted[0]),
        factor=wanted[1],
        empty=not wanted[0],
        name_share=agree,
        name_penalised=agree < NAME_AGREES and wanted[1] * share < STRONG_MATCH,
        second=sorted(matches)[-2] if len(matches) > 1 else 0.0,
    )
    # Each result's match without the name penalty: the share times the factor.
    raw = [
        wanted[1] * parts(of(h), documents.terms(h.row), names[h.row])[0] for h in hits
    ]  # fmt: skip
    out["best_raw"] = max(raw)
    out["name_penalty"] = NAME_PENALTY
    # Products named, and whether the first hit is in one.
    slugs = index._products.of(text)
    cues = set(index._cues.found(text, q.terms))
    out["named"] = bool(slugs)
    out["cued"] = bool(cues)
    out["top_in_named"] = hits[0].integration.slug in (slugs or cues)
    # The verb of the request (its first own term or the first term of its clause
    # that is a verb) and of the first hit's name.
    said = phrased(text, imperative=True).request or text
    first = [t for t in index.analyzer.terms(said) if t in verbs][:1]
    name = index._name_terms[hits[b].row]
    ename = index.analyzer.terms(hits[b].endpoint.name)
    evclass = verbs.get(ename[0]) if ename else None
    rvclass = verbs.get(first[0]) if first else None
    out["rverb"] = rvclass
    out["everb"] = evclass
    out["verb_agree"] = None if rvclass is None or evclass is None else float(rvclass == evclass)
    out["name_terms"] = len(name)
    # First stage scores (the ranking's, before the caller's scopes and the priors).
    scores = index.scores(task)
    if scores is not None:
        top2 = np.partition(scores, -2)[-2:]
        out["s1"] = float(top2[1])
        out["ratio12"] = float(top2[1] / top2[0]) if top2[0] > 0 else 10.0
        out["s1_per_term"] = float(top2[1]) / max(len(q.terms) + len(q.places), 1)
        out["s_hit"] = float(scores[hits[0].row])
    # The semantic cosine of the asking clause and the hits.
    sem = index.semantic
    if sem is not None:
        v = sem._model.vector(said)
        cos = sem.vectors[[h.row for h in hits]] @ v
        out["cos_top"] = float(cos[0])
        out["cos_best"] = float(cos[b])
        out["cos_max"] = float(cos.max())
        vt = sem._model.vector(text)
        out["cos_full_top"] = float(sem.vectors[hits[0].row] @ vt)
    # Words of the request the catalog does not know (after spelling correction).
    idf = matcher._idf
    table = matcher._table
    terms = index.analyzer.terms(said)
    out["n_terms"] = len(terms)
    out["unknown_terms"] = sum(t not in idf and t not in table for t in terms)
    out["unknown_object"] = len(matcher._unknowns._in_object(Unknowns.head(said)))
    # Per result: its match, whether it is in a product the request names or cues, its
    # cosine, its first-stage score per query term.
    products = slugs or cues
    per_term = max(len(q.terms) + len(q.places), 1)
    out["results"] = [
        {
            "match": m,
            "product": h.integration.slug in products,
            "named": h.integration.slug in slugs,
            "share": parts(of(h), documents.terms(h.row), names[h.row])[0],
            "agree": index._matching._agreements(q, [h.row], shares)[0],
            "id": f"{h.integration.slug}/{h.endpoint.name}",
            "cued": h.integration.slug in cues,
            "cos": float(c) if sem is not None else None,
            "s_term": float(scores[h.row]) / per_term if scores is not None else 0.0,
        }
        for h, m, c in zip(
            hits, matches, cos if sem is not None else [0.0] * len(hits), strict=True
        )
    ]
    out["top_slug"] = f"{hits[0].integration.slug}/{hits[0].endpoint.name}"
    out["best_slug"] = f"{hits[b].integration.slug}/{hits[b].endpoint.name}"
    return out


def main() -> None:
    index = SearchIndex(load_catalog())
    verbs = _classes(index)
    for section, tasks in quality.dev_set().items():
        for t in tasks:
            r = {"section": section, "task": t["task"], "none": t.get("kind") == "none"}
            r["kind"] = t.get("kind", "plain")
            r["good"] = [t["expect"], *t.get("also", [])] if "expect" in t else []
            r.update(row(index, verbs, t["task"]))
            sys.stdout.buffer.write(orjson.dumps(r) + b"\n")


if __name__ == "__main__":
    main()
