"""A blind set's listings (issue 26): every endpoint of the shipped catalog, the
integrations split in two halves by a seed, each endpoint with its description's first
sentence and `[common]` marking the curated ones. Each writer reads one half's listing
only (writer_brief.md); the reviewer reads both (reviewer_brief.md).

    PYTHONPATH=src .venv/bin/python bench/blind_sets/listing.py SEED OUTDIR
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from skillgate.catalog.loader import load_catalog


def main() -> None:
    seed, out = int(sys.argv[1]), Path(sys.argv[2])
    catalog = load_catalog()
    slugs = sorted(catalog.integrations)
    random.Random(seed).shuffle(slugs)
    halves = [sorted(slugs[: len(slugs) // 2]), sorted(slugs[len(slugs) // 2 :])]
    for name, half in zip("AB", halves, strict=True):
        lines = []
        for slug in half:
            integration = catalog.integrations[slug]
            lines.append(f"## {slug} ({integration.name})")
            for e in integration.endpoints:
                text = " ".join((e.description or "").split())
                first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0][:140]
                mark = "[common] " if e.curated else ""
                lines.append(f"- {mark}{slug}/{e.name}: {first}")
            lines.append("")
        (out / f"listing_{name}.md").write_text("\n".join(lines), encoding="utf-8")
        print(name, len(half), half)


if __name__ == "__main__":
    main()
