"""A catalog parameter: one value an endpoint takes, where it goes and what it may be.

Checked on its own (catalog.models checks it within its endpoint and integration).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from skillgate.catalog.hosts import VARIABLE_NAME

ParamType = Literal["string", "number", "boolean", "array", "object"]
Location = Literal["path", "query", "body", "header"]
# How an array or object value goes into a query string or a form body (executor.wire):
# `deepObject` in brackets (`metadata[k]=v`, `tags[]=a`, `items[0][price]=p`), `form`
# an array as repeated keys (`k=a&k=b`); unset: as JSON text (Slack's `blocks`).
WireStyle = Literal["deepObject", "form"]

PARAM_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
HEADER_RE = re.compile(r"^[A-Za-z0-9-]{1,64}$")
# Headers the gateway owns: never set from a parameter.
PROTECTED_HEADERS = frozenset(
    {
        "authorization",
        "host",
        "cookie",
        "content-length",
        "transfer-encoding",
        "connection",
        "proxy-authorization",
        "x-forwarded-for",
        "x-forwarded-host",
    }
)
_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


def value_matches(type_: str, value: Any) -> bool:
    """Whether a YAML value has the declared catalog type (bool is not a number)."""
    if type_ == "number" and isinstance(value, bool):
        return False
    return isinstance(value, _PY_TYPES[type_])


class Parameter(BaseModel):
    name: str
    type: ParamType
    required: bool = False
    description: str = Field(min_length=3)
    location: Location = Field(alias="in")
    default: Any = None
    enum: tuple[Any, ...] | None = None
    example: Any = None
    # Upstream name when it differs from `name`; for body parameters a dotted
    # path into the JSON body (or the GraphQL variables), e.g. `input.title`.
    maps_to: str | None = None
    # Array items' type, for documentation and coercion.
    items: ParamType | None = None
    # A path parameter that may span segments (`src/app.py`, `feature/login`):
    # each segment is encoded on its own; empty, `.` and `..` segments are refused.
    multi_segment: bool = False
    # The other types the source accepts for it (a `oneOf`/`anyOf` or a type list:
    # GitHub's gist `public` is a string or a boolean): a value of one of them is
    # sent as it is; `type` is the one examples and the CLI use.
    also: tuple[ParamType, ...] = ()
    # `null` may be sent (JSON bodies only): it clears the field (`milestone: null`).
    nullable: bool = False
    # The value is the whole JSON body (a JSON Patch array, ...): the only body parameter.
    whole_body: bool = False
    # An array or object in the query or a form or multipart body: how it is written.
    style: WireStyle | None = None
    # A file (multipart body): its content as text, or {"base64", "filename",
    # "content_type"} (executor.uploads); `svc run --name @./path` reads a local file.
    file: bool = False
    # The connection variable whose value the executor sends when a call leaves this
    # out (catalog.fills): optional, whatever the source says.
    from_connection: str | None = Field(
        default=None,
        pattern=VARIABLE_NAME,
        description="The integration's connection variable that fills this parameter when "
        "a call leaves it out (set for every parameter a variable `fills`).",
    )

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    @field_validator("name")
    @classmethod
    def _name_shape(cls, v: str) -> str:
        if not PARAM_RE.match(v):
            raise ValueError(f"parameter name {v!r} must match {PARAM_RE.pattern}")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> Parameter:
        if self.required and self.default is not None:
            raise ValueError(f"parameter {self.name!r} is required and so cannot have a default")
        if self.location == "path" and not (self.required or self.from_connection):
            raise ValueError(f"path parameter {self.name!r} must be required")
        if self.from_connection and self.default is not None:
            raise ValueError(f"parameter {self.name!r}: filled from the connection, no default")
        if self.location == "path" and self.type not in ("string", "number"):
            raise ValueError(f"path parameter {self.name!r} must be a string or number")
        if self.location == "header" and not HEADER_RE.match(self.wire_name):
            raise ValueError(f"header parameter {self.name!r} needs a valid header name")
        if self.location == "header" and self.wire_name.lower() in PROTECTED_HEADERS:
            raise ValueError(f"header parameter {self.name!r} cannot set {self.wire_name}")
        if self.multi_segment and self.location != "path":
            raise ValueError(f"parameter {self.name!r}: only path parameters can be multi_segment")
        if self.type in self.also or len(set(self.also)) != len(self.also):
            raise ValueError(f"parameter {self.name!r}: `also` repeats a type")
        if self.whole_body and self.location != "body":
            raise ValueError(f"parameter {self.name!r}: only a body parameter can be whole_body")
        if self.nullable and self.location != "body":
            raise ValueError(f"parameter {self.name!r}: only body parameters can be nullable")
        for label, value in (("default", self.default), ("example", self.example)):
            if value is not None and not value_matches(self.type, value):
                raise ValueError(f"parameter {self.name!r}: {label} {value!r} is not a {self.type}")
        if self.enum is not None:
            if not self.enum:
                raise ValueError(f"parameter {self.name!r}: enum is empty")
            for item in self.enum:
                if not value_matches(self.type, item):
                    raise ValueError(
                        f"parameter {self.name!r}: enum value {item!r} is not a {self.type}"
                    )
            if self.default is not None and self.default not in self.enum:
                raise ValueError(f"parameter {self.name!r}: default is not one of its enum")
        if self.style is not None and self.location not in ("query", "body"):
            raise ValueError(
                f"parameter {self.name!r}: only query and body parameters have a style"
            )
        if self.file and (self.location != "body" or self.type != "string"):
            raise ValueError(f"parameter {self.name!r}: a file is a string body parameter")
        if self.items is not None and self.type != "array":
            raise ValueError(f"parameter {self.name!r}: `items` only applies to arrays")
        return self

    @property
    def wire_name(self) -> str:
        return self.maps_to or self.name
