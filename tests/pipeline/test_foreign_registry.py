"""Another project's catalog, taken as it is (issue 16's acceptance).

bench/foreign.py writes 1,500 codes shaped like a query engine's error conditions: dotted
sub-codes under parents without a message, names that start with an underscore or run to 80
characters, a SQLSTATE on every code, placeholders named ``class``, ``message`` and
``from``, and no meaning, recovery, retry or transport status anywhere. errorbook must
validate and generate it without renaming a code or writing a sentence the registry did not.
(How long that takes is measured by the benchmark, not here.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from bench import foreign

from ..conftest import Run
from ..emit.test_emit_python import load_module


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from generator.cli import main

    root = foreign.write_project(tmp_path_factory.mktemp("foreign") / "engine")
    assert main(["generate", "--config", str(root / "pyproject.toml")]) == 0
    return root


@pytest.fixture(scope="module")
def source(project: Path) -> dict[str, dict[str, Any]]:
    data = yaml.safe_load((project / "codes.yaml").read_text("utf-8"))
    codes = data["codes"]
    assert isinstance(codes, dict)
    return codes


@pytest.fixture(scope="module")
def package(project: Path) -> ModuleType:
    return load_module(project / "out" / "engine_errors", "engine_errors")


def test_the_catalog_has_every_trait_it_is_meant_to_test(
    source: dict[str, dict[str, Any]],
) -> None:
    names = list(source)
    assert len(names) == 1500
    assert any(name.startswith("_") for name in names)
    assert max(len(name) for name in names) == 80
    assert sum("." in name for name in names) > 100
    assert any(code["message"] == "" for code in source.values())
    used = {p for code in source.values() for p in (code.get("placeholders") or {})}
    assert {"class", "message", "from"} <= used
    for absent in ("meaning", "recovery", "retry", "http", "jsonrpc"):
        assert not any(absent in code for code in source.values()), absent


def test_every_code_keeps_its_name_everywhere(
    project: Path, source: dict[str, dict[str, Any]], package: ModuleType
) -> None:
    data = json.loads((project / "out" / "engine_errors" / "codes.json").read_text("utf-8"))
    assert [c["code"] for c in data["codes"]] == list(source)
    assert [member.value for member in package.ErrorCode] == list(source)
    for name in source:
        assert package.CODES[name].code.value == name
    ts = (project / "ts" / "engine_errors" / "index.ts").read_text("utf-8")
    assert all(json.dumps(name) in ts for name in source)


def test_sub_codes_know_their_parent_and_parents_list_them(
    project: Path, source: dict[str, dict[str, Any]]
) -> None:
    data = json.loads((project / "out" / "engine_errors" / "codes.json").read_text("utf-8"))
    parents = {c["code"]: c.get("parent") for c in data["codes"]}
    for name in source:
        assert parents[name] == (name.rpartition(".")[0] or None), name
    parent = next(name for name, code in source.items() if code["message"] == "")
    page = (project / "site" / "docs" / "en" / "codes" / f"{parent.lower()}.md").read_text("utf-8")
    children = [name for name in source if name.rpartition(".")[0] == parent]
    assert children and all(f"({c.lower()}.md)" in page for c in children)


def test_the_declared_field_reaches_the_package_and_the_data(
    project: Path, source: dict[str, dict[str, Any]], package: ModuleType
) -> None:
    data = json.loads((project / "out" / "engine_errors" / "codes.json").read_text("utf-8"))
    for record in data["codes"]:
        sqlstate = source[record["code"]]["sqlstate"]
        assert record["fields"] == {"sqlstate": sqlstate}
        assert package.CODES[record["code"]].fields.sqlstate == sqlstate


def test_messages_take_the_names_the_system_sends(
    source: dict[str, dict[str, Any]], package: ModuleType
) -> None:
    for name, code in source.items():
        names = list(code.get("placeholders") or {})
        values = {p: f"<{p}>" for p in names}
        text = package.message(name, params=values)
        if code["message"] == "":
            assert text == name  # a parent without a message of its own shows its name
        else:
            assert all(f"<{p}>" in text for p in names), (name, text)
            assert text.count("\n") == str(code["message"]).count("\n")


def test_nothing_is_invented_and_nothing_needs_what_the_registry_lacks(
    project: Path, source: dict[str, dict[str, Any]], run: Run
) -> None:
    package_dir = project / "out" / "engine_errors"
    assert not (package_dir / "envelope.py").exists() and not (package_dir / "wire.py").exists()
    data = json.loads((package_dir / "codes.json").read_text("utf-8"))
    for record in data["codes"]:
        assert (record["meaning"], record["recovery"], record["retry"]) == (None, None, None)
        assert "http_status" not in record and "shape" not in record
    docs = (project / "locales" / "docs.pot").read_text("utf-8")
    assert len(re.findall(r"^msgctxt ", docs, re.M)) == 4  # the registry's and its layer's
    messages = (project / "locales" / "messages.pot").read_text("utf-8")
    empty = [name for name, code in source.items() if code["message"] == ""]
    assert f'msgctxt "{empty[0]}"' not in messages
    assert len(re.findall(r"^msgctxt ", messages, re.M)) == len(source) - len(empty)
    long_name = max(source, key=len)
    page = project / "site" / "docs" / "en" / "codes" / f"{long_name.lower()}.md"
    assert page.exists()
    text = page.read_text("utf-8")
    for heading in ("## Recovery", "## Retry", "## Meaning", "## Example", "HTTP"):
        assert heading not in text, heading
    assert run("check", cwd=project).code == 0
