"""The discovery tests' shared fixture: the search index over the shipped catalog, built
once per test module (as each module built its own before); a module testing a catalog
of its own defines its own `index`, which takes precedence."""

from __future__ import annotations

import pytest

from skillgate.catalog.loader import load_catalog
from skillgate.discovery.search import SearchIndex


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(load_catalog())
