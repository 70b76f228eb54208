"""``codes.json`` and JSON Schemas: the resolved registry for any language to build on.

``codes.json`` holds everything the registry resolves (shapes from layers, the codes each limit
involves, URLs, retry facts). The schemas describe it and both result envelopes, with each
envelope's ``code`` limited to the codes of that shape.
"""

from __future__ import annotations

from pathlib import PurePosixPath

import jinja2

from ..names import header
from ..registry.model import Envelope, ExtraField, Registry, Shape
from . import Files
from .render import render

DRAFT = "https://json-schema.org/draft/2020-12/schema"


#: The template every data file is rendered with.
TEMPLATE = "json/document.json.j2"


def _dump(env: jinja2.Environment, value: object) -> bytes:
    """Every JSON file renders through one template, which a project may override."""
    return render(env, TEMPLATE, data=value)


def resolved(registry: Registry) -> dict[str, object]:
    """The registry as plain data, with every derived fact resolved."""
    meta = registry.meta
    return {
        "$comment": header(registry.path),
        "$schema": "./schemas/codes.schema.json",
        "registry": {
            "name": meta.name,
            "title": meta.title,
            "version": meta.version,
            "package": meta.package,
            "source_locale": meta.source_locale,
            "locales": list(meta.locales),
            "docs_url": meta.docs_url,
            "error_domain": meta.domain,
            "description": meta.description,
            **({"wires": list(meta.wires)} if meta.wires else {}),
        },
        **_vocabulary(registry),
        "layers": [
            {
                "id": x.id,
                "title": x.title,
                "proves": x.proves,
                **({"actor": x.actor} if x.actor else {}),
                **({"shape": x.shape} if x.shape else {}),
                "description": x.description,
            }
            for x in registry.layers
        ],
        "codes": [registry.record(code) for code in registry.codes],
        "limits": [
            {
                "id": x.id,
                "title": x.title,
                "default": x.default,
                "unit": x.unit,
                "min": x.minimum,
                "max": x.maximum,
                "bounds": x.bounds,
                "codes": [c.name for c in registry.produced_by(x.id)],
            }
            for x in registry.limits
        ],
        "adapters": [
            {"id": x.id, "title": x.title, "description": x.description, **dict(x.presents)}
            for x in registry.adapters
        ],
    }


def _vocabulary(registry: Registry) -> dict[str, object]:
    """The registry's declared actors, shapes and recovery kinds, each list only if any."""
    found: dict[str, object] = {}
    if registry.actors:
        found["actors"] = [{"id": x.id, "description": x.description} for x in registry.actors]
    if registry.shapes:
        found["shapes"] = [
            {
                "id": x.id,
                "title": x.title,
                "envelope": x.envelope.value,
                "proves": x.proves,
                "description": x.description,
            }
            for x in registry.shapes
        ]
    if registry.recovery_kinds:
        found["recovery_kinds"] = [
            {"id": x.id, "summary": x.summary} for x in registry.recovery_kinds
        ]
    return found


def _text() -> dict[str, object]:
    return {"type": "string", "minLength": 1}


def _nullable(schema: dict[str, object]) -> dict[str, object]:
    return {"anyOf": [schema, {"type": "null"}]}


def _object(properties: dict[str, object], optional: tuple[str, ...] = ()) -> dict[str, object]:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
        "required": [name for name in properties if name not in optional],
    }


def _extra(declared: ExtraField) -> dict[str, object]:
    """The JSON Schema of one declared field's value."""
    value: dict[str, object]
    if declared.type == "choice":
        value = {"enum": list(declared.values)}
    elif declared.type == "integer":
        value = {"type": "integer"}
        if declared.minimum is not None:
            value["minimum"] = declared.minimum
        if declared.maximum is not None:
            value["maximum"] = declared.maximum
    elif declared.type == "boolean":
        value = {"type": "boolean"}
    else:
        value = _text()
        if declared.pattern is not None:  # matched in full, as the validator matches it
            pattern = declared.pattern
            if not (pattern.startswith("^") and pattern.endswith("$")):
                pattern = f"^(?:{pattern})$"
            value["pattern"] = pattern
        if declared.type == "list":
            value = {"type": "array", "items": value}
    return {"description": declared.description, **value}


