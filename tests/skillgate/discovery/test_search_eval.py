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
GOAL_TOP3 = 0.90


def _tasks() -> list[dict[str, Any]]:
    tasks: list[dict[str, Any]] = yaml.safe_load(EVAL.read_text(encoding="utf-8"))["tasks"]
    return tasks


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog()


def _rank(index: SearchIndex, task: str) -> list[str]:
    return [f"{h.integration.slug}/{h.endpoint.name}" for h in index.search(task, ("*",), limit=3)]


def test_the_set_is_sound(shipped: Catalog) -> None:
    """At least 100 tasks, every integration covered, every expected endpoint real."""
    tasks = _tasks()
    assert len(tasks) >= 100
    known = {f"{s}/{e.name}" for s, i in shipped.integrations.items() for e in i.endpoints}
    for t in tasks:
        assert set(t) <= {"task", "expect", "also"}, t
        for answer in [t["expect"], *t.get("also", [])]:
            assert answer in known, (t["task"], answer)
    assert {t["expect"].split("/")[0] for t in tasks} == set(shipped.integrations)
    assert len({t["task"] for t in tasks}) == len(tasks)  # no task twice


def test_hit_rates(shipped: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    index = SearchIndex(shipped)
    tasks = _tasks()
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
    n = len(tasks)
    with capsys.disabled():
        print(f"\nsearch eval: {n} tasks, top-1 {top1 / n:.3f}, top-3 {top3 / n:.3f}")
        print("misses (top 3):\n" + "\n".join(misses))
    assert top3 / n >= GOAL_TOP3, f"top-3 {top3}/{n}"
