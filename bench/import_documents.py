"""Import real description documents and report what the importers make of them.

    .venv/bin/python bench/import_documents.py openapi:github=api.github.com.json \
        google:gmail=gmail.v1.json ...

For each: endpoints produced, operations skipped by reason, notes, the time the
import took, and whether the whole integration passes `Integration.model_validate`
and `check_integration` (the server's own checks). Not a test: the documents are
big and downloaded separately (`npm pack @octokit/openapi`, the wheel of
google-api-python-client).
"""

from __future__ import annotations

import collections
import sys
import time

from skillgate.catalog.importers import (
    import_discovery,
    import_openapi,
    integration_dict,
    load_document,
)
from skillgate.catalog.models import Integration
from skillgate.catalog.validate import check_integration


def report(kind: str, slug: str, path: str) -> int:
    started = time.perf_counter()
    document = load_document(path)
    loaded = time.perf_counter()
    importer = import_openapi if kind == "openapi" else import_discovery
    imported = importer(document, slug=slug)
    done = time.perf_counter()
    # No verify candidate (Sheets, Docs): any path, to check the endpoints all the same.
    verify = imported.verify_path or "/needs-verify-path"
    auth = "bearer" if kind == "openapi" else None
    data = integration_dict(imported, slug=slug, auth=auth, verify_path=verify)
    problems = check_integration(Integration.model_validate(data))
    checked = time.perf_counter()
    print(
        f"{slug}: {len(imported.endpoints)} endpoints, {len(imported.skipped)} skipped, "
        f"{len(imported.notes)} notes; read {loaded - started:.2f}s, import "
        f"{done - loaded:.2f}s, validate {checked - done:.2f}s; verify {imported.verify_path}; "
        f"check_integration: {'pass' if not problems else f'{len(problems)} problems'}"
    )
    reasons = collections.Counter(s.reason for s in imported.skipped)
    for reason, count in reasons.most_common():
        print(f"  {count:4d} skipped: {reason}")
    for note in imported.notes:
        print(f"       note: {note}")
    for problem in problems[:5]:
        print(f"       problem: {problem}")
    return len(imported.endpoints)


def main(args: list[str]) -> None:
    total = 0
    for arg in args:
        kind, _, rest = arg.partition(":")
        slug, _, path = rest.partition("=")
        total += report(kind, slug, path)
    print(f"total: {total} endpoints")


if __name__ == "__main__":
    main(sys.argv[1:])