def codes_schema(registry: Registry) -> dict[str, object]:
    names = [c.name for c in registry.codes]
    policy = registry.meta.required  # the optional keys this registry asks of every code
    kinds = bool(registry.recovery_kinds)
    semver: dict[str, object] = {
        "type": "string",
        "pattern": r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$",
    }

    def required_if(key: str, schema: dict[str, object]) -> dict[str, object]:
        return schema if key in policy else _nullable(schema)

    code = _object(
        {
            "code": {"enum": names},
            "layer": {"enum": [x.id for x in registry.layers]},
            "shape": {"enum": [x.id for x in registry.shapes]},
            "status": {"enum": ["active", "deprecated", "retired"]},
            "message": _object(
                {"text": _text(), "plural": _nullable(_text()), "count": _nullable(_text())}
            ),
            "title": required_if("title", _text()),
            "placeholders": {
                "type": "array",
                "items": _object(
                    {
                        "name": _text(),
                        "description": _text()
                        if "placeholders.description" in policy
                        else _nullable(_text()),
                        "example": {"type": ["string", "integer"]}
                        if "placeholders.example" in policy
                        else {"type": ["string", "integer", "null"]},
                        "type": {"enum": ["text", "integer"]},
                    }
                ),
            },
            "meaning": required_if("meaning", _text()),
            "rationale": _text(),
            "shape_reason": _text(),
            "agent_hint": required_if("recovery", _text()),
            "recovery": required_if(
                "recovery",
                _object(
                    {
                        "kind": _text() if kinds else {"type": "null"},
                        "summary": _text() if kinds else {"type": "null"},
                        "steps": {"type": "array", "items": _text(), "minItems": 1},
                        "avoid": {"type": "array", "items": _text()},
                    }
                ),
            ),
            "retry": required_if(
                "retry",
                _object(
                    {
                        "policy": {"enum": ["never", "after_fix", "bounded"]},
                        "limit": _nullable(_text()),
                        "delay_ms": _nullable({"type": "integer"}),
                        "attempts": _nullable({"type": "integer"}),
                    }
                ),
            ),
            "limits": {"type": "array", "items": {"enum": [x.id for x in registry.limits]}},
            "related": {"type": "array", "items": {"enum": names}},
            "http_status": {"type": "integer", "minimum": 200, "maximum": 599},
            "jsonrpc_code": _nullable({"type": "integer"}),
            "grpc_status": _nullable({"type": "integer", "minimum": 0, "maximum": 16}),
            "since": required_if("since", semver),
            "deprecated": _nullable(
                _object(
                    {
                        "since": semver,
                        "replaced_by": _nullable(_text()),
                        "reason": _nullable(_text()),
                    }
                )
            ),
            "retired": _nullable(_object({"since": semver, "reason": _nullable(_text())})),
            "docs_url": {"type": "string", "format": "uri"},
        },
        optional=("rationale", "shape_reason"),
    )
    properties = code["properties"]
    required = code["required"]
    assert isinstance(properties, dict) and isinstance(required, list)
    for key, present in (
        ("shape", bool(registry.shapes)),
        ("http_status", registry.uses("http")),
        ("jsonrpc_code", registry.uses("jsonrpc")),
    ):
        if not present:
            del properties[key]
            required.remove(key)
    if registry.fields:
        properties["fields"] = _object(
            {x.name: _extra(x) for x in registry.fields},
            optional=tuple(x.name for x in registry.fields if not x.required),
        )
        required.append("fields")
    if any(c.parent is not None for c in registry.codes):  # only then: others keep their schema
        properties = code["properties"]
        assert isinstance(properties, dict)
        properties["parent"] = {"enum": names}  # absent for a code that is not a sub-code
        if any(not c.message.text for c in registry.codes):  # a parent's message may be ""
            message = properties["message"]
            assert isinstance(message, dict)
            message["properties"]["text"] = {"type": "string"}
    return {
        "$schema": DRAFT,
        "$id": f"{registry.meta.docs_url}schemas/codes.schema.json",
        "$comment": header(registry.path),
        "title": f"{registry.meta.title} error registry (resolved)",
        **_object(
            {
                "$comment": {"type": "string"},
                "$schema": {"type": "string"},
                "registry": {"type": "object", "required": ["name", "version", "locales"]},
                "layers": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["id", "shape"] if registry.shapes else ["id"],
                    },
                },
                "codes": {"type": "array", "items": code},
                "limits": {
                    "type": "array",
                    "items": {"type": "object", "required": ["id", "default", "unit"]},
                },
                "adapters": {"type": "array", "items": {"type": "object", "required": ["id"]}},
                **{
                    key: {"type": "array", "items": {"type": "object", "required": ["id"]}}
                    for key in _vocabulary(registry)
                },
            },
            optional=("$comment", "$schema"),
        ),
    }


def envelope_schema(registry: Registry, shape: Shape) -> dict[str, object]:
    names = [c.name for c in registry.codes if c.shape == shape.id]
    error = {
        "type": "object",
        "required": ["code", "message"],
        "properties": {
            "code": {"enum": names},
            "message": {"type": "string"},
            "params": {"type": "object"},
            "request_id": {"type": "string"},
            "locale": {"type": "string"},
        },
    }
    if shape.envelope is Envelope.ERROR:
        body: dict[str, object] = {
            "type": "object",
            "required": ["ok", "error"],
            "properties": {"ok": {"const": False}, "error": error},
        }
    else:
        body = {
            "type": "object",
            "required": ["ok", "result"],
            "properties": {
                "ok": {"const": True},
                "result": {"type": "object", "required": ["error"], "properties": {"error": error}},
            },
        }
    return {
        "$schema": DRAFT,
        "$id": f"{registry.meta.docs_url}schemas/{shape.id}-envelope.schema.json",
        "$comment": header(registry.path),
        "title": f"{registry.meta.title}, {shape.title}: {shape.proves}",
        **body,
    }


def emit(registry: Registry, env: jinja2.Environment, package_dir: str) -> Files:
    root = PurePosixPath(package_dir)
    files = {
        str(root / "codes.json"): _dump(env, resolved(registry)),
        str(root / "schemas" / "codes.schema.json"): _dump(env, codes_schema(registry)),
    }
    for shape in registry.shapes:
        name = f"{shape.id}-envelope.schema.json"
        files[str(root / "schemas" / name)] = _dump(env, envelope_schema(registry, shape))
    return files
