"""Pydantic models at the agent door: a request body validated like the account door's
(400 naming each bad field), an answer serialised, a model's JSON Schema for OpenAPI."""

from __future__ import annotations

from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from skillgate.errors import BadRequest
from skillgate.http.body import loads
from skillgate.http.handlers import describe_validation

M = TypeVar("M", bound=BaseModel)


def parse(data: bytes, model: type[M]) -> M:
    if not data.strip():
        raise BadRequest("A JSON request body is required.")
    try:
        value = loads(data)
    except orjson.JSONDecodeError:
        raise BadRequest("The request body is not valid JSON.") from None
    if not isinstance(value, dict):
        raise BadRequest("The request body must be a JSON object.")
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise BadRequest(describe_validation(list(exc.errors()))) from None


def dump(model: BaseModel, *, exclude_none: bool = False) -> bytes:
    return model.model_dump_json(exclude_none=exclude_none).encode()


def schema_of(model: type[BaseModel], mode: str = "serialization") -> dict[str, Any]:
    """The model's JSON Schema with its $defs inlined (these models do not recurse)."""
    schema = model.model_json_schema(mode=mode)  # type: ignore[arg-type]
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return inline(defs[ref.removeprefix("#/$defs/")])
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    inlined: dict[str, Any] = inline(schema)
    return inlined
