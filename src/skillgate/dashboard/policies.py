"""A key's or a connected app's policy on the dashboard (docs/dashboard.md,
"Policies"; the rule language: docs/execution.md):

    GET  /keys/{key_id}/policy          the key's policy as YAML in an editor
    POST /keys/{key_id}/policy          save it (YAML or JSON), or the editor again with
                                        the error naming the field
    POST /keys/{key_id}/policy/remove   remove it: every call in the key's scopes allowed
    GET, POST /keys/apps/{grant_id}/policy, POST /keys/apps/{grant_id}/policy/remove
                                        the same for an app (an OAuth grant of /mcp)

The signed-in person's own keys and apps only (another's is 404); every form carries
the CSRF token.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

import yaml
from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

from skillgate.api_keys.service import ApiKeys
from skillgate.dashboard import web
from skillgate.dashboard.route import DashboardRoute
from skillgate.dashboard.viewer import CheckedForm, SignedIn, Viewer
from skillgate.db.session import DB
from skillgate.errors import BadRequest, NotFound, SkillGateError
from skillgate.http.provide import provided
from skillgate.kit.documents import DocumentLimitError, load_yaml
from skillgate.mcpauth.service import Grants

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)

Keys = Annotated[ApiKeys, provided(ApiKeys)]
Apps = Annotated[Grants, provided(Grants)]
MAX_TEXT = 64 * 1024

# What the editor offers for a key without a policy: a start to change, not a default.
EXAMPLE = """\
rules:
  - name: no deletes
    match: {class: destructive}
    action: deny
  - name: our repositories only
    match: {integration: github}
    action: allow
    params:
      owner: {one_of: [my-org]}
default: allow
"""


def as_yaml(document: dict[str, Any] | None) -> str:
    if document is None:
        return ""
    return str(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))


def parse_text(text: str) -> Any:
    """The document in the editor's `text` (YAML, of which JSON is a part); None when
    it is empty."""
    if len(text) > MAX_TEXT:
        raise BadRequest(f"policy: use at most {MAX_TEXT // 1024} kB.")
    if not text.strip():
        return None
    try:
        return load_yaml(text)
    except (yaml.YAMLError, DocumentLimitError) as exc:
        raise BadRequest(f"policy: not YAML or JSON ({str(exc).splitlines()[0]}).") from None


@dataclass(frozen=True)
class Holder:
    """What the editor edits: a key or an app, its name, its policy, where it posts."""

    kind: str  # key | app
    id: str
    name: str
    policy: dict[str, Any] | None

    @property
    def path(self) -> str:
        return f"/keys/{self.id}/policy" if self.kind == "key" else f"/keys/apps/{self.id}/policy"

    @property
    def noun(self) -> str:
        return "key" if self.kind == "key" else "app"


async def _own_key(db: DB, keys: ApiKeys, viewer: Viewer, key_id: str) -> Holder:
    key = await keys.owned(db, viewer.user_id, key_id[:64])
    if key is None:
        raise NotFound("This API key does not exist, or is not yours.")
    return Holder("key", key.id, key.name, key.policy)


async def _own_app(db: DB, apps: Grants, viewer: Viewer, grant_id: str) -> Holder:
    grant = await apps.owned(db, viewer.user_id, grant_id)
    return Holder("app", grant.id, grant.client_name, grant.policy)


def _page(
    request: Request, viewer: Viewer, holder: Holder, text: str, error: str = "", status: int = 200
) -> Response:
    context = {
        "viewer": viewer,
        "nav": "keys",
        "holder": holder,
        "text": text,
        "example": EXAMPLE,
        "error": error,
    }
    return web.render(request, "policy.html", context, status=status)


async def _save(
    request: Request,
    viewer: Viewer,
    form: Any,
    db: DB,
    load: Callable[[], Awaitable[Holder]],
    store: Callable[[str, Any], Awaitable[None]],
) -> Response:
    """Save the editor's document for the loaded holder, or the editor again with the
    error naming the field."""
    holder = await load()
    text = web.field(form, "policy", secret=True)  # new lines and tabs are the point
    try:
        document = parse_text(text)
        if document is None:
            raise BadRequest("policy: empty; to remove the policy use Remove policy.")
        await store(holder.id, document)
    except SkillGateError as exc:
        if exc.status >= 500:
            raise
        await db.rollback()
        holder = await load()
        return _page(request, viewer, holder, text, web.sentence(exc.message), exc.status)
    return web.redirect("/keys", notice=f"{holder.kind}_policy")


@router.get("/keys/{key_id}/policy")
async def policy_page(
    request: Request, key_id: str, viewer: SignedIn, db: DB, keys: Keys
) -> Response:
    key = await _own_key(db, keys, viewer, key_id)
    return _page(request, viewer, key, as_yaml(key.policy))


@router.post("/keys/{key_id}/policy")
async def save_policy(
    request: Request, key_id: str, viewer: SignedIn, form: CheckedForm, db: DB, keys: Keys
) -> Response:
    async def store(owned: str, document: Any) -> None:
        await keys.set_policy(db, viewer.user_id, owned, document)

    return await _save(request, viewer, form, db, lambda: _own_key(db, keys, viewer, key_id), store)


@router.post("/keys/{key_id}/policy/remove")
async def remove_policy(
    key_id: str, viewer: SignedIn, form: CheckedForm, db: DB, keys: Keys
) -> Response:
    key = await _own_key(db, keys, viewer, key_id)
    await keys.set_policy(db, viewer.user_id, key.id, None)
    return web.redirect("/keys", notice="key_policy_removed")


@router.get("/keys/apps/{grant_id}/policy")
async def app_policy_page(
    request: Request, grant_id: str, viewer: SignedIn, db: DB, apps: Apps
) -> Response:
    app = await _own_app(db, apps, viewer, grant_id)
    return _page(request, viewer, app, as_yaml(app.policy))


@router.post("/keys/apps/{grant_id}/policy")
async def save_app_policy(
    request: Request, grant_id: str, viewer: SignedIn, form: CheckedForm, db: DB, apps: Apps
) -> Response:
    async def store(owned: str, document: Any) -> None:
        await apps.set_policy(db, viewer.user_id, owned, document)

    return await _save(
        request, viewer, form, db, lambda: _own_app(db, apps, viewer, grant_id), store
    )


@router.post("/keys/apps/{grant_id}/policy/remove")
async def remove_app_policy(
    grant_id: str, viewer: SignedIn, form: CheckedForm, db: DB, apps: Apps
) -> Response:
    app = await _own_app(db, apps, viewer, grant_id)
    await apps.set_policy(db, viewer.user_id, app.id, None)
    return web.redirect("/keys", notice="app_policy_removed")
