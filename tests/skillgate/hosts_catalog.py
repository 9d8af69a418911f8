"""Catalog files for the hosts and auth tests (executor and dashboard): an API on two
hosts, a Jira-like one reached through the user's cloud id with HTTP Basic, and a
Trello-like one taking a key and a token in the query; each pointed at the loopback
provider's port."""

from __future__ import annotations

from pathlib import Path

from skillgate.catalog.loader import Catalog, load_catalog
from tests.conftest import FIXTURES

CLOUD_ID = "0f6c3e2a-8a6b-4d35-9d0c-6c3f7f1b2a10"

MULTI = """\
slug: multi
name: Multi
description: An API served from two hosts, like GitHub's uploads.
base_url: http://127.0.0.1:{port}/api
allow_private_network: true
auth:
  token: {{help: Paste a token from the settings page.}}
verify: {{path: /me}}
endpoints:
  - name: list_things
    method: GET
    path: /things
    category: things
    description: List the things.
    parameters: []
    errors: [{{code: 404, cause: Not found., fix: Check it.}}]
  - name: upload_asset
    method: POST
    path: /assets
    base_url: http://localhost:{port}/uploads
    category: things
    description: Upload an asset to the upload host.
    parameters:
      - {{name: name, type: string, in: body, required: true, description: The name., example: a}}
    errors: [{{code: 404, cause: Not found., fix: Check it.}}]
"""

SITE = """\
slug: site
name: Site
description: A Jira-like API reached through the user's own cloud id.
base_url: http://127.0.0.1:{port}/ex/jira/{{cloudid}}
allow_private_network: true
variables:
  - name: cloudid
    label: Cloud id
    help: The id of your Atlassian site, from https://your-domain.atlassian.net/_edge/tenant_info.
    pattern: "[0-9a-f]{{8}}-[0-9a-f]{{4}}-[0-9a-f]{{4}}-[0-9a-f]{{4}}-[0-9a-f]{{12}}"
    example: 0f6c3e2a-8a6b-4d35-9d0c-6c3f7f1b2a10
auth:
  basic: {{username_label: Email, password_label: API token, help: Your email and an API token.}}
verify: {{path: /rest/api/3/myself}}
endpoints:
  - name: get_issue
    method: GET
    path: /rest/api/3/issue/{{key}}
    category: issues
    description: Get one issue by its key.
    parameters:
      - {{name: key, type: string, in: path, required: true, description: The key., example: A-1}}
    errors: [{{code: 404, cause: Not found., fix: Check it.}}]
"""

BOARD = """\
slug: board
name: Board
description: A Trello-like API taking a key and a token in the query.
base_url: http://127.0.0.1:{port}/1
allow_private_network: true
auth:
  token:
    label: Token
    help: Paste your token.
    query: token
    key: {{label: API key, query: key}}
verify: {{path: /members/me}}
endpoints:
  - name: get_board
    method: GET
    path: /boards/{{id}}
    category: boards
    description: Get one board by its id.
    parameters:
      - {{name: id, type: string, in: path, required: true, description: The id., example: b1}}
    errors: [{{code: 404, cause: Not found., fix: Check it.}}]
"""


def hosts_catalog(tmp_path: Path, port: int) -> Catalog:
    """The fixture catalog plus multi, site and board, their hosts on `port`."""
    (tmp_path / "catalog").mkdir()
    for name, text in (("multi", MULTI), ("site", SITE), ("board", BOARD)):
        (tmp_path / "catalog" / f"{name}.yaml").write_text(text.format(port=port))
    return load_catalog([FIXTURES / "catalog", tmp_path / "catalog"], shipped=False)
