"""Each endpoint's prior: the factor its scores are multiplied by whatever the query
(docs/catalog.md, "Search"), built once with the index.

- A curated endpoint (`Endpoint.curated`: a person wrote or reviewed it; the calls most
  requests are for) gets `CURATED_BOOST`.
- An endpoint of a generated family gets `FAMILY_PRIOR`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from skillgate.catalog.models import Endpoint

# The score multiplier of a curated endpoint (`Endpoint.curated`: a person wrote or
# reviewed it; the calls most requests are for), chosen by measurement (docs/catalog.md,
# "Search"): among near-equal matches it comes first, a clearly better match still wins.
CURATED_BOOST = 1.25
# An endpoint of a generated family (more than `FAMILY_SIZE` endpoints of one integration
# under one parent path, each named for the path's last word: Graph's Excel functions
# `.../workbook/functions/left`) has its score multiplied by `FAMILY_PRIOR`: one word of
# a request ("left", "days", "find") is not a call to a spreadsheet function.
FAMILY_SIZE = 150
FAMILY_PRIOR = 0.5


def priors(
    endpoints: Sequence[tuple[str, Endpoint]], boost: Mapping[tuple[str, str], float]
) -> np.ndarray:
    """Each endpoint's prior ((slug, endpoint) in index order): `boost`'s factor where it
    names the endpoint, else `CURATED_BOOST` if curated, else 1; times its family's."""
    own = np.array(
        [boost.get((slug, e.name), CURATED_BOOST if e.curated else 1.0) for slug, e in endpoints],
        dtype=np.float64,
    )
    found: np.ndarray = own * _family_factors(endpoints)
    return found


def _family_factors(endpoints: Sequence[tuple[str, Endpoint]]) -> np.ndarray:
    """Each endpoint's `FAMILY_PRIOR` when it is one of more than `FAMILY_SIZE` endpoints
    of its integration under the same parent path (a generated family, Microsoft Graph's
    366 Excel worksheet functions under `.../workbook/functions/`), else 1."""
    parents = [(slug, e.path.rsplit("/", 1)[0]) for slug, e in endpoints]
    sizes = Counter(parents)
    return np.array(
        [FAMILY_PRIOR if sizes[p] > FAMILY_SIZE else 1.0 for p in parents], dtype=np.float64
    )
