"""Fits and cross-validates the "nothing here does that" decision (issue 26) on the
development set's features (bench/flag_features.py; never the sealed set):

    PYTHONPATH=src:. python bench/flag_features.py > /tmp/flag_features.jsonl
    PYTHONPATH=src:. python bench/flag_fit.py /tmp/flag_features.jsonl [--target 0.03]

Each decision scores every result of a request and flags the request when its best
result scores under a cut; the cut is set on the fitted sections so that at most
`--target` of their answerable requests are flagged. Decisions:

- `current`: the rule before this fit (a best match under 0.3, no fit);
- `shipped`: discovery/confidence.py's constants (no fit: its cross-validated figures
  are those of `bonus`, the procedure that chose them);
- `floor`: the word-share `match` alone, its floor fitted (a threshold sweep);
- `logistic <features>`: a logistic model of whether a result does what the request
  asks (numpy, Newton's method, a small L2 penalty), fitted on the results that are a
  request's expected endpoint (yes) and every result of a no-endpoint request (no);
- `bonus`: `match` plus a share for a result in the product the request names or cues
  (one share for both, or one for a product named and one for a product implied), the
  shares and the floor fitted on a grid.

Cross-validation holds out one section of search_eval.yaml at a time (fit and cut on
the others, measured on the held one); printed per section, then all together, then
the same in-sample (fitted on all sections) with the fitted constants.
"""

from __future__ import annotations

import argparse
import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import orjson

from skillgate.discovery.confidence import CUED_SHARE, MATCH_FLOOR, PRODUCT_SHARE

TARGET = 0.03  # the share of the fitted sections' answerable requests the cut may flag
L2 = 1.0  # the penalty on each standardised coefficient (not the intercept)
DEPTH = 10  # the results scored per request
MISSING = -1e9  # the score of a result that is not there

Row = dict[str, Any]
# One result's feature: (the request's row, the result's entry) -> a number.
Feature = Callable[[Row, Row], float]

FEATURES: dict[str, Feature] = {
    "match": lambda r, x: x["match"],
    "share": lambda r, x: x["share"],
    # The request's words the catalog does not know in the object place (confidence.py).
    "unknown": lambda r, x: 3.0 if r.get("empty") else -math.log2(max(r.get("factor", 1.0), 1e-3)),
    "agree": lambda r, x: min(max(x["agree"], 0.0), 1.0),
    "product": lambda r, x: float(x["product"]),
    "named": lambda r, x: float(x["named"]),
    # In a product the request's words imply, naming none.
    "cued": lambda r, x: float(x["product"] and not x["named"]),
    "cos": lambda r, x: x["cos"] or 0.0,
}  # fmt: skip


def arrays(rows: list[Row], names: Sequence[str]) -> np.ndarray:
    """requests x results x features (missing results: zeros, masked by `present`)."""
    out = np.zeros((len(rows), DEPTH, len(names)))
    for i, r in enumerate(rows):
        for j, x in enumerate(r.get("results", [])[:DEPTH]):
            out[i, j] = [FEATURES[n](r, x) for n in names]
    return out


