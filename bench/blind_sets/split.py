"""A reviewed blind set split in its development half and its held half (issue 26): the
two reviewed files (reviewed_A.yaml, reviewed_B.yaml in DIR) together, every other request
of each kind to each half, requests another set of tests/skillgate/discovery holds word for
word left out. Writes DIR/dev.yaml (the lines of the development section) and DIR/held.yaml
(the held file, under `blindN_held`); prints only counts, never a request.

    python3 bench/blind_sets/split.py N DIR
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

SETS = Path(__file__).resolve().parents[2] / "tests" / "skillgate" / "discovery"


def _line(t: dict[str, Any]) -> str:
    parts = [
        f"kind: {t['kind']}",
        f"task: {json.dumps(t['task'], ensure_ascii=False)}",
        f"expect: {t.get('expect') or 'null'}",
    ]
    if t.get("also"):
        parts.append(f"also: [{', '.join(t['also'])}]")
    return "  - {" + ", ".join(parts) + "}"


def main() -> None:
    n, folder = sys.argv[1], Path(sys.argv[2])
    existing = set()
    for path in SETS.glob("search_*.yaml"):
        if "phrasings" not in path.name:
            for section in yaml.safe_load(path.read_text(encoding="utf-8")).values():
                existing |= {t["task"] for t in section or [] if isinstance(t, dict)}
    written = []
    for half in "AB":
        written += yaml.safe_load((folder / f"reviewed_{half}.yaml").read_text("utf-8"))
    kept, seen = [], set()
    for t in written:
        if t["task"] not in existing and t["task"] not in seen:
            seen.add(t["task"])
            kept.append(t)
    dev, held, count = [], [], Counter[str]()
    for t in kept:
        (dev if count[t["kind"]] % 2 == 0 else held).append(t)
        count[t["kind"]] += 1
    (folder / "dev.yaml").write_text("\n".join(map(_line, dev)) + "\n", encoding="utf-8")
    held_text = f"blind{n}_held:\n" + "\n".join(map(_line, held)) + "\n"
    (folder / "held.yaml").write_text(held_text, encoding="utf-8")
    print("left out (held word for word by another set):", len(written) - len(kept))
    print("development", len(dev), dict(Counter(t["kind"] for t in dev)))
    print("held", len(held), dict(Counter(t["kind"] for t in held)))


if __name__ == "__main__":
    main()
