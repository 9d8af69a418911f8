"""A leave-one-section-out check of the no-match flag's fitted constants (issue 26, the
flag's seventh round) over the development set (search_eval.yaml, every section; never
the sealed set nor the blind set's held-out half):

    PYTHONPATH=src:. python bench/flag_loso.py

`DESCRIBED_SHARE` (discovery/confidence.py) and `MATCH_FLOOR` are chosen on every section
but one, for each in turn: the pair that flags the most no-endpoint requests there while
wrongly flagging no more of their answerable ones than the rule before this round (a
related word's share 0.8 wherever the document holds it, the floor 0.32); ties go to the
values closest to that rule. The held section is then flagged with the chosen pair.
Unlike bench/flag_fit.py (features dumped once), each value is measured by the search
itself (`SearchIndex.matches`), so a change to the match is read as shipped.
"""

from __future__ import annotations

import numpy as np
from tests.skillgate.discovery import quality

from skillgate.catalog.loader import load_catalog
from skillgate.discovery import confidence
from skillgate.discovery.search import SearchIndex

SHARES = (0.8, 0.7, 0.6, 0.5, 0.4, 0.2, 0.0)
FLOORS = (0.28, 0.30, 0.31, 0.32, 0.33, 0.34, 0.36)
BEFORE = (0.8, 0.32)  # the share and the floor before this round


def best_matches(index: SearchIndex, tasks: list[str], share: float) -> np.ndarray:
    """Each request's best `match` with `DESCRIBED_SHARE` set to `share`."""
    kept = confidence.DESCRIBED_SHARE
    confidence.DESCRIBED_SHARE = share
    try:
        out = []
        for task in tasks:
            hits = index.rank(task, ("*",), None, 10)
            out.append(max(index.matches(task, hits), default=0.0))
        return np.array(out)
    finally:
        confidence.DESCRIBED_SHARE = kept


def choose(best: dict[float, np.ndarray], none: np.ndarray, fit: np.ndarray) -> tuple[float, float]:
    """The (share, floor) that flags the most of `fit`'s no-endpoint requests within the
    rule before's wrong-flag rate there."""
    budget = (best[BEFORE[0]][fit & ~none] < BEFORE[1]).mean()
    chosen: tuple[tuple[float, ...], float, float] | None = None
    for share in SHARES:
        for floor in FLOORS:
            flagged = best[share][fit] < floor
            wrong = float(flagged[~none[fit]].mean())
            key = (
                float(flagged[none[fit]].mean()),
                -wrong,
                -abs(share - BEFORE[0]),
                -abs(floor - BEFORE[1]),
            )
            if wrong <= budget + 1e-9 and (chosen is None or key > chosen[0]):
                chosen = (key, share, floor)
    assert chosen is not None  # the rule before is always within its own budget
    return chosen[1], chosen[2]


def rate(flags: np.ndarray) -> str:
    return f"{flags.mean():.3f} of {len(flags)}" if len(flags) else "-"


def main() -> None:
    index = SearchIndex(load_catalog())
    items = [
        (s, t["task"], t.get("kind") == "none") for s, ts in quality.dev_set().items() for t in ts
    ]
    tasks = [task for _, task, _ in items]
    none = np.array([n for _, _, n in items])
    sections = np.array([s for s, _, _ in items])
    best = {share: best_matches(index, tasks, share) for share in SHARES}
    held = np.zeros(len(items), dtype=bool)
    for section in dict.fromkeys(sections):
        out = sections == section
        share, floor = choose(best, none, ~out)
        held[out] = best[share][out] < floor
        print(
            f"held out {section:<13} chose {share:.1f} / {floor:.2f}: no-endpoint flagged "
            f"{rate(held[out & none])}, answerable wrongly flagged {rate(held[out & ~none])}"
        )
    print(
        f"held out, all sections: no-endpoint flagged {rate(held[none])}, answerable "
        f"wrongly flagged {rate(held[~none])}"
    )
    shipped = best[confidence.DESCRIBED_SHARE] < confidence.MATCH_FLOOR
    print(
        f"shipped ({confidence.DESCRIBED_SHARE} / {confidence.MATCH_FLOOR}): no-endpoint "
        f"flagged {rate(shipped[none])}, answerable wrongly flagged {rate(shipped[~none])}"
    )


if __name__ == "__main__":
    main()