def present(rows: list[Row]) -> np.ndarray:
    out = np.zeros((len(rows), DEPTH), dtype=bool)
    for i, r in enumerate(rows):
        out[i, : len(r.get("results", []))] = True
    return out


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression's weights (intercept first), Newton's method, L2 on the rest."""
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1])
    penalty = np.full(a.shape[1], L2)
    penalty[0] = 0.0
    for _ in range(100):
        p = 1 / (1 + np.exp(-a @ w))
        grad = a.T @ (p - y) + penalty * w
        hess = (a.T * (p * (1 - p))) @ a + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def cut_for(best: np.ndarray, none: np.ndarray, target: float) -> float:
    """The highest cut that flags (best < cut) at most `target` of the answerable."""
    answerable = np.sort(best[~none])
    allowed = int(target * len(answerable))
    return float(answerable[allowed])  # flagged: best < cut; this one is not


class Decision:
    """Fitted on some requests; flags others."""

    def __init__(self, rows: list[Row], target: float) -> None:
        self.target = target
        none = np.array([r["none"] for r in rows])
        self.cut = cut_for(self.best(rows), none, target)

    def scores(self, rows: list[Row]) -> np.ndarray:
        raise NotImplementedError

    def best(self, rows: list[Row]) -> np.ndarray:
        s = np.where(present(rows), self.scores(rows), MISSING)
        out: np.ndarray = s.max(axis=1)
        return out

    def flags(self, rows: list[Row]) -> np.ndarray:
        out: np.ndarray = self.best(rows) < self.cut
        return out

    def constants(self) -> str:
        return f"cut {self.cut:.4f}"


class Current(Decision):
    def __init__(self, rows: list[Row], target: float) -> None:
        self.cut = 0.3  # confidence.MATCH_FLOOR as shipped before this fit

    def scores(self, rows: list[Row]) -> np.ndarray:
        return arrays(rows, ["match"])[:, :, 0]


class Shipped(Decision):
    """discovery/confidence.py's constants: `match` plus `PRODUCT_SHARE` for a result in
    the product the request names, `CUED_SHARE` in one it implies, up to 1, under
    `MATCH_FLOOR` (no fit)."""

    def __init__(self, rows: list[Row], target: float) -> None:
        self.cut = MATCH_FLOOR

    def scores(self, rows: list[Row]) -> np.ndarray:
        x = arrays(rows, ["match", "named", "cued"])
        earned = PRODUCT_SHARE * x[:, :, 1] + CUED_SHARE * x[:, :, 2]
        out: np.ndarray = np.where(x[:, :, 0] > 0, np.minimum(1.0, x[:, :, 0] + earned), 0.0)
        return out


class Floor(Current):
    def __init__(self, rows: list[Row], target: float) -> None:
        Decision.__init__(self, rows, target)


class Logistic(Decision):
    def __init__(self, rows: list[Row], target: float, names: Sequence[str]) -> None:
        self.names = names
        x = arrays(rows, names)
        here = present(rows)
        yes = np.zeros((len(rows), DEPTH), dtype=bool)
        for i, r in enumerate(rows):
            for j, x_ in enumerate(r.get("results", [])[:DEPTH]):
                yes[i, j] = x_["id"] in r["good"]
        none = np.array([r["none"] for r in rows])
        positive = yes & here
        negative = here & none[:, None]
        xs = np.concatenate([x[positive], x[negative]])
        ys = np.concatenate([np.ones(positive.sum()), np.zeros(negative.sum())])
        self.mean, self.std = xs.mean(axis=0), xs.std(axis=0) + 1e-9
        self.w = fit((xs - self.mean) / self.std, ys)
        super().__init__(rows, target)

    def scores(self, rows: list[Row]) -> np.ndarray:
        z: np.ndarray = self.w[0] + ((arrays(rows, self.names) - self.mean) / self.std) @ self.w[1:]
        return z

    def constants(self) -> str:
        w = self.w[1:] / self.std
        b = self.w[0] - float((w * self.mean).sum())
        terms = " ".join(f"{v:+.3f}*{n}" for n, v in zip(self.names, w, strict=True))
        p = 1 / (1 + math.exp(-self.cut))
        return f"log-odds {b:+.3f} {terms}; cut {self.cut:.3f} (probability {p:.3f})"


class Bonus(Decision):
    """match + a share x each of `features` (a result in the product the request names,
    cues...), up to 1 where the match is not 0; the shares and the cut fitted on a grid."""

    SHARES = tuple(float(v) for v in np.round(np.arange(0.0, 0.41, 0.025), 3))

    def __init__(
        self, rows: list[Row], target: float, features: Sequence[str] = ("product",)
    ) -> None:
        self.features = tuple(features)
        here = present(rows)
        none = np.array([r["none"] for r in rows])
        best_key: tuple[float, float] | None = None
        grids = [self.SHARES] * len(self.features)
        for shares in itertools.product(*grids):
            self.shares = shares
            s = np.where(here, self.scores(rows), MISSING).max(axis=1)
            cut = cut_for(s, none, target)
            flagged = s < cut
            key = (float(flagged[none].mean()), -float(flagged[~none].mean()))
            if best_key is None or key > best_key:
                best_key, best, self.cut = key, shares, cut
        self.shares = best

    def scores(self, rows: list[Row]) -> np.ndarray:
        x = arrays(rows, ["match", *self.features])
        earned = sum(v * x[:, :, i + 1] for i, v in enumerate(self.shares))
        out: np.ndarray = np.where(x[:, :, 0] > 0, np.minimum(1.0, x[:, :, 0] + earned), 0.0)
        return out

    def constants(self) -> str:
        terms = " + ".join(
            f"{v:.3f} x {f}" for f, v in zip(self.features, self.shares, strict=True)
        )
        return f"match + {terms}; cut {self.cut:.3f}"


def rates(flags: np.ndarray, rows: list[Row]) -> str:
    none = np.array([r["none"] for r in rows])
    f = f"{flags[none].mean():.3f} of {none.sum():>2}" if none.any() else "   -     "
    w = f"{flags[~none].mean():.3f} of {(~none).sum():>3}" if (~none).any() else "-"
    return f"no-endpoint flagged {f}  answerable wrongly flagged {w}"


def report(label: str, make: Callable[[list[Row]], Decision], rows: list[Row]) -> None:
    sections = list(dict.fromkeys(r["section"] for r in rows))
    held = np.zeros(len(rows), dtype=bool)
    print(f"\n== {label}")
    for s in sections:
        train = [r for r in rows if r["section"] != s]
        index = [i for i, r in enumerate(rows) if r["section"] == s]
        test = [rows[i] for i in index]
        held[index] = make(train).flags(test)
        print(f"  cross-validated {s:<13} {rates(held[index], test)}")
    print(f"  cross-validated {'ALL':<13} {rates(held, rows)}")
    d = make(rows)
    inside = d.flags(rows)
    for s in sections:
        index = [i for i, r in enumerate(rows) if r["section"] == s]
        print(f"  in-sample       {s:<13} {rates(inside[index], [rows[i] for i in index])}")
    print(f"  in-sample       {'ALL':<13} {rates(inside, rows)}")
    print(f"  fitted on all: {d.constants()}")


SETS = (
    ("match", "product"),
    ("share", "unknown", "agree", "product"),
    ("match", "cos"),
    ("match", "product", "cos"),
    ("share", "unknown", "agree", "product", "cos"),
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("features")
    parser.add_argument("--target", type=float, default=TARGET)
    args = parser.parse_args()
    with open(args.features, "rb") as fh:
        rows = [orjson.loads(line) for line in fh]
    t = args.target
    report("current (match >= 0.3)", lambda rs: Current(rs, t), rows)
    report(
        f"shipped (match + {PRODUCT_SHARE} x named + {CUED_SHARE} x cued >= {MATCH_FLOOR})",
        lambda rs: Shipped(rs, t),
        rows,
    )
    report("floor (match, its floor fitted)", lambda rs: Floor(rs, t), rows)
    report("bonus (match + share x product)", lambda rs: Bonus(rs, t), rows)
    report("bonus (match + share x named)", lambda rs: Bonus(rs, t, ("named",)), rows)
    report(
        "bonus (match + share x named + share x cued)",
        lambda rs: Bonus(rs, t, ("named", "cued")),
        rows,
    )
    for names in SETS:
        report(f"logistic {' + '.join(names)}", lambda rs, n=names: Logistic(rs, t, n), rows)


if __name__ == "__main__":
    main()
