"""CODES: every field of every generated CodeInfo is the registry's, lifecycle included."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

import surface_errors as se
from generator.registry.model import Registry
from generator.registry.validate import load_registry, load_registry_text

from ..conftest import MINIMAL, ROOT
from ..emit.test_emit_python import load_module, write_outputs
from ..registry.test_compat import DEPRECATE, RETIRE, bump

REGISTRY = load_registry(ROOT / "codes.yaml", "codes.yaml")


def declared(registry: Registry, name: str) -> dict[str, object]:
    """Each CodeInfo field as the registry declares it (enum members as their values)."""
    code = registry.code(name)
    return {
        "code": code.name,
        "layer": code.layer,
        "shape": code.shape,
        "recovery": code.recovery.kind if code.recovery else None,
        "retry": code.retry.policy.value if code.retry else None,
        "retry_limit": code.retry.limit if code.retry else None,
        "http_status": registry.http_status(code),
        "jsonrpc_code": code.jsonrpc,
        "grpc_status": registry.grpc_status(code),
        "placeholders": code.placeholder_names,
        "integers": code.integer_placeholders,
        "count": code.message.count,
        "limits": tuple(code.limits),
        "related": tuple(code.related),
        "since": code.since,
        "docs_url": registry.docs_url(code),
        "message": code.message.text,
        "message_plural": code.message.plural,
        "title": code.title or None,
        "status": code.status,
        "deprecated_since": code.deprecated.since if code.deprecated else None,
        "replaced_by": code.deprecated.replaced_by if code.deprecated else None,
        "retired_since": code.retired.since if code.retired else None,
        "hint": code.hint,
        "retry_delay_ms": registry.retry_facts(code).delay_ms,
        "retry_attempts": registry.retry_facts(code).attempts,
    }


def as_read(module: Any, info: Any) -> dict[str, object]:
    """A CodeInfo's fields, enum members as their values, after checking their types."""
    enums = {
        "code": module.ErrorCode, "layer": module.Layer, "shape": module.Shape,
        "recovery": module.Recovery, "retry": module.Retry, "replaced_by": module.ErrorCode,
    }  # fmt: skip
    fields: dict[str, object] = {}
    for field in dataclasses.fields(info):
        value = getattr(info, field.name)
        if field.name in enums and value is not None:
            assert type(value) is enums[field.name], field.name
            value = value.value
        elif field.name == "related":
            assert all(type(member) is module.ErrorCode for member in value)
            value = tuple(member.value for member in value)
        elif isinstance(value, tuple):
            assert all(type(item) is str for item in value)
        fields[field.name] = value
    return fields


def generated(tmp_path: Path, text: str, package: str) -> tuple[Registry, Any]:
    text = text.replace("package: demo_errors", f"package: {package}")
    registry = load_registry_text(text, "demo.yaml")
    write_outputs(tmp_path, registry)
    return registry, load_module(tmp_path / package, package)


def test_every_code_info_field_is_the_registrys() -> None:
    assert list(se.CODES) == [se.ErrorCode(code.name) for code in REGISTRY.codes]
    for key, info in se.CODES.items():
        assert info.code is key
        assert as_read(se, info) == declared(REGISTRY, key.value)


@pytest.mark.parametrize(
    ("edit", "version"), [(DEPRECATE, "1.3.0"), (RETIRE, "1.4.0")], ids=["deprecated", "retired"]
)
def test_lifecycle_fields_are_read_from_the_table(
    tmp_path: Path, edit: tuple[str, str], version: str
) -> None:
    package = f"life_{version.replace('.', '_')}_errors"
    registry, module = generated(tmp_path, bump(MINIMAL.replace(*edit), version), package)
    door = module.CODES[module.ErrorCode.DOOR_CLOSED]
    assert door.replaced_by is module.ErrorCode.ITEMS_REFUSED
    for code in registry.codes:
        info = module.CODES[module.ErrorCode(code.name)]
        assert as_read(module, info) == declared(registry, code.name)


def test_a_deprecation_warning_points_at_the_callers_line(tmp_path: Path) -> None:
    """failure() and each shape's builder warn about a deprecated code at the line that
    built it, not inside the package."""
    import warnings

    _, module = generated(tmp_path, bump(MINIMAL.replace(*DEPRECATE), "1.3.0"), "warn_errors")
    for build in (module.failure, module.protocol_failure):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            build(module.ErrorCode.DOOR_CLOSED)
        assert [w.category for w in caught] == [DeprecationWarning]
        assert caught[0].filename == __file__, (build.__name__, caught[0].filename)
