"""Compile official API descriptions into catalog entries (a pure library).

`import_openapi` (OpenAPI 3.0/3.1, and Swagger 2.0 through `swagger`) and
`import_discovery` (Google API Discovery) turn a parsed document into an
`Imported`: catalog endpoint dicts (the keys of a
catalog file, each accepted by `Endpoint.model_validate` and the example check)
plus what the document says about the integration, and every operation left out
with its reason. No network, no database, no app: callers read the document
(`load_document`) and write the result.

Modules: `openapi` and `google` read their format into `source.SourceOperation`s;
`compile` makes endpoints of them with `params`, `schema`, `naming`, `text`,
`errors` and `pagination`; `refs` resolves `$ref`s; `swagger` converts
Swagger 2.0 to OpenAPI 3.0; `integration` builds a whole catalog integration
for `skillgate catalog import`.
"""

from skillgate.catalog.importers.document import load_document
from skillgate.catalog.importers.google import import_discovery
from skillgate.catalog.importers.integration import integration_dict
from skillgate.catalog.importers.openapi import import_openapi
from skillgate.catalog.importers.source import DocumentError, Imported, Skipped

__all__ = [
    "DocumentError",
    "Imported",
    "Skipped",
    "import_discovery",
    "import_openapi",
    "integration_dict",
    "load_document",
]
