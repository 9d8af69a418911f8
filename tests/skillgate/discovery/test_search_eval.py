"""The search evaluation set (search_eval.yaml) through the real index over the shipped
catalog: prints the top-1 and top-3 hit rates, and holds top-3 to the goal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.discovery.search import SearchIndex

EVAL = Path(__file__).parent / "search_eval.yaml"
# The goal (issue 13) is top-3 >= 0.90 on `tasks`. Over the 2,571-endpoint catalog the set
# measures top-3 0.906, top-1 0.681 (254 tasks; held out 0.750 / 0.550 of 80): the
# assertions are regression floors at the measured levels rounded down; the goal is
# printed. (Before a request's content counted less: 0.909 / 0.661. Before the product
# cues, "share" as permissions and the contact labels: 0.886 / 0.642, held out 0.750 /
# 0.512; before the name share, the named-integration boost and the vocabulary of
# docs/catalog.md "Search": 0.783 / 0.531, held out 0.700 / 0.438.)
# Issue 25.3 tripled the catalog (43 integrations, 8,331 endpoints): the same ranking
# code measures top-3 0.870, top-1 0.63 (284 tasks; held out 0.787 / 0.575). Most new
# misses name no product where a new one also does the job ("cancel the standup":
# Outlook's and Zoom's beside Google Calendar's), the rest are new near-namesakes
# (Graph's Excel functions, Spotify's skip_to_next). The floor follows the measured level
# over the shipped catalog (rounded down); the goal stays printed, NOT reached (issue 26).
# Issue 26's second round (the phrasing of a request, calls taking a time): top-3 0.874,
# top-1 0.656 on 285 tasks (one moved in from the no-endpoint requests); held out
# unchanged. The floor follows (0.87).
# Issue 26's third round (47 integrations, 9,616 endpoints; questions and named items
# asking to read): top-3 0.891, top-1 0.666 on 293 tasks; held out 0.800 / 0.588. The
# floors follow, below the measured levels (0.88, 0.78).
# Issue 26's seventh round (a request's kind, reading or changing: discovery/kinds.py):
# top-3 0.911, top-1 0.730; held out 0.825 / 0.600. The floors follow (0.90, 0.80).
# Issue 26's seventh round, recall (overlay descriptions in users' words, a meeting's
# kinds, reminders' text as content, "check off"): top-3 0.952 -> 0.959, held out 0.875
# -> 0.887. The floors follow (0.94, 0.85).
GOAL_TOP3 = 0.90
TOP3_FLOOR = 0.94
HELD_OUT_FLOOR = 0.85


def _tasks(section: str = "tasks") -> list[dict[str, Any]]:
    tasks: list[dict[str, Any]] = yaml.safe_load(EVAL.read_text(encoding="utf-8"))[section]
    return tasks


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog()


def _rank(index: SearchIndex, task: str) -> list[str]:
    return [f"{h.integration.slug}/{h.endpoint.name}" for h in index.search(task, ("*",), limit=3)]


def test_the_set_is_sound(shipped: Catalog) -> None:
    """At least 100 tasks, every integration covered, every expected endpoint real."""
    tasks = _tasks()
    held_out = _tasks("held_out")
    assert len(tasks) >= 100
    assert len(held_out) >= 30
    known = {f"{s}/{e.name}" for s, i in shipped.integrations.items() for e in i.endpoints}
    for t in tasks + held_out:
        assert set(t) <= {"task", "expect", "also"}, t
        for answer in [t["expect"], *t.get("also", [])]:
            assert answer in known, (t["task"], answer)
    assert {t["expect"].split("/")[0] for t in tasks} == set(shipped.integrations)
    everything = [t["task"] for t in tasks + held_out]
    assert len(set(everything)) == len(everything)  # no task twice


def _rates(index: SearchIndex, tasks: list[dict[str, Any]]) -> tuple[float, float, list[str]]:
    """(top-1 rate, top-3 rate, the top-3 misses)."""
    top1 = top3 = 0
    misses: list[str] = []
    for t in tasks:
        good = {t["expect"], *t.get("also", [])}
        ranked = _rank(index, t["task"])
        top1 += bool(ranked) and ranked[0] in good
        hit = any(r in good for r in ranked)
        top3 += hit
        if not hit:
            misses.append(f"  {t['task']!r}: want {t['expect']}, got {ranked}")
    return top1 / len(tasks), top3 / len(tasks), misses


def test_hit_rates(shipped: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    index = SearchIndex(shipped)
    tasks, held_out = _tasks(), _tasks("held_out")
    top1, top3, misses = _rates(index, tasks)
    held1, held3, held_misses = _rates(index, held_out)
    with capsys.disabled():
        reached = "reached" if top3 >= GOAL_TOP3 else "NOT reached"
        print(f"\nsearch eval: {len(tasks)} tasks, top-1 {top1:.3f}, top-3 {top3:.3f}")
        print(f"goal top-3 >= {GOAL_TOP3:.2f}: {reached}; asserted floor {TOP3_FLOOR:.2f}")
        print("misses (top 3):\n" + "\n".join(misses))
        print(f"held out: {len(held_out)} tasks, top-1 {held1:.3f}, top-3 {held3:.3f}")
        print("misses (top 3):\n" + "\n".join(held_misses))
    assert top3 >= TOP3_FLOOR, f"top-3 {top3:.3f}"
    assert held3 >= HELD_OUT_FLOOR, f"held-out top-3 {held3:.3f}"


# The `common` section (issue 26's seventh round): everyday requests for the most used
# endpoints, written before any change of the round. Measured on main before it: top-1
# 0.740, top-3 0.893 (150 requests); after the overlays' descriptions said what 60 of
# those endpoints do in the words users say (and one idiom), 0.927 / 0.967, held to
# COMMON_FLOORS. The seventh round's recall changes: top-3 0.967 -> 0.973 (floor 0.96).
COMMON_FLOORS = {1: 0.88, 3: 0.96}


def _section(
    shipped: Catalog,
    name: str,
    kinds: set[str],
    capsys: pytest.CaptureFixture[str],
    least: int = 100,
) -> tuple[float, float]:
    """A section's (top-1, top-3), its labels checked against the catalog; prints them
    and its misses."""
    tasks = _tasks(name)
    known = {f"{s}/{e.name}" for s, i in shipped.integrations.items() for e in i.endpoints}
    assert len(tasks) >= least
    for t in tasks:
        assert t["kind"] in kinds, t
        for answer in [t["expect"], *t.get("also", [])]:
            assert answer in known, (t["task"], answer)
    top1, top3, misses = _rates(SearchIndex(shipped), tasks)
    with capsys.disabled():
        print(f"\n{name} requests: {len(tasks)}, top-1 {top1:.3f}, top-3 {top3:.3f}")
        print("misses (top 3):\n" + "\n".join(misses))
    return top1, top3


def test_common_requests(shipped: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    assert len(_tasks("common")) >= 120
    kinds = {"plain", "chatty", "misspelled", "reference"}
    top1, top3 = _section(shipped, "common", kinds, capsys)
    assert top1 >= COMMON_FLOORS[1], f"common top-1 {top1:.3f}"
    assert top3 >= COMMON_FLOORS[3], f"common top-3 {top3:.3f}"


# The `reference_wide` section (issue 26's seventh round, references): requests carrying
# ids, keys, links, SIDs and addresses of many shapes over the catalog, written and
# labelled before measuring. Measured on integ before the round's reference changes:
# top-1 0.690, top-3 0.789 (142 requests); after them 0.739 / 0.887, held to
# REFERENCE_FLOORS. The seventh round's recall changes: 0.761 / 0.915 (floors 0.72, 0.89).
REFERENCE_FLOORS = {1: 0.72, 3: 0.89}


def test_reference_requests(shipped: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    top1, top3 = _section(shipped, "reference_wide", {"reference"}, capsys)
    assert top1 >= REFERENCE_FLOORS[1], f"reference_wide top-1 {top1:.3f}"
    assert top3 >= REFERENCE_FLOORS[3], f"reference_wide top-3 {top3:.3f}"


# The `misspelled_wide` section (issue 26's seventh round, spelling): 60 misspelled
# requests over many integrations (phone typos, swaps, product names misspelled, words
# split or joined), written and labelled before measuring. Measured on integ before the
# round's spelling changes: top-1 0.833, top-3 0.933; after them 0.850 / 0.933, held to
# MISSPELLED_FLOORS.
MISSPELLED_FLOORS = {1: 0.82, 3: 0.91}


def test_misspelled_requests(shipped: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    top1, top3 = _section(shipped, "misspelled_wide", {"misspelled"}, capsys, least=60)
    assert top1 >= MISSPELLED_FLOORS[1], f"misspelled_wide top-1 {top1:.3f}"
    assert top3 >= MISSPELLED_FLOORS[3], f"misspelled_wide top-3 {top3:.3f}"
