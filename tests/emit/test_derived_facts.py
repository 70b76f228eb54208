"""Outputs built from the model's derived facts: a registry's site shows its own codes only,
and ``explain --format json`` agrees with codes.json about every code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.cli import main
from generator.commands import explain
from generator.emit import jsondata
from generator.registry import grpc
from generator.registry.model import Registry
from generator.registry.validate import load_registry

from ..conftest import MINIMAL, ROOT, Run, make_project

#: Every output: the package, catalogs, site and TypeScript.
ALL_OUTPUTS = (
    "[tool.errorbook]\nregistry = 'codes.yaml'\npython-out = '.'\nlocales = 'locales'\n"
    "site = 'site'\ntypescript-out = 'ts/src'\n"
)
SURFACE = load_registry(ROOT / "codes.yaml", "codes.yaml")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """MINIMAL's project with every output generated."""
    root = make_project(tmp_path_factory.mktemp("demo") / "p", MINIMAL)
    (root / "pyproject.toml").write_text(ALL_OUTPUTS, "utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        assert main(["generate"]) == 0
    return root


def generated_files(root: Path) -> list[Path]:
    inputs = {root / "codes.yaml", root / "pyproject.toml"}
    return [
        p
        for p in sorted(root.rglob("*"))
        if p.is_file() and p not in inputs and "__pycache__" not in p.parts
    ]


def test_another_registrys_outputs_never_name_surfaces_codes(demo: Path) -> None:
    files = generated_files(demo)
    assert any(p.name == "shapes.md" for p in files)
    for path in files:
        text = path.read_bytes().decode("utf-8", "replace")
        named = [c.name for c in SURFACE.codes if c.name in text and c.name not in grpc.CODES]
        assert not named, f"{path.relative_to(demo)} names {named}"


def test_the_shapes_page_shows_the_registrys_own_example_codes(demo: Path) -> None:
    page = (demo / "site" / "docs" / "en" / "shapes.md").read_text("utf-8")
    protocol, action = page.index('"code": "DOOR_CLOSED"'), page.index('"code": "ITEMS_REFUSED"')
    assert page.index("## Protocol failure") < protocol < page.index("## Action failure") < action


def agree(shown: dict[str, Any], entry: dict[str, Any]) -> None:
    """Every fact ``explain`` shows that a codes.json entry also holds has one value in both."""
    for key in (*explain.SHARED_TAIL, "code", "shape", "meaning", "recovery"):
        assert shown[key] == entry[key], key
    assert shown["layer"]["id"] == entry["layer"]
    for key in ("policy", "limit"):
        assert shown["retry"][key] == entry["retry"][key], key
    assert [limit["id"] for limit in shown["limits"]] == entry["limits"]
    assert shown["placeholders"] == {
        p["name"]: {k: p[k] for k in ("description", "example", "type")}
        for p in entry["placeholders"]
    }
    forms, message = shown["message"], entry["message"]
    if isinstance(forms, dict):
        assert (forms["one"], forms["other"], forms["count"]) == tuple(message.values())
    else:
        assert (forms, None, None) == tuple(message.values())
    assert shown["rationale"] == entry.get("rationale")
    assert shown["shape_reason"] == entry.get("shape_reason")


def test_explain_and_codes_json_agree_for_another_registry(demo: Path, run: Run) -> None:
    entries = json.loads((demo / "demo_errors" / "codes.json").read_text("utf-8"))["codes"]
    assert [e["code"] for e in entries] == ["DOOR_CLOSED", "ITEMS_REFUSED"]
    for entry in entries:
        result = run("explain", entry["code"], "--format", "json", cwd=demo)
        assert result.code == 0, result.err
        agree(json.loads(result.out), entry)


@pytest.mark.parametrize("registry", [SURFACE], ids=["surface"])
def test_explain_and_codes_json_agree_for_every_code(registry: Registry) -> None:
    entries = jsondata.resolved(registry)["codes"]
    assert isinstance(entries, list)
    for code, entry in zip(registry.codes, entries, strict=True):
        agree(explain.facts(registry, code), entry)
