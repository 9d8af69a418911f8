"""Which of an OpenAPI operation's request body media types the gateway sends, and how
(the rules are in `importers.openapi`'s docstring, "request body")."""

from __future__ import annotations

from typing import Any

from skillgate.catalog.importers.source import SkipOperation, SourceBody

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"
BINARY = "application/octet-stream"


def is_json(media: str) -> bool:
    base = media.split(";")[0].strip().lower()
    return base == "application/json" or (
        base.startswith("application/") and base.endswith("+json")
    )


def _media(bases: dict[str, str], content: dict[str, Any]) -> tuple[str, str, str | None] | None:
    """(media type, encoding, Content-Type to send when not the encoding's own) of the
    body to send: JSON, else a form, else another JSON type (`merge-patch+json`,
    `json-patch+json`: sent as itself), else `*/*` with a schema (sent as JSON), else
    multipart, else `*/*` with none (a raw upload: skipped by the caller)."""
    for base, encoding in (("application/json", "json"), (FORM, "form")):
        if base in bases:
            return bases[base], encoding, None
    other = next((b for b in bases if is_json(b)), None)
    if other is not None:
        return bases[other], "json", other
    described = "*/*" in bases and (content[bases["*/*"]] or {}).get("schema")
    if described:
        return bases["*/*"], "json", None
    if MULTIPART in bases:
        return bases[MULTIPART], "multipart", None
    if "*/*" in bases and BINARY not in bases:
        return bases["*/*"], "json", None
    return None


def request_body(op: dict[str, Any]) -> SourceBody | None:
    body = op.get("requestBody")
    if not isinstance(body, dict) or not isinstance(body.get("content"), dict):
        return None
    content: dict[str, Any] = body["content"]
    if not content:
        return None
    required = bool(body.get("required"))
    bases = {media.split(";")[0].strip().lower(): media for media in content}
    chosen = _media(bases, content)
    if chosen is not None:
        name, encoding, content_type = chosen
        media = content[name] or {}
        schema = media.get("schema") or {}
        if name.startswith("*/*") and not schema:
            raise SkipOperation("request body of any type (*/*) with no schema: a raw upload")
        styles = {
            str(key): (str(enc.get("style", "form")), bool(enc.get("explode", True)))
            for key, enc in (media.get("encoding") or {}).items()
            if isinstance(enc, dict)
        }
        return SourceBody(schema, encoding, required, content_type=content_type, styles=styles)
    if BINARY in bases:  # a raw upload: the file is the whole body
        media = content[bases[BINARY]] or {}
        schema = {**(media.get("schema") or {}), "description": body.get("description") or ""}
        return SourceBody(schema, "binary", required)
    kinds = ", ".join(content)
    raise SkipOperation(
        f"request body only as {kinds}; the executor sends JSON, form, multipart or binary bodies"
    )
