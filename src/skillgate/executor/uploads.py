"""File parameters: what an agent passes for one, checked, and the multipart body.

A `file` parameter (catalog `file: true`: an upload in a `multipart/form-data`
body, the whole of a binary one, or the media part of a `multipart/related` one after
its JSON metadata, as Google's media uploads take it) takes either

- a string: the file's content as text (sent UTF-8 encoded), or
- an object `{"base64": "...", "filename": "report.pdf", "content_type":
  "application/pdf"}`: the content base64-encoded (standard or URL-safe
  alphabet, padding optional); `filename` and `content_type` are optional
  (defaults: the parameter's wire name and `application/octet-stream`, or
  `text/plain; charset=utf-8` for text). `{"text": "..."}` is the text form
  with a filename.

`svc run ... --file @./report.pdf` reads the local file and sends the object
form (skillgate_cli.uploads). A file whose content is over the upload cap
(SKILLGATE_MAX_UPLOAD_BYTES) is refused 413 naming the parameter, before any
upstream call. The multipart body is encoded with urllib3's
`encode_multipart_formdata` (RFC 7578; a maintained encoder rather than one of
our own): files as parts with a filename, every other parameter as a text part
in catalog order (an array as one part per item, an object as JSON text).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any

from urllib3 import encode_multipart_formdata
from urllib3.filepost import choose_boundary

from skillgate.catalog.models import Parameter
from skillgate.errors import BadRequest, PayloadTooLarge
from skillgate.executor.wire import text

DEFAULT_MAX_UPLOAD_BYTES = 786_432  # what base64 carries in the default 1 MiB request
_KEYS = frozenset({"base64", "text", "filename", "content_type"})
_HEADER_UNSAFE = re.compile(r'[\x00-\x1f\x7f"\\]')
_MEDIA_TYPE = re.compile(r"^[\w.+-]+/[\w.+-]+(\s*;\s*[\w.+-]+=[\w.+\"-]+)*$")


@dataclass(frozen=True)
class Upload:
    filename: str
    content_type: str
    data: bytes


def _decode(name: str, encoded: Any) -> bytes:
    if not isinstance(encoded, str):
        raise BadRequest(f"{name}.base64: must be a string of base64 text.")
    cleaned = re.sub(r"\s+", "", encoded).replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(cleaned + "=" * (-len(cleaned) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise BadRequest(f"{name}.base64: is not valid base64.") from None


def _label(name: str, field: str, value: Any, pattern: re.Pattern[str] | None) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value or len(value) > 255:
        raise BadRequest(f"{name}.{field}: must be a non-empty string of at most 255 characters.")
    if _HEADER_UNSAFE.search(value) or (pattern is not None and not pattern.match(value)):
        raise BadRequest(f"{name}.{field}: {value[:64]!r} is not allowed in a multipart header.")
    return value


def has_file_form(value: Any) -> bool:
    """Whether `value` has one of the forms `upload` reads: a file's text, or an object
    holding its content (`base64` or `text`); whether its fields are sound is `upload`'s."""
    return isinstance(value, str) or (
        isinstance(value, dict) and ("base64" in value or "text" in value)
    )


def upload(param: Parameter, value: Any, cap: int) -> Upload:
    """The file a value stands for; 400 naming the field when malformed, 413 when over
    `cap` bytes."""
    name = param.name
    filename, content_type = None, None
    if isinstance(value, str):
        data, kind = value.encode(), "text/plain; charset=utf-8"
    elif isinstance(value, dict):
        unknown = sorted(set(value) - _KEYS)
        if unknown or ("base64" in value) == ("text" in value):
            raise BadRequest(
                f"{name}: a file is its text, or an object with `base64` (or `text`) and "
                "optional `filename` and `content_type`"
                + (f"; unknown key {unknown[0]!r}" if unknown else "")
                + "."
            )
        if "text" in value:
            if not isinstance(value["text"], str):
                raise BadRequest(f"{name}.text: must be a string.")
            data, kind = value["text"].encode(), "text/plain; charset=utf-8"
        else:
            data, kind = _decode(name, value["base64"]), "application/octet-stream"
        filename = _label(name, "filename", value.get("filename"), None)
        content_type = _label(name, "content_type", value.get("content_type"), _MEDIA_TYPE)
    else:
        raise BadRequest(f"{name}: a file is a string (its text) or an object with `base64`.")
    if len(data) > cap:
        raise PayloadTooLarge(
            f"{name}: the file is {len(data):,} bytes; uploads are capped at {cap:,} "
            "bytes (SKILLGATE_MAX_UPLOAD_BYTES)."
        )
    return Upload(filename or param.wire_name, content_type or kind, data)


Field = tuple[str, str | tuple[str, bytes, str]]


def multipart(fields: list[Field]) -> tuple[bytes, str]:
    """(body, Content-Type with its boundary) of a multipart/form-data body."""
    return encode_multipart_formdata(fields)


def related(metadata: bytes, up: Upload) -> tuple[bytes, str]:
    """(body, Content-Type with its boundary) of a multipart/related body (RFC 2387): the
    JSON metadata, then the file as its content type says: Google's media uploads
    (`uploadType=multipart`). The boundary is urllib3's, 32 random hex digits."""
    boundary = choose_boundary()
    parts = (
        f"--{boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n".encode(),
        metadata,
        f"\r\n--{boundary}\r\nContent-Type: {up.content_type}\r\n\r\n".encode(),
        up.data,
        f"\r\n--{boundary}--\r\n".encode(),
    )
    return b"".join(parts), f"multipart/related; boundary={boundary}"


def text_fields(key: str, value: Any) -> list[Field]:
    """A non-file parameter as multipart text parts: one per array item."""
    items = value if isinstance(value, list) else [value]
    return [(key, text(v)) for v in items]
