"""Declared extra fields: a registry's own per-code metadata, from codes.yaml to every output."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from generator.config import Config
from generator.diagnostics import InvalidInput
from generator.pipeline.build import outputs
from generator.registry import compat
from generator.registry.validate import load_registry_text

from ..conftest import MINIMAL, Run, make_project
from ..emit.test_emit_python import load_module

DECLARED = (
    MINIMAL.replace(
        "adapters:\n",
        """adapters:
""",
    )
    + """fields:
  sqlstate:
    type: string
    description: The SQLSTATE a database client sees.
    pattern: ^[0-9A-Z]{5}$
    required: true
    column: true
    compat: breaking
  severity:
    type: choice
    description: How bad the failure is.
    values: [low, high]
    compat: cosmetic
  weight:
    type: integer
    description: A weight for sorting.
    min: 0
    max: 10
    compat: compatible
  paged:
    type: boolean
    description: Whether someone is woken up.
  tags:
    type: list
    description: Free tags.
"""
)

WITH_VALUES = DECLARED.replace(
    "    jsonrpc: -32050\n",
    '    jsonrpc: -32050\n    sqlstate: "42501"\n    severity: high\n    weight: 3\n'
    "    paged: true\n    tags: [door, entry]\n",
).replace("    related: [DOOR_CLOSED]\n", '    related: [DOOR_CLOSED]\n    sqlstate: "22023"\n')


def test_declared_fields_validate_and_reach_the_model() -> None:
    registry = load_registry_text(WITH_VALUES)
    assert [f.name for f in registry.fields] == ["sqlstate", "severity", "weight", "paged", "tags"]
    door = registry.code("DOOR_CLOSED")
    assert dict(door.extra) == {
        "sqlstate": "42501",
        "severity": "high",
        "weight": 3,
        "paged": True,
        "tags": ("door", "entry"),
    }
    assert dict(registry.code("ITEMS_REFUSED").extra) == {"sqlstate": "22023"}
    with pytest.raises(TypeError):
        door.extra["weight"] = 4  # type: ignore[index]
    hash(door)


def test_a_registry_without_fields_has_none() -> None:
    registry = load_registry_text(MINIMAL)
    assert registry.fields == ()
    assert "fields" not in registry.record(registry.code("DOOR_CLOSED"))


def problems(text: str) -> list[tuple[int, int, str, str]]:
    with pytest.raises(InvalidInput) as caught:
        load_registry_text(text)
    return [(d.mark.line, d.mark.column, d.id, d.message) for d in caught.value.diagnostics.items]


def test_undeclared_key_is_refused_with_a_suggestion() -> None:
    text = WITH_VALUES.replace('    sqlstate: "22023"\n', '    sqlstat: "22023"\n')
    found = problems(text)
    assert [(i, m) for _, _, i, m in found] == [
        ("E-SCHEMA-UNKNOWN-KEY", "unknown key 'sqlstat' in code ITEMS_REFUSED")
    ]
    with pytest.raises(InvalidInput) as caught:
        load_registry_text(text)
    assert caught.value.diagnostics.items[0].hint == "did you mean 'sqlstate'?"


@pytest.mark.parametrize(
    ("old", "new", "ident"),
    [
        ('sqlstate: "42501"', 'sqlstate: "4250"', "E-FIELD-PATTERN-MISMATCH"),
        ('sqlstate: "42501"', "sqlstate: 42501", "E-SCHEMA-TYPE"),
        ("severity: high", "severity: hihg", "E-SCHEMA-CHOICE"),
        ("weight: 3", "weight: 11", "E-FIELD-OUT-OF-RANGE"),
        ("paged: true", "paged: 'yes'", "E-SCHEMA-TYPE"),
        ("tags: [door, entry]", "tags: door", "E-SCHEMA-TYPE"),
    ],
)
def test_bad_values_are_refused(old: str, new: str, ident: str) -> None:
    found = problems(WITH_VALUES.replace(old, new))
    assert [i for _, _, i, _ in found] == [ident]
    line = next(n for n, text in enumerate(WITH_VALUES.splitlines(), 1) if old in text)
    assert found[0][0] == line


def test_a_required_field_must_be_given() -> None:
    found = problems(WITH_VALUES.replace('    sqlstate: "22023"\n', ""))
    assert [(i, m) for _, _, i, m in found] == [
        ("E-SCHEMA-MISSING-KEY", "code ITEMS_REFUSED has no 'sqlstate'")
    ]


@pytest.mark.parametrize(
    ("old", "new", "ident"),
    [
        ("    pattern: ^[0-9A-Z]{5}$", "    pattern: ^[0-9A-Z{5}$", "E-FIELD-PATTERN-INVALID"),
        ("    min: 0\n", "    min: 20\n", "E-FIELD-RANGE"),
        ("    values: [low, high]\n", "", "E-FIELD-NO-VALUES"),
        (
            "    description: Free tags.\n",
            "    description: Free tags.\n    min: 1\n",
            "E-FIELD-OPTION",
        ),
        ("  weight:\n", "  message:\n", "E-FIELD-NAME"),
        ("  weight:\n", "  class:\n", "E-FIELD-NAME"),
        ("    type: integer\n", "    type: number\n", "E-SCHEMA-CHOICE"),
    ],
)
def test_bad_declarations_are_refused(old: str, new: str, ident: str) -> None:
    text = DECLARED.replace(old, new)
    assert text != DECLARED
    with pytest.raises(InvalidInput) as caught:
        load_registry_text(text)
    assert ident in [d.id for d in caught.value.diagnostics.items]


def test_values_reach_every_output(tmp_path: Path) -> None:
    registry = load_registry_text(WITH_VALUES, "demo.yaml")
    config = Config(
        root=tmp_path,
        registry=tmp_path / "demo.yaml",
        python_out=tmp_path,
        site_dir=tmp_path / "site",
        typescript_out=tmp_path / "ts",
    )
    for name, data in outputs(config, registry).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    package = load_module(tmp_path / "demo_errors", "demo_errors_fields")
    info = package.CODES[package.ErrorCode.DOOR_CLOSED]
    assert info.fields.sqlstate == "42501"
    assert info.fields.severity == "high"
    assert info.fields.weight == 3
    assert info.fields.paged is True
    assert info.fields.tags == ("door", "entry")
    other = package.CODES[package.ErrorCode.ITEMS_REFUSED].fields
    assert (other.sqlstate, other.severity, other.weight, other.tags) == ("22023", None, None, None)

    data = json.loads((tmp_path / "demo_errors" / "codes.json").read_text("utf-8"))
    schema = json.loads(
        (tmp_path / "demo_errors" / "schemas" / "codes.schema.json").read_text("utf-8")
    )
    jsonschema.validate(data, schema)
    assert data["codes"][0]["fields"] == {
        "sqlstate": "42501",
        "severity": "high",
        "weight": 3,
        "paged": True,
        "tags": ["door", "entry"],
    }
    bad = json.loads(json.dumps(data))
    bad["codes"][1]["fields"]["sqlstate"] = "nope"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)

    ts = next(tmp_path.rglob("index.ts")).read_text("utf-8")
    assert "export interface CodeFields {" in ts
    assert "readonly sqlstate: string;" in ts
    assert 'readonly severity?: "low" | "high";' in ts
    assert '"sqlstate": "42501"' in ts and '"tags": ["door", "entry"]' in ts

    table = next(tmp_path.rglob("en/codes/index.md")).read_text("utf-8")
    assert "| sqlstate |" in table and "42501" in table and "severity" not in table
    page = next(tmp_path.rglob("en/codes/door_closed.md")).read_text("utf-8")
    assert "sqlstate: 42501 ·" in page and "tags: door, entry" in page


def test_explain_shows_declared_fields(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", WITH_VALUES)
    text = run("explain", "DOOR_CLOSED", cwd=root).out
    assert "Fields:\n  sqlstate: 42501\n" in text
    assert "  tags: door, entry\n" in text and "  paged: yes\n" in text
    data = json.loads(run("explain", "DOOR_CLOSED", "--format", "json", cwd=root).out)
    assert data["fields"]["sqlstate"] == "42501"
    assert data["fields"]["tags"] == ["door", "entry"]
    plain = json.loads(
        run(
            "explain", "DOOR_CLOSED", "--format", "json", cwd=make_project(tmp_path / "q", MINIMAL)
        ).out
    )
    assert "fields" not in plain


def _diff(old: str, new: str) -> list[compat.Change]:
    return compat.diff(load_registry_text(old), load_registry_text(new))


@pytest.mark.parametrize(
    ("old", "new", "severity"),
    [
        ('sqlstate: "42501"', 'sqlstate: "42502"', "breaking"),
        ("severity: high", "severity: low", "cosmetic"),
        ("weight: 3", "weight: 4", "compatible"),
    ],
)
def test_diff_classifies_a_changed_value_by_its_rule(old: str, new: str, severity: str) -> None:
    found = [c for c in _diff(WITH_VALUES, WITH_VALUES.replace(old, new)) if c.entity == "code"]
    name = old.split(":")[0]
    assert [(c.field, c.severity, c.kind) for c in found] == [(name, severity, "changed")]
    assert found[0].name == "DOOR_CLOSED"


def test_diff_of_declarations() -> None:
    without_tags = WITH_VALUES.replace("    tags: [door, entry]\n", "").replace(
        "  tags:\n    type: list\n    description: Free tags.\n", ""
    )
    added = _diff(without_tags, WITH_VALUES)
    assert [(c.entity, c.kind, c.severity) for c in added if c.entity == "field"] == [
        ("field", "added", "compatible")
    ]
    removed = _diff(WITH_VALUES, without_tags)
    assert [(c.entity, c.kind, c.severity) for c in removed if c.entity == "field"] == [
        ("field", "removed", "breaking")
    ]
    required = WITH_VALUES.replace(
        "    description: Free tags.\n", "    description: Free tags.\n    required: true\n"
    ).replace('    sqlstate: "22023"\n', '    sqlstate: "22023"\n    tags: [x]\n')
    assert [
        (c.entity, c.kind, c.severity) for c in _diff(without_tags, required) if c.entity == "field"
    ] == [("field", "added", "compatible")]
