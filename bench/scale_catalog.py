"""A larger catalog for measuring how the catalog's cost grows (issue 25 item 5).

`write(directory, factor)` writes `factor - 1` copies of every shipped integration
file under new slugs (`github_x2`, named "GitHub x2"), each overlay naming the same
shipped compiled file: with the shipped catalog that is `factor` times its endpoints.
A fractional factor (1.2) adds one more copy of some integrations, taken by file name
when a file brings the added endpoints nearer that fraction of the shipped catalog's
(the bench reports the endpoints actually served).
Serve it with `SKILLGATE_CATALOG_PATH=<directory>`. Copies repeat the shipped texts,
so the search's vocabulary (its spelling dictionary) does not grow with them, while
everything per endpoint does.

    python bench/scale_catalog.py /tmp/catalog-4x 4
    python bench/scale_catalog.py /tmp/catalog-1.2x 1.2
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "src" / "skillgate" / "catalog" / "integrations"
_FIELD = re.compile(r"^(slug|name|compiled):[ \t]*(.+)$", re.MULTILINE)


def _copy(text: str, source: Path, n: int) -> str:
    """The integration file `text` (read from `source`) as copy number `n`."""

    def renamed(m: re.Match[str]) -> str:
        field, value = m.group(1), m.group(2).split(" #")[0].strip()
        if field == "slug":
            return f"slug: {value}_x{n}"
        if field == "name":
            return f"name: {value.strip(chr(34))} x{n}"
        return f"compiled: {(source.parent / value).resolve()}"

    return _FIELD.sub(renamed, text)


def _endpoints(sources: list[Path]) -> dict[Path, int]:
    """Each shipped integration file's endpoint count, as the server loads it."""
    sys.path.insert(0, str(ROOT / "src"))
    from skillgate.catalog.loader import load_catalog

    catalog = load_catalog()
    counts = {
        path: len(catalog.integrations[slug].endpoints) for slug, path in catalog.sources.items()
    }
    return {source: counts[source] for source in sources}


def write(directory: Path, factor: float) -> int:
    """Write the copies for `factor` times the shipped catalog; the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.glob("*.yaml"):
        old.unlink()
    sources = sorted(SHIPPED.glob("*.yaml"))
    whole = math.floor(factor)
    copies = {source: range(2, whole + 1) for source in sources}
    if factor > whole:  # one more copy of the first files, for the fraction's endpoints
        counts = _endpoints(sources)
        wanted, taken = (factor - whole) * sum(counts.values()), 0
        for source in sources:
            if abs(taken + counts[source] - wanted) < abs(taken - wanted):
                copies[source] = range(2, whole + 2)
                taken += counts[source]
    written = 0
    for source in sources:
        text = source.read_text()
        for n in copies[source]:
            (directory / f"{source.stem}_x{n}.yaml").write_text(_copy(text, source, n))
            written += 1
    return written


if __name__ == "__main__":
    count = write(Path(sys.argv[1]), float(sys.argv[2]))
    print(f"{count} files in {sys.argv[1]}")
